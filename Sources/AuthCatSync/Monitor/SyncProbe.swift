import Foundation

/// A live check that the remote answers and accepts the credentials: one
/// cheap list request, with a deadline.
public enum SyncProbe {
    /// The prefix listed: it matches at most the manifest, so the answer is tiny.
    static let prefix = "manifest"

    /// Lists the remote once; never takes much longer than `timeout`.
    ///
    /// A remote that has not answered in time counts as unreachable. The
    /// request is cancelled then, but not waited for: a hung mount or socket
    /// must not hang `authcat sync status`.
    public static func check(_ remote: any Remote, timeout: Duration = .seconds(5)) async -> SyncProbeResult {
        await withCheckedContinuation { continuation in
            let first = FirstResult(continuation)
            let request = Task {
                first.offer(await listOnce(remote))
            }
            Task {
                try? await Task.sleep(for: timeout)
                request.cancel()
                first.offer(.failed(SyncFailure(
                    category: .unreachable,
                    message: "\(remote.displayLocation) did not answer within \(timeout.components.seconds) seconds")))
            }
        }
    }

    private static func listOnce(_ remote: any Remote) async -> SyncProbeResult {
        do {
            _ = try await remote.list(prefix: prefix)
            return .reachable
        } catch {
            return .failed(SyncError.wrapping(error).failure)
        }
    }
}

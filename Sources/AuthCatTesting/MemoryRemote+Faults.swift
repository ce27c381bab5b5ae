import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// Hooks that let a test inspect the remote and make it misbehave.
///
/// None of these count as requests.
extension MemoryRemote {
    /// The requests served so far; injected failures count too.
    public var counts: RemoteRequestCounts {
        withState { $0.counts }
    }

    /// Starts counting from zero again.
    public func resetCounts() {
        withState { $0.counts = RemoteRequestCounts() }
    }

    /// Makes the next `count` operations (of any kind) fail with `error`.
    ///
    /// Failures queue up: calling this twice adds to the pending ones.
    public func failNext(_ count: Int = 1, with error: RemoteError? = nil) {
        let failure = error ?? .unreachable(location: displayLocation, reason: "injected failure")
        withState { $0.failures += Array(repeating: failure, count: count) }
    }

    /// All object names and contents, as a test would see them on the store.
    public var storedObjects: [String: Data] {
        withState { $0.objects }
    }

    /// Replaces (or adds) an object behind the remote's back, as another writer or an attacker would.
    public func replaceObject(_ name: String, with data: Data) {
        withState { $0.objects[name] = data }
    }

    /// Flips one bit of an object so that authentication of it must fail.
    ///
    /// - Returns: `false` if the object does not exist or is empty.
    @discardableResult
    public func corruptObject(_ name: String, byteOffset: Int = 0) -> Bool {
        withState { state in
            guard var data = state.objects[name], !data.isEmpty else { return false }
            let index = data.startIndex + min(max(byteOffset, 0), data.count - 1)
            data[index] ^= 0x01
            state.objects[name] = data
            return true
        }
    }

    /// Loses an object behind the remote's back.
    public func removeObject(_ name: String) {
        withState { $0.objects[name] = nil }
    }
}

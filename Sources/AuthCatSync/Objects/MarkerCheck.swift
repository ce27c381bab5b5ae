import AuthCatEssentials
import Foundation

/// Reads markers from the remote and believes only those that open with the
/// vault's object key (docs/FORMAT.md §5.5): a name alone proves nothing,
/// since anyone who can write to the remote can plant one.
struct MarkerCheck {
    let remote: any Remote
    let vaultID: String
    let objectKey: SecretBytes
    /// Whether an object is already known to be rejected, and unchanged: not read again.
    var isKnownRejected: (String) -> Bool = { _ in false }

    /// A marker that is there but does not count.
    enum Unopened {
        /// Read, and it does not open, with why.
        case rejected(name: String, data: Data, reason: String)
        /// The remote refuses to read it (too large, not a plain file), with why.
        case refused(name: String, reason: String)
    }

    /// Whether the marker `name` is there and opens; a marker that does not
    /// open, or that the remote refuses to read, is told to `unopened` and
    /// counts as absent: a planted one must not stop a sync.
    func opens(
        _ name: String, _ kind: Marker.Kind, unopened: (Unopened) -> Void = { _ in }
    ) async throws -> Bool {
        guard !isKnownRejected(name) else { return false }
        let data: Data
        do {
            guard let read = try await remote.get(name) else { return false }
            data = read
        } catch let RemoteError.objectRefused(_, reason) {
            unopened(.refused(name: name, reason: reason))
            return false
        }
        do {
            _ = try Marker.open(data, name: name, kind: kind, vault: vaultID, objectKey: objectKey)
            return true
        } catch {
            unopened(
                .rejected(name: name, data: data, reason: (error as? UserFacingError)?.description ?? "unreadable"))
            return false
        }
    }

    /// The newest "disabled everywhere" generation in `listing` above
    /// `known` whose marker opens, trying the newest first; nil if none.
    func newestDisabledGeneration(
        in listing: RemoteListing, above known: Int64, unopened: (Unopened) -> Void = { _ in }
    ) async throws -> (generation: Int64, name: String)? {
        let candidates = (listing.disabledMarkers[vaultID] ?? [:]).filter { $0.key > known }.sorted { $0.key > $1.key }
        for (generation, name) in candidates where try await opens(name, .disabled, unopened: unopened) {
            return (generation, name)
        }
        return nil
    }

    /// Whether `name` is among `known` rejections at the version it is listed
    /// with: a remote that lists no versions gets its markers read again.
    static func knownRejected(_ known: [String: SyncStore.RejectedRecord], listed: [String: String]) -> (String) -> Bool
    {
        { name in known[name].map { listed[name] == $0.version } ?? false }
    }
}

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
    /// Told about every marker that does not open, with why.
    var rejected: (String, Data, String) -> Void = { _, _, _ in }
    /// Told about every marker the remote refuses to read (too large, not a
    /// plain file), with why.
    var refused: (String, String) -> Void = { _, _ in }

    /// Whether the marker `name` is there and opens; a marker that does not
    /// open, or that the remote refuses to read, is told to `rejected` or
    /// `refused` and counts as absent: a planted one must not stop a sync.
    func opens(_ name: String, _ kind: Marker.Kind) async throws -> Bool {
        guard !isKnownRejected(name) else { return false }
        let data: Data
        do {
            guard let read = try await remote.get(name) else { return false }
            data = read
        } catch let RemoteError.objectRefused(_, reason) {
            refused(name, reason)
            return false
        }
        do {
            _ = try Marker.open(data, name: name, kind: kind, vault: vaultID, objectKey: objectKey)
            return true
        } catch {
            rejected(name, data, (error as? UserFacingError)?.description ?? "unreadable")
            return false
        }
    }

    /// The newest "disabled everywhere" generation in `listing` above
    /// `known` whose marker opens, trying the newest first; nil if none.
    func newestDisabledGeneration(
        in listing: RemoteListing, above known: Int64
    ) async throws -> (generation: Int64, name: String)? {
        let candidates = (listing.disabledMarkers[vaultID] ?? [:]).filter { $0.key > known }.sorted { $0.key > $1.key }
        for (generation, name) in candidates where try await opens(name, .disabled) {
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

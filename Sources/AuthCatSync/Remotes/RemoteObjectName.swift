/// The rules every object name and list prefix must follow.
///
/// Names are restricted so that they mean the same thing on every store: no
/// escaping the root (`..`, a leading `/`), no characters that a file system
/// or a URL would treat specially, and no hidden components (a leading `.`),
/// because the folder remote keeps its temporary files there. Names that look
/// like a file-sync tool's conflict copies are refused too, since the folder
/// remote must skip such files when listing.
public enum RemoteObjectName {
    /// Markers of conflict copies made by Syncthing (`x.sync-conflict-…`) and ownCloud (`x_conflict-…`).
    static let conflictMarkers = [".sync-conflict-", "_conflict-"]

    /// The longest name accepted, in bytes; S3 allows 1,024 including the prefix.
    public static let maximumLength = 512

    /// The most `/`-separated components a name of the format has (docs/FORMAT.md §5.1:
    /// `authcat-<vault>/e-<epoch>/<device>/b-<n>` is the deepest): a remote that walks folders
    /// to list never goes deeper, whatever a server shows.
    public static let maximumDepth = 4

    /// The most folders one listing of a remote that walks folders (WebDAV) looks into:
    /// far more than the format's folders (a vault's, its epochs' and devices') on any remote.
    public static let maximumFoldersListed = 4096

    /// Throws `RemoteError.invalidObjectName` unless `name` is a valid object name.
    ///
    /// Valid: non-empty `/`-separated components of `[A-Za-z0-9._-]`, none
    /// empty, none starting with `.`, at most `maximumLength` bytes, and not
    /// containing a conflict-copy marker (`.sync-conflict-`, `_conflict-`).
    public static func validate(_ name: String) throws {
        guard let problem = problem(with: name, isPrefix: false) else { return }
        throw RemoteError.invalidObjectName(name: name, reason: problem)
    }

    /// Throws `RemoteError.invalidObjectName` unless `prefix` is a valid list prefix.
    ///
    /// A prefix is empty, or a valid name, or a valid name followed by `/`
    /// (`devices/`), or a partial name (`devices/a1/batch-`).
    public static func validatePrefix(_ prefix: String) throws {
        guard !prefix.isEmpty else { return }
        guard let problem = problem(with: prefix, isPrefix: true) else { return }
        throw RemoteError.invalidObjectName(name: prefix, reason: problem)
    }

    /// Whether `name` is valid; used to skip foreign files when listing.
    public static func isValid(_ name: String) -> Bool {
        problem(with: name, isPrefix: false) == nil
    }

    private static func problem(with name: String, isPrefix: Bool) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.utf8.count > maximumLength { return "the name is longer than \(maximumLength) bytes" }
        if name.hasPrefix("/") { return "the name starts with '/'" }
        if let bad = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            return
                "the name contains \(bad.escaped(asASCII: true).debugDescription); only letters, digits, '.', '_', '-' and '/' are allowed"
        }
        var components = name.split(separator: "/", omittingEmptySubsequences: false)
        // A prefix may end with '/' ("devices/"), which leaves one empty last component.
        if isPrefix, components.count > 1, components.last == "" { components.removeLast() }
        if components.contains("..") { return "the name contains '..'" }
        if components.contains("") { return "the name contains an empty component ('//' or a trailing '/')" }
        if components.contains(where: { $0.hasPrefix(".") }) { return "a component of the name starts with '.'" }
        if let marker = conflictMarkers.first(where: { name.contains($0) }) {
            return "the name contains \(marker.debugDescription), which marks a file-sync conflict copy"
        }
        return nil
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-", "/": return true
        default: return false
        }
    }
}

/// Where an rclone remote keeps its objects: `rclone:REMOTE:PATH`, in rclone's own terms.
///
/// `REMOTE` is a remote of rclone's configuration (`rclone.conf`, or
/// `RCLONE_CONFIG_<NAME>_*` variables), which holds its credentials; authcat
/// never sees them. Names that would put a secret on rclone's command line
/// (a connection string `remote,user=…:` or an on-the-fly `:backend,…:`) or
/// read as an option (`-…`) are refused.
public struct RcloneConfiguration: Sendable, Equatable {
    /// The configured remote's name, without the colon.
    public var remote: String
    /// The folder in the remote, without a trailing `/`; may be empty (the remote's root).
    public var path: String

    public init(remote: String, path: String) {
        self.remote = remote
        self.path = path
    }

    /// What rclone is given for an object name ("" for the folder itself).
    func target(_ name: String) -> String {
        let base = "\(remote):\(path)"
        guard !name.isEmpty else { return base }
        return path.isEmpty || path.hasSuffix("/") ? base + name : base + "/" + name
    }

    public var displayLocation: String { "rclone:\(remote):\(path)" }

    /// Reads what follows `rclone:`; errors do not repeat it (a connection string may hold a password).
    static func parse(_ rest: Substring) throws -> RcloneConfiguration {
        guard let colon = rest.firstIndex(of: ":") else {
            throw RemoteError.invalidLocation(
                location: "rclone:…", reason: "name an rclone remote and a folder, as in rclone:gdrive:authcat")
        }
        let remote = String(rest[..<colon])
        var path = String(rest[rest.index(after: colon)...])
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard !remote.isEmpty, remote.first != "-",
            remote.unicodeScalars.allSatisfy({ isAllowedInName($0) })
        else {
            // Not repeated: a connection string may hold a password.
            throw RemoteError.invalidLocation(
                location: "rclone:…",
                reason: "name a remote of your rclone configuration (letters, digits, '_', '-', '.', '+', '@' and "
                    + "spaces); credentials belong in rclone.conf or RCLONE_CONFIG_* variables, never in the location")
        }
        if path.hasPrefix("-") || path.contains("\n") || path.split(separator: "/").contains("..") {
            throw RemoteError.invalidLocation(
                location: "rclone:\(remote):…", reason: "the folder must not start with '-' or hold '..'")
        }
        return RcloneConfiguration(remote: remote, path: path)
    }

    private static func isAllowedInName(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "+", "@", " ": true
        default: false
        }
    }
}

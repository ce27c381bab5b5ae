#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Where a vault lives: one folder holding the database and the key file.
public struct VaultLocation: Sendable, Equatable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder.standardizedFileURL
    }

    public var databaseURL: URL { folder.appendingPathComponent("vault.sqlite") }
    public var keyFileURL: URL { folder.appendingPathComponent("vault.key") }
    /// Locked while the vault is created or its key file replaced (`FileLock`).
    public var lockFileURL: URL { folder.appendingPathComponent("vault.lock") }

    /// `override` (the `--home` option), else `$AUTHCAT_HOME`, else
    /// `$XDG_DATA_HOME/authcat` (when absolute), else `$HOME/.local/share/authcat`. Reads
    /// no variable of `environment` but `environmentVariables`.
    public static func resolve(override: String?, environment: [String: String]) throws -> VaultLocation {
        if let path = nonEmpty(override) ?? nonEmpty(environment["AUTHCAT_HOME"]) {
            return VaultLocation(folder: URL(fileURLWithPath: path))
        }
        if let data = xdgBaseDirectory(environment["XDG_DATA_HOME"]) {
            return VaultLocation(folder: URL(fileURLWithPath: data).appendingPathComponent("authcat"))
        }
        guard let home = nonEmpty(environment["HOME"]) else { throw VaultError.noHome }
        return VaultLocation(folder: URL(fileURLWithPath: home).appendingPathComponent(".local/share/authcat"))
    }

    /// The variables `resolve` reads, for callers that build its environment
    /// with `getenv` rather than copying the whole of it.
    public static let environmentVariables = ["AUTHCAT_HOME", "XDG_DATA_HOME", "HOME"]

    /// Whether a vault was ever created here.
    public var exists: Bool {
        FileManager.default.fileExists(atPath: databaseURL.path)
    }

    /// Warnings for a folder or file readable by others; throws when one is
    /// writable by others, or belongs to another user (`checkOwnership`),
    /// since then someone else could swap the vault.
    public func checkPermissions() throws -> [String] {
        try checkOwnership()
        var warnings: [String] = []
        let paths = [
            (folder.path, SecureFile.folderMode), (databaseURL.path, SecureFile.fileMode),
            (keyFileURL.path, SecureFile.fileMode),
        ]
        for (path, expected) in paths {
            guard let mode = SecureFile.mode(of: path) else { continue }
            if mode & 0o022 != 0 { throw VaultError.unsafePermissions(path, mode: mode) }
            if mode & ~expected != 0 {
                warnings.append(
                    "\(path) has mode \(String(mode, radix: 8)); run: chmod \(String(expected, radix: 8)) \(path)")
            }
        }
        return warnings
    }

    /// An XDG base directory variable's value when it may be used: the XDG
    /// Base Directory specification says a relative path is invalid and must
    /// be ignored (else the vault would follow the working folder).
    public static func xdgBaseDirectory(_ value: String?) -> String? {
        guard let value = nonEmpty(value), value.hasPrefix("/") else { return nil }
        return value
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}

extension VaultLocation {
    /// `notice` in the vault folder: one line that needs the user's
    /// attention, shown as a warning before any command but the `sync`
    /// commands (which say it themselves). AuthCatSync writes it while sync
    /// has a problem and removes it once resolved (docs/FORMAT.md §6).
    ///
    /// Here because both programs need its name: while it exists, the quick
    /// front hands every command line to `authcat-cli`, which prints it. One
    /// `access()` is all it costs the front.
    public var noticeFileURL: URL { folder.appendingPathComponent("notice") }
}

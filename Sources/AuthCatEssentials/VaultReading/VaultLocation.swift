#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Where a vault lives: one folder holding the database and the key file.
///
/// Kept as a path, not a `URL`: the quick front reaches every file of the
/// vault through `folderPath` and the `…Path` names below, and never makes a
/// `URL`, whose first use costs the front a search of every protocol
/// conformance of the binary and its character sets (docs/PERFORMANCE.md,
/// issue 22). The `URL`s are for the full program's callers.
public struct VaultLocation: Sendable, Equatable {
    /// The folder, absolute and standardized as `URL.standardizedFileURL`
    /// makes it: no `.` or `..` component, no repeated or final slash.
    public let folderPath: String

    public init(folder: URL) {
        folderPath = folder.standardizedFileURL.path
    }

    /// The folder at `path`, relative to the working folder unless absolute,
    /// with the same path as `init(folder: URL(fileURLWithPath: path))`, but
    /// for one thing: `URL` also drops a leading `/private` or
    /// `/var/automount` when the path without it exists (a macOS habit its
    /// Linux build keeps); a path already standard stays exactly as given.
    public init(path: String) {
        folderPath = Self.isStandardAbsolute(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
    }

    public var folder: URL { URL(fileURLWithPath: folderPath, isDirectory: true) }

    public var databasePath: String { path(of: "vault.sqlite") }
    public var keyFilePath: String { path(of: "vault.key") }
    public var databaseURL: URL { URL(fileURLWithPath: databasePath, isDirectory: false) }
    public var keyFileURL: URL { URL(fileURLWithPath: keyFilePath, isDirectory: false) }
    /// Locked while the vault is created or its key file replaced (`FileLock`).
    public var lockFileURL: URL { URL(fileURLWithPath: path(of: "vault.lock"), isDirectory: false) }

    /// The path of the entry `name` of the folder.
    public func path(of name: String) -> String {
        folderPath == "/" ? "/" + name : folderPath + "/" + name
    }

    /// `override` (the `--home` option), else `$AUTHCAT_HOME`, else
    /// `$XDG_DATA_HOME/authcat` (when absolute), else `$HOME/.local/share/authcat`. Reads
    /// no variable of `environment` but `environmentVariables`.
    public static func resolve(override: String?, environment: [String: String]) throws -> VaultLocation {
        if let path = nonEmpty(override) ?? nonEmpty(environment["AUTHCAT_HOME"]) {
            return VaultLocation(path: path)
        }
        if let data = xdgBaseDirectory(environment["XDG_DATA_HOME"]) {
            return VaultLocation(path: data + "/authcat")
        }
        guard let home = nonEmpty(environment["HOME"]) else { throw VaultError.noHome }
        return VaultLocation(path: home + "/.local/share/authcat")
    }

    /// The variables `resolve` reads, for callers that build its environment
    /// with `getenv` rather than copying the whole of it.
    public static let environmentVariables = ["AUTHCAT_HOME", "XDG_DATA_HOME", "HOME"]

    /// Whether a vault was ever created here.
    public var exists: Bool {
        access(databasePath, F_OK) == 0
    }

    /// Warnings for a folder or file readable by others; throws when one is
    /// writable by others, or belongs to another user (`checkOwnership`),
    /// since then someone else could swap the vault.
    public func checkPermissions() throws -> [String] {
        let modesSeen = try checkOwnership()
        var warnings: [String] = []
        let paths = [
            (folderPath, SecureFile.folderMode), (databasePath, SecureFile.fileMode),
            (keyFilePath, SecureFile.fileMode),
        ]
        for (path, expected) in paths {
            guard let mode = modesSeen[path] ?? SecureFile.mode(of: path) else { continue }
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

    /// Whether `URL` would leave `path` as it is: absolute, and without an
    /// empty, `.` or `..` component (no `//`, no final `/`), so without
    /// anything to resolve (a `~` is expanded only at the start of a relative
    /// path). Any other path, rare, goes through `URL`, the rule for it.
    static func isStandardAbsolute(_ path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        var componentLength = 0
        var dots = 0
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if componentLength == 0 || componentLength == dots { return false }
                componentLength = 0
                dots = 0
            } else {
                componentLength += 1
                if byte == UInt8(ascii: "."), componentLength <= 2, dots == componentLength - 1 { dots += 1 }
            }
        }
        return componentLength > 0 && componentLength != dots
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
    public var noticeFilePath: String { path(of: "notice") }
    public var noticeFileURL: URL { URL(fileURLWithPath: noticeFilePath, isDirectory: false) }
}

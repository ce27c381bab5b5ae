import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

/// One look at a followed file, for `follow add`, `follow now` and its
/// watch: the file read once it has stopped changing, opened with its kept
/// password (asked again on a terminal when it no longer opens the file),
/// parsed, and applied. A file that cannot be read, opened or parsed changes
/// no account; the problem is kept for `follow list` and `doctor`.
struct FollowedFileLook {
    var vault: Vault
    var invocation: Invocation

    /// A file's content, read whole and parsed.
    struct Content {
        var parsed: ParsedImport
        var digest: Data
        /// A password given now, to keep.
        var newPassword: SecretBytes?
    }

    /// Applies what changed in `file`. A file that cannot be read, opened or
    /// parsed is that file's problem, kept for `follow list` and `doctor`;
    /// anything else (the vault's passphrase, a busy vault) is thrown.
    func check(_ file: FollowedFile) throws -> FollowReport {
        var data: Data
        do {
            data = try Self.settledContent(of: file.path, in: invocation)
        } catch let error as UserFacingError {
            return try failed(file, error)
        }
        defer { data.resetBytes(in: 0..<data.count) }
        let digest = Data(SHA256.hash(data))
        if digest == file.digest, file.problem == nil {
            try vault.recordFollowLook(file, problem: nil)
            return FollowReport(name: file.name, status: .unchanged)
        }
        let kept = file.hasPassword ? try vault.followPassword(of: file) : nil
        let content: Content
        do {
            content = try read(
                data, digest: digest, format: ImportFormat(rawValue: file.format), name: file.name, kept: kept)
        } catch let error as UserFacingError {
            return try failed(file, error)
        }
        return try Follower(vault: vault, file: file).apply(
            content.parsed, digest: digest, password: content.newPassword)
    }

    /// Records why `file` was not applied, and reports it.
    private func failed(_ file: FollowedFile, _ error: UserFacingError) throws -> FollowReport {
        try vault.recordFollowLook(file, problem: error.description)
        let status: FollowReport.Status = error is PasswordNeeded ? .passwordNeeded : .failed
        return FollowReport(name: file.name, status: status, problem: error.description)
    }

    /// Parses `data`: with the `kept` password when there is one, else with one
    /// asked for (the import password file, else the terminal).
    /// - Parameter name: the followed file's, for messages; nil before it is followed.
    func read(
        _ data: Data, digest: Data, format: ImportFormat?, name: String?, kept: SecretBytes?
    ) throws -> Content {
        let format = try format ?? FormatDetector.detect(data)
        if let kept {
            do {
                let parsed = try format.parse(data, context: ImportContext(password: { kept }))
                return Content(parsed: parsed, digest: digest)
            } catch let error where Self.isWrongPassword(error) {
                guard canAsk else { throw PasswordNeeded(name: name, changed: true) }
                invocation.output.warning("the kept password of '\(name ?? "")' no longer opens it")
            }
        }
        guard canAsk else {
            return Content(
                parsed: try format.parse(
                    data,
                    context: ImportContext(password: { throw PasswordNeeded(name: name, changed: false) })),
                digest: digest)
        }
        let given = GivenPassword()
        let parsed = try PassphraseSource.opening(
            variable: PassphraseSource.importVariable, prompt: "password of the \(format.displayName)", in: invocation
        ) { context in
            try format.parse(
                data,
                context: ImportContext(password: {
                    let password = try context.password()
                    given.value = password
                    return password
                }))
        }
        return Content(parsed: parsed, digest: digest, newPassword: given.value)
    }

    /// Whether `error` says the password does not open the file: an other
    /// app's export, or an authcat backup.
    private static func isWrongPassword(_ error: Error) -> Bool {
        switch error {
        case ImportError.wrongPassword, BackupError.wrongPassphraseOrAltered: true
        default: false
        }
    }

    /// Whether a password can be asked for: from the import password file, or on a terminal.
    private var canAsk: Bool {
        !(invocation.environment[PassphraseSource.importVariable] ?? "").isEmpty || invocation.terminal.canAsk
    }

    /// The content of `path` once it has stopped changing: a file read while
    /// another program writes it in place is read again a moment later, so
    /// that a half-written file is not applied. (Syncthing and Nextcloud
    /// write a temporary file and rename it, which is whole at once.)
    static func settledContent(of path: String, in invocation: Invocation) throws -> Data {
        for _ in 0..<settleAttempts {
            let before = try FileChange.stamp(of: path)
            let data = try InputPath.read(path, what: "the followed file", in: invocation)
            if before == (try FileChange.stamp(of: path)), before.age >= settleTime { return data }
            usleep(useconds_t(settleTime * 1_000_000))
        }
        throw FollowedFileProblem.keepsChanging(path)
    }

    static let settleAttempts = 10
    /// How long a file must have been left alone to be read as whole.
    static let settleTime = 1.0
}

/// The size and modification time of a file, to tell whether it changed.
struct FileChange: Equatable {
    var size: Int64
    var modified: timespec

    static func stamp(of path: String) throws -> FileChange {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw errno == ENOENT ? FollowedFileProblem.gone(path) : FollowedFileProblem.unreadable(path, errno)
        }
        return FileChange(size: Int64(status.st_size), modified: status.st_mtim)
    }

    /// Seconds since the file was last modified.
    var age: Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec - modified.tv_sec) + Double(now.tv_nsec - modified.tv_nsec) / 1e9
    }

    static func == (lhs: FileChange, rhs: FileChange) -> Bool {
        lhs.size == rhs.size && lhs.modified.tv_sec == rhs.modified.tv_sec
            && lhs.modified.tv_nsec == rhs.modified.tv_nsec
    }
}

/// A password asked for during a parse, kept to be sealed in the vault.
private final class GivenPassword: @unchecked Sendable {
    var value: SecretBytes?
}

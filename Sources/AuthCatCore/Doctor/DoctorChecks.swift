import AuthCatEssentials
import Foundation

/// The checks of `authcat doctor` that need nothing but files, the
/// environment and a measurement: each returns findings, never throws,
/// and never changes anything.
public enum DoctorChecks {
    /// An offset up to this many seconds is fine.
    public static let clockTolerance: Double = 2
    /// From this offset on, codes may be refused: a TOTP step is 30 s, and
    /// most services accept the step before and after, no more.
    public static let clockLimit: Double = 10

    // MARK: Clock

    /// The clock finding for a query of `server` that measured `result`.
    public static func clock(_ result: Result<SNTPMeasurement, SNTPError>, server: SNTPServer) -> DoctorFinding {
        let measurement: SNTPMeasurement
        switch result {
        case .success(let value): measurement = value
        case .failure(let error):
            return DoctorFinding(
                "clock", .warning, "not checked: \(error)", advice: "check the network", next: .nameTimeServer)
        }
        let size = abs(measurement.offset)
        let direction = measurement.offset > 0 ? "behind" : "ahead of"
        let amount = size < 10 ? String(format: "%.1f", size) : String(format: "%.0f", size)
        let message = "this machine's clock is \(amount) s \(direction) \(server)"
        if size <= clockTolerance {
            return DoctorFinding("clock", .ok, message)
        }
        let advice = "turn on time synchronisation (timedatectl set-ntp true, or run an NTP client such as chrony)"
        if size < clockLimit {
            return DoctorFinding("clock", .warning, message + "; codes change early or late", advice: advice)
        }
        return DoctorFinding("clock", .problem, message + "; services may refuse its codes", advice: advice)
    }

    // MARK: Files

    /// The vault folder must be 0700 and every file in it 0600 (no bit for
    /// group or others), all owned by this user. One finding per file that
    /// is not, or one `ok` finding.
    public static func permissions(in location: VaultLocation, userID: uid_t = geteuid()) -> [DoctorFinding] {
        let folder = location.folder.path
        guard let folderInfo = status(of: folder) else {
            return [DoctorFinding("permissions", .ok, "no vault folder yet at \(folder)")]
        }
        var findings: [DoctorFinding] = []
        if let finding = ownerOnly(folder, folderInfo, expected: SecureFile.folderMode, userID: userID) {
            findings.append(finding)
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder).sorted() else {
            return findings + [
                DoctorFinding(
                    "permissions", .problem, "\(folder) cannot be listed, so its files were not checked",
                    advice: "chmod 700 \(folder)")
            ]
        }
        var checked = 0
        for name in names {
            let path = location.folder.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let isFile = info.st_mode & S_IFMT == S_IFREG
            if isFile { checked += 1 }
            if info.st_uid != userID {
                // Whatever it is, another user's entry in the vault folder is refused (VaultLocation.checkOwnership).
                findings.append(foreignOwner(path, info, folder: folder, userID: userID))
            } else if isFile, let finding = ownerOnly(path, info, expected: SecureFile.fileMode, userID: userID) {
                findings.append(finding)
            }
        }
        if findings.isEmpty {
            let files = checked == 1 ? "1 file" : "\(checked) files"
            findings.append(DoctorFinding("permissions", .ok, "\(folder) and its \(files) are yours alone"))
        }
        return findings
    }

    /// The vault folder and its database and key file must be writable by
    /// this user: else adding, editing and every HOTP code fail, though
    /// reading works. One `writable` finding per path that is not; none when all are.
    public static func writability(in location: VaultLocation, userID: uid_t = getuid()) -> [DoctorFinding] {
        let paths = [
            (location.folder.path, SecureFile.folderMode), (location.databaseURL.path, SecureFile.fileMode),
            (location.keyFileURL.path, SecureFile.fileMode),
        ]
        return paths.compactMap { path, mode in
            // The owner's write bit counts too: root may write a 0400 file, but
            // the vault's owner is meant to, and root is rarely who runs authcat.
            guard let info = status(of: path),
                access(path, W_OK) != 0 || (info.st_uid == userID && info.st_mode & 0o200 == 0)
            else { return nil }
            let fix =
                info.st_uid == userID
                ? "run: chmod \(octal(mode)) \(path)"
                : "run: sudo chown \(userID) \(path) && chmod \(octal(mode)) \(path)"
            return DoctorFinding(
                "writable", .problem,
                "\(path) is not writable by you: adding, editing and HOTP codes fail", advice: fix)
        }
    }

    /// The variables that name a file authcat reads a secret from.
    public static let secretFileVariables = [
        "AUTHCAT_PASSPHRASE_FILE", "AUTHCAT_NEW_PASSPHRASE_FILE", "AUTHCAT_IMPORT_PASSPHRASE_FILE",
        "AUTHCAT_EXPORT_PASSPHRASE_FILE",
        "AUTHCAT_BACKUP_PASSPHRASE_FILE", "AUTHCAT_SYNC_PASSPHRASE_FILE", "AUTHCAT_NEW_SYNC_PASSPHRASE_FILE",
        "AUTHCAT_WEBDAV_PASSWORD_FILE",
    ]

    /// Each file the environment names for a secret (`secretFileVariables`),
    /// and `~/.netrc` if there is one: it must exist, be this user's, and be
    /// unreadable by group and others, as ssh asks of a key. One finding each,
    /// checked `passphrase_file` (for `AUTHCAT_PASSPHRASE_FILE`) or `secret_file`.
    public static func secretFiles(
        environment: [String: String], home: String?, userID: uid_t = getuid()
    ) -> [DoctorFinding] {
        var findings = secretFileVariables.compactMap { variable -> DoctorFinding? in
            guard let path = environment[variable], !path.isEmpty else { return nil }
            let check = variable == "AUTHCAT_PASSPHRASE_FILE" ? "passphrase_file" : "secret_file"
            return secretFile(path, named: variable, check: check, userID: userID)
        }
        if let home, !home.isEmpty, status(of: home + "/.netrc") != nil {
            findings.append(
                secretFile(home + "/.netrc", named: "the WebDAV login", check: "secret_file", userID: userID))
        }
        return findings
    }

    private static func secretFile(_ path: String, named source: String, check: String, userID: uid_t) -> DoctorFinding
    {
        guard let info = status(of: path) else {
            return DoctorFinding(
                check, .problem, "\(source) names \(path), which does not exist",
                advice: "create it with mode 0600, or unset \(source)")
        }
        if info.st_uid != userID {
            return DoctorFinding(
                check, .problem, "\(path) (\(source)) belongs to user \(info.st_uid), not you",
                advice: "keep the secret in a file of your own, mode 0600")
        }
        if let exposure = SecretFileMode.exposure(info) {
            return DoctorFinding(
                check, .problem, "\(path) (\(source)) \(exposure)", advice: SecretFileMode.fix(path))
        }
        return DoctorFinding(check, .ok, "\(path) (\(source)) is readable by you alone")
    }

    /// How the vault key is protected: by the file's mode alone, or a
    /// passphrase, and whether the vault is unlocked now. Never asks for the passphrase.
    public static func protection(in location: VaultLocation, now: Date = Date()) -> DoctorFinding {
        let check = "passphrase"
        guard location.exists else {
            return DoctorFinding(check, .ok, "no vault yet", next: .addAccount)
        }
        let keyPath = location.keyFileURL.path
        guard FileManager.default.fileExists(atPath: keyPath) else {
            return DoctorFinding(
                check, .problem, "\(keyPath) is missing: no secret can be decrypted",
                advice: "put back vault.key from the copy you took with vault.sqlite")
        }
        let keyFile: VaultKeyFile
        do {
            keyFile = try VaultKeyFile.read(from: location.keyFileURL)
        } catch {
            return DoctorFinding(
                check, .problem, "\(keyPath) cannot be read: \(error)",
                advice: "put back vault.key from the copy you took with vault.sqlite")
        }
        switch keyFile.protection {
        case .passphrase:
            guard let until = VaultKeyring.entry(vaultID: keyFile.vaultID)?.expiresAt else {
                return DoctorFinding(check, .ok, "the vault key is protected by a passphrase; locked")
            }
            return DoctorFinding(
                check, .ok,
                "the vault key is protected by a passphrase; unlocked until \(Timestamp.text(until))",
                next: .lock)
        case .none:
            return DoctorFinding(
                check, .ok,
                "no passphrase: vault.key's file mode alone protects the secrets, "
                    + "not copies of the vault folder", next: .setPassphrase)
        }
    }

    /// A followed file that has not changed for this long may no longer be written by its app.
    public static let followedFileQuietDays = 90

    /// Each followed file (`authcat follow`): there, applied at its last
    /// look, and changed within `followedFileQuietDays`. A warning each at
    /// worst: the accounts it brought keep working.
    public static func followedFiles(_ files: [FollowedFile], now: Date = Date()) -> [DoctorFinding] {
        files.map { file in
            let check = "followed_file"
            let name = "'\(TerminalText.sanitized(file.name))' (\(TerminalText.sanitized(file.path)))"
            guard status(of: file.path) != nil else {
                return DoctorFinding(
                    check, .warning, "the followed file \(name) is gone",
                    advice: "check the app or the sync program that writes it, or 'authcat follow remove \(file.name)'")
            }
            if let problem = file.problem {
                return DoctorFinding(
                    check, .warning, "the last look at \(name) failed: \(problem)", advice: "run 'authcat follow now'")
            }
            let since = file.changedAt ?? file.addedAt
            let days = Int(now.timeIntervalSince(since) / 86_400)
            guard days < followedFileQuietDays else {
                return DoctorFinding(
                    check, .warning, "the followed file \(name) has not changed for \(days) days",
                    advice: "check that its app still writes it (Aegis: automatic backups; 2FAS: backup to a folder)")
            }
            return DoctorFinding(check, .ok, "the followed file \(name) was applied at its last look")
        }
    }

    // MARK: Helpers

    private static func ownerOnly(_ path: String, _ info: stat, expected: mode_t, userID: uid_t) -> DoctorFinding? {
        let mode = info.st_mode & 0o777
        if info.st_uid != userID { return foreignOwner(path, info, folder: path, userID: userID) }
        guard mode & 0o077 != 0 else { return nil }
        let who = mode & 0o022 != 0 ? "others can change it" : "others can read it"
        return DoctorFinding(
            "permissions", .problem, "\(path) has mode \(octal(mode)): \(who)",
            advice: "run: chmod \(octal(expected)) \(path)")
    }

    /// authcat refuses a vault with such an entry, so this is always a problem.
    private static func foreignOwner(_ path: String, _ info: stat, folder: String, userID: uid_t) -> DoctorFinding {
        DoctorFinding(
            "permissions", .problem,
            "\(path) belongs to user \(info.st_uid), not you: that user could swap the vault's files, so authcat refuses it",
            advice:
                "if the vault is yours, run as root: chown -R \(userID) \(folder); else set AUTHCAT_HOME to a folder of your own"
        )
    }

    private static func status(of path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    private static func octal(_ mode: mode_t) -> String { String(mode, radix: 8) }
}

import Foundation

/// A remote in any storage rclone reaches: Google Drive, OneDrive, Dropbox,
/// SFTP, B2, WebDAV and the rest, through the `rclone` program
/// (`AUTHCAT_RCLONE` may name another) and rclone's own configuration.
///
/// Each operation is one rclone run: `lsjson` to list, `cat` to read,
/// `rcat` to write, `deletefile` and `rmdir` to delete (empty folders are
/// removed as on the other remotes), `mkdir` to prepare. rclone offers no
/// create-only write, so `create` looks first (`createOnlyEnforced` is
/// false); each device writes only its own objects, so only a second copy
/// of one device could race it.
///
/// An object's listed version is rclone's modification time and size: on
/// backends that keep times to the second (WebDAV), an object rewritten with
/// the same size within the second looks unchanged, so a device that rejected
/// it reads it again only after a later change.
///
/// One rclone run costs about 0.1 s (starting the program and reading its
/// configuration); a sync makes a few (scripts/bench-sync-webdav).
///
/// rclone's exit codes map onto the sync monitor as the other remotes'
/// failures do: 3 and 4 (directory or file not found), 5 (temporary:
/// network), 7 (fatal: often credentials); its own words are quoted with
/// anything that looks like a URL's credentials removed.
public final class RcloneRemote: Remote, Sendable {
    public let configuration: RcloneConfiguration
    let program: RcloneProgram

    /// - Parameters:
    ///   - environment: rclone's environment (its configuration variables, `PATH`, `HOME`).
    ///   - deadline: seconds one rclone run may take.
    /// - Throws: `RemoteError.invalidLocation` naming the Debian package when rclone is not found.
    public init(configuration: RcloneConfiguration, environment: [String: String], deadline: TimeInterval = 60) throws {
        self.configuration = configuration
        guard let executable = RcloneProgram.find(environment: environment) else {
            throw RemoteError.invalidLocation(
                location: configuration.displayLocation,
                reason: "the rclone program is not installed; install Debian's rclone package "
                    + "(apt install rclone), or set AUTHCAT_RCLONE to the program")
        }
        program = RcloneProgram(executable: executable, environment: environment, deadline: deadline)
    }

    public var displayLocation: String { configuration.displayLocation }

    /// rclone writes are never create-only.
    public var createOnlyEnforced: Bool? { false }

    public func prepare() async throws {
        let made = try await run(["mkdir", "--", configuration.target("")])
        guard made.status == 0 else { throw failure(made, doing: "create the folder") }
        _ = try await list(prefix: "")
    }

    public func list(prefix: String) async throws -> [RemoteObject] {
        try RemoteObjectName.validatePrefix(prefix)
        // Only the folder the prefix names is walked, not the whole remote.
        let folder = WebDAVRemote.parent(of: prefix)
        let listed = try await run(
            ["lsjson", "-R", "--files-only", "--no-mimetype", "--", configuration.target(folder)],
            maximumOutput: RcloneListing.maximumBytes)
        switch listed.status {
        case 0: break
        case 3 where !folder.isEmpty: return []
        case 3: throw RemoteError.containerMissing(location: displayLocation)
        default: throw failure(listed, doing: "list objects")
        }
        do {
            return try RcloneListing.objects(listed.output, under: folder, prefix: prefix)
        } catch let error as RcloneListing.Failure {
            throw RemoteError.protocolError(
                location: displayLocation, status: nil, detail: "rclone's listing cannot be read: \(error.reason)")
        }
    }

    public func get(_ name: String) async throws -> Data? {
        try RemoteObjectName.validate(name)
        let read = try await run(["cat", "--", configuration.target(name)], maximumOutput: RemoteObject.maximumSize)
        if read.overflowed {
            throw RemoteError.objectRefused(
                name: name, reason: "rclone sends more than the \(RemoteObject.maximumSize) bytes allowed")
        }
        switch read.status {
        case 0: return read.output
        case 3, 4: return nil
        default: throw failure(read, doing: "read \(name)")
        }
    }

    public func put(_ name: String, data: Data) async throws {
        try RemoteObjectName.validate(name)
        let written = try await run(["rcat", "--", configuration.target(name)], input: data)
        guard written.status == 0 else { throw failure(written, doing: "write \(name)") }
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try RemoteObjectName.validate(name)
        let found = try await run(
            ["lsjson", "--files-only", "--no-mimetype", "--", configuration.target(name)],
            maximumOutput: RcloneListing.maximumBytes)
        switch found.status {
        case 0 where (try? RcloneListing.objects(found.output, under: "", prefix: ""))?.isEmpty == false: return false
        case 0, 3, 4: break
        default: throw failure(found, doing: "check \(name)")
        }
        try await put(name, data: data)
        return true
    }

    public func delete(_ name: String) async throws {
        try RemoteObjectName.validate(name)
        let deleted = try await run(["deletefile", "--", configuration.target(name)])
        // rclone says a missing file "is a directory or doesn't exist" with status 1; absent is deleted.
        let absent = [3, 4].contains(deleted.status) || deleted.errors.contains("doesn't exist")
        guard deleted.status == 0 || absent else { throw failure(deleted, doing: "delete \(name)") }
        var folder = WebDAVRemote.parent(of: name)
        // rmdir removes a folder only when it is empty: the first that is not ends the walk.
        while !folder.isEmpty {
            let removed = try await run(["rmdir", "--", configuration.target(folder)])
            guard removed.status == 0 else { return }
            folder = WebDAVRemote.parent(of: folder)
        }
    }

    private func run(
        _ arguments: [String], input: Data? = nil, maximumOutput: Int = 64 * 1024
    ) async throws
        -> RcloneProgram.Outcome
    {
        let outcome = try await program.run(arguments, input: input, maximumOutput: maximumOutput)
        if outcome.timedOut {
            throw RemoteError.unreachable(
                location: displayLocation, reason: "rclone did not finish within \(Int(program.deadline)) s")
        }
        return outcome
    }

    /// The error for a failed run, by rclone's exit code and words.
    func failure(_ outcome: RcloneProgram.Outcome, doing operation: String) -> RemoteError {
        let said = Self.lastMessage(outcome.errors)
        let lower = said.lowercased()
        let quoted = said.isEmpty ? "" : ": rclone says \(said.debugDescription)"
        if ["401", "403", "unauthorized", "forbidden", "authentic", "permission denied", "invalid_grant", "token"]
            .contains(where: lower.contains)
        {
            return .credentialsRejected(
                location: displayLocation, reason: "cannot \(operation)\(quoted); check the remote with rclone config")
        }
        if ["quota", "insufficient storage", "507", "no space left"].contains(where: lower.contains) {
            return .protocolError(
                location: displayLocation, status: nil,
                detail: "cannot \(operation): no space left for this account\(quoted); free some space or raise "
                    + "the quota, nothing was lost")
        }
        if outcome.status == 5
            || ["connection refused", "no such host", "timeout", "i/o timeout", "network is unreachable", "eof"]
                .contains(where: lower.contains)
        {
            return .unreachable(location: displayLocation, reason: "cannot \(operation)\(quoted)")
        }
        if lower.contains("didn't find section in config file") || lower.contains("config file not found") {
            return .invalidLocation(
                location: displayLocation,
                reason: "rclone knows no remote '\(configuration.remote)'; add it with rclone config")
        }
        return .protocolError(
            location: displayLocation, status: nil,
            detail: "cannot \(operation) (rclone exit status \(outcome.status))\(quoted)")
    }

    /// rclone's last error line, without its time stamp, URL credentials removed, at most 300 characters.
    static func lastMessage(_ errors: String) -> String {
        guard let line = errors.split(whereSeparator: \.isNewline).last(where: { !$0.isEmpty }) else { return "" }
        var text = String(line)
        if let marker = text.range(of: "ERROR : ") ?? text.range(of: "NOTICE: ") ?? text.range(of: "Failed to ") {
            text = String(text[marker.lowerBound...])
        }
        return String(RemoteLocation.redacted(text).prefix(300))
    }
}

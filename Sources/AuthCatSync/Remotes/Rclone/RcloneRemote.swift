import Foundation

/// A remote in any storage rclone reaches: Google Drive, OneDrive, Dropbox,
/// SFTP, B2, WebDAV and the rest, through the `rclone` program
/// (`AUTHCAT_RCLONE` may name another) and rclone's own configuration.
///
/// One rclone process serves the remote's whole life: rclone's remote
/// control (`RcloneControlServer`), started when the remote is made (and
/// again at a request if it ended). Each
/// operation is one call to it: `operations/list` to list, a read of the
/// object it serves to get, `operations/uploadfile` to write,
/// `operations/deletefile` and `operations/rmdir` to delete (empty folders
/// are removed as on the other remotes), `operations/mkdir` to prepare.
/// rclone offers no create-only write, so `create` looks first
/// (`operations/stat`; `capabilities.createOnlyEnforced` is false); each device writes
/// only its own objects, so only a second copy of one device could race it.
///
/// An object's listed version is rclone's modification time and size: on
/// backends that keep times to the second (WebDAV), an object rewritten with
/// the same size within the second looks unchanged, so a device that rejected
/// it reads it again only after a later change.
///
/// rclone's failures map onto the sync monitor as the other remotes' do, by
/// its reply's status (404: not found) and its words (credentials, quota,
/// network); its words are quoted with anything that looks like a URL's
/// credentials removed.
public final class RcloneRemote: Remote, Sendable {
    /// How long rclone may take to start when the remote is made: long enough
    /// for a busy machine (it takes about 0.13 s), short enough for `sync status`.
    public static let startTimeout: Duration = .seconds(10)

    public let configuration: RcloneConfiguration
    let program: RcloneProgram
    let server: RcloneControlServer

    /// A remote whose rclone is started: ready for its first request, so that
    /// a deadline on a request measures the remote's answer, not rclone's start.
    ///
    /// - Parameters:
    ///   - environment: rclone's environment (its configuration variables, `PATH`, `HOME`).
    ///   - deadline: seconds one request may take.
    /// - Throws: `RemoteError.invalidLocation` naming the Debian package when rclone is not found,
    ///   `RemoteError.unreachable` with rclone's last words when it does not start within `startTimeout`.
    public convenience init(
        configuration: RcloneConfiguration, environment: [String: String], deadline: TimeInterval = 60
    ) async throws {
        try self.init(unstarted: configuration, environment: environment, deadline: deadline)
        do {
            try await server.start(within: Self.startTimeout)
        } catch {
            throw connectionFailure(error)
        }
    }

    /// The remote before rclone starts (at its first request): for checks that make none.
    init(
        unstarted configuration: RcloneConfiguration, environment: [String: String], deadline: TimeInterval = 60
    )
        throws
    {
        self.configuration = configuration
        guard let executable = RcloneProgram.find(environment: environment) else {
            throw RemoteError.invalidLocation(
                location: configuration.displayLocation,
                reason: "the rclone program is not installed; install Debian's rclone package "
                    + "(apt install rclone), or set AUTHCAT_RCLONE to the program")
        }
        program = RcloneProgram(executable: executable, environment: environment, deadline: deadline)
        server = RcloneControlServer(program: program)
    }

    public var displayLocation: String { configuration.displayLocation }

    /// rclone writes are never create-only.
    public var capabilities: RemoteCapabilities { RemoteCapabilities(createOnlyEnforced: false) }

    /// The rclone file system of the remote's folder; object names are relative to it.
    private var fileSystem: String { configuration.target("") }

    public func close() async throws {
        server.close()
    }

    public func prepare() async throws {
        let made = try await call("operations/mkdir", ["fs": fileSystem, "remote": ""])
        guard made.status == 200 else { throw failure(made, doing: "create the folder") }
        _ = try await list(prefix: "")
    }

    public func list(prefix: String) async throws -> [RemoteObject] {
        try RemoteObjectName.validatePrefix(prefix)
        // Only the folder the prefix names is walked, not the whole remote.
        let folder = WebDAVRemote.parent(of: prefix)
        let listed = try await call(
            "operations/list",
            [
                "fs": fileSystem, "remote": folder,
                "opt": ["recurse": true, "filesOnly": true, "noMimeType": true, "noModTime": false],
            ], maximumBytes: RcloneListing.maximumBytes)
        switch listed.status {
        case 200: break
        case 404 where !folder.isEmpty: return []
        case 404: throw RemoteError.containerMissing(location: displayLocation)
        default: throw failure(listed, doing: "list objects")
        }
        do {
            return try RcloneListing.objects(listed.body, prefix: prefix)
        } catch let error as RcloneListing.Failure {
            throw RemoteError.protocolError(
                location: displayLocation, status: nil, detail: "rclone's listing cannot be read: \(error.reason)")
        }
    }

    public func get(_ name: String) async throws -> Data? {
        try RemoteObjectName.validate(name)
        let read: RcloneControlServer.Reply
        do {
            read = try await server.object(fs: fileSystem, name: name, maximumBytes: RemoteObject.maximumSize)
        } catch HTTPTransport.Failure.tooLarge(_, true) {
            throw RemoteError.objectRefused(
                name: name, reason: "rclone sends more than the \(RemoteObject.maximumSize) bytes allowed")
        } catch {
            throw connectionFailure(error)
        }
        switch read.status {
        case 200: return read.body
        case 404: return nil
        default: throw failure(read, doing: "read \(name)")
        }
    }

    public func put(_ name: String, data: Data) async throws {
        try RemoteObjectName.validate(name)
        let leaf = name.split(separator: "/").last.map(String.init) ?? name
        let written: RcloneControlServer.Reply
        do {
            written = try await server.upload(
                fs: fileSystem, folder: WebDAVRemote.parent(of: name), leaf: leaf, data: data)
        } catch {
            throw connectionFailure(error)
        }
        guard written.status == 200 else { throw failure(written, doing: "write \(name)") }
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try RemoteObjectName.validate(name)
        let found = try await call("operations/stat", ["fs": fileSystem, "remote": name])
        switch found.status {
        case 200 where found.object?["item"] is [String: Any]: return false
        case 200, 404: break
        default: throw failure(found, doing: "check \(name)")
        }
        try await put(name, data: data)
        return true
    }

    public func delete(_ name: String) async throws {
        try RemoteObjectName.validate(name)
        let deleted = try await call("operations/deletefile", ["fs": fileSystem, "remote": name])
        guard deleted.status == 200 || deleted.status == 404 else { throw failure(deleted, doing: "delete \(name)") }
        var folder = WebDAVRemote.parent(of: name)
        // rmdir removes a folder only when it is empty: the first that is not ends the walk.
        while !folder.isEmpty {
            let removed = try await call("operations/rmdir", ["fs": fileSystem, "remote": folder])
            guard removed.status == 200 else { return }
            folder = WebDAVRemote.parent(of: folder)
        }
    }

    private func call(
        _ method: String, _ parameters: [String: Any], maximumBytes: Int = 64 * 1024
    ) async throws -> RcloneControlServer.Reply {
        do {
            return try await server.call(method, parameters, maximumBytes: maximumBytes)
        } catch {
            throw connectionFailure(error)
        }
    }

    /// The error for a request that got no reply from rclone's remote control.
    func connectionFailure(_ error: Error) -> Error {
        if let start = error as? RcloneControlServer.StartFailure {
            let said = Self.lastMessage(start.said)
            return RemoteError.unreachable(
                location: displayLocation,
                reason: "rclone's remote control did not start"
                    + (said.isEmpty ? "" : ": rclone says \(said.debugDescription)"))
        }
        if case HTTPTransport.Failure.deadlineExceeded = error {
            return RemoteError.unreachable(
                location: displayLocation, reason: "rclone did not finish within \(Int(program.deadline)) s")
        }
        return HTTPTransport.failure(error, location: displayLocation)
    }

    /// The error for a failed call, by rclone's words.
    func failure(_ reply: RcloneControlServer.Reply, doing operation: String) -> RemoteError {
        let said = Self.lastMessage(reply.message)
        let lower = said.lowercased()
        let words = Self.words(said)
        // At the start of a word: "authentic" names authentication and authenticate.
        let mentions = { (starts: [String]) in starts.contains { words.contains(" \($0)") } }
        let quoted = said.isEmpty ? "" : ": rclone says \(said.debugDescription)"
        let refusals = [
            "401 ", "403 ", "unauthorized", "unauthenticated", "forbidden", "authentic", "permission denied",
            "invalid_grant", "token",
        ]
        if mentions(refusals) {
            return .credentialsRejected(
                location: displayLocation, reason: "cannot \(operation)\(quoted); check the remote with rclone config")
        }
        if mentions(["quota", "insufficient storage", "507 ", "no space left"]) {
            return .protocolError(
                location: displayLocation, status: nil,
                detail: "cannot \(operation): no space left for this account\(quoted); free some space or raise "
                    + "the quota, nothing was lost")
        }
        if mentions(["connection refused", "no such host", "timeout", "network is unreachable", "eof"]) {
            return .unreachable(location: displayLocation, reason: "cannot \(operation)\(quoted)")
        }
        if lower.contains("didn't find section in config file") || lower.contains("config file not found") {
            return .invalidLocation(
                location: displayLocation,
                reason: "rclone knows no remote '\(configuration.remote)'; add it with rclone config")
        }
        return .protocolError(location: displayLocation, status: nil, detail: "cannot \(operation)\(quoted)")
    }

    /// rclone's words, for telling kinds of failure apart: lowercased, what it
    /// quotes left out (a URL or a path, which may hold any text: an object
    /// named `t-6403…` is no refusal), one space between words and one at
    /// each end, so that `" 403 "` matches a whole word only.
    static func words(_ said: String) -> String {
        var unquoted = ""
        var inQuotes = false
        for character in said.lowercased() {
            if character == "\"" {
                inQuotes.toggle()
            } else if !inQuotes {
                unquoted.append(character)
            }
        }
        let words = unquoted.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        return " " + words.joined(separator: " ") + " "
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

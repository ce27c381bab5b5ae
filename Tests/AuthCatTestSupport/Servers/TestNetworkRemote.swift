import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A WebDAV or rclone remote for one test, as a user sets it up: a
/// real server on loopback (or rclone's local backend), the location given to
/// `sync enable`, and the environment authcat needs for it (the WebDAV
/// password in a 0600 file, rclone's remote in `RCLONE_CONFIG_*` variables).
///
/// The folder the objects land in is on this machine, so that a test can
/// look at what a killed or failed run left there.
public final class TestNetworkRemote {
    public enum Kind: String, Sendable {
        /// lighttpd's mod_webdav, which honours `If-None-Match`.
        case webdav
        /// rclone's local backend: the rclone program on every operation.
        case rclone
    }

    public let kind: Kind
    /// What `sync enable --remote` is given.
    public let location: String
    /// What every authcat run needs for this remote.
    public let environment: [String: String]
    /// The folder on this machine that holds the remote's objects.
    public let folder: String
    /// The WebDAV server, for `.webdav`.
    public let server: WebDAVServer?

    /// - Parameters:
    ///   - scratch: the test's scratch folder; the server's configuration, password file and files go in it.
    ///   - documentRoot: the folder the WebDAV server serves (a small tmpfs, say); one in `scratch` by default.
    public init(
        _ kind: Kind, scratch: URL, documentRoot: String? = nil, serverKind: WebDAVServer.Kind = .lighttpd
    ) throws {
        self.kind = kind
        let vault = "t-\(UUID().uuidString.prefix(8).lowercased())/authcat"
        switch kind {
        case .webdav:
            let serverFolder = scratch.appendingPathComponent("webdav-server").path
            try FileManager.default.createDirectory(atPath: serverFolder, withIntermediateDirectories: true)
            let server = try WebDAVServer(serverKind, folder: serverFolder, documentRoot: documentRoot)
            self.server = server
            let passwordFile = scratch.appendingPathComponent("webdav-password")
            try Data((server.password + "\n").utf8).write(to: passwordFile)
            chmod(passwordFile.path, 0o600)
            location = "dav://\(server.user)@127.0.0.1:\(server.port)/\(vault)"
            environment = ["AUTHCAT_WEBDAV_PASSWORD_FILE": passwordFile.path]
            folder = server.documentRoot + "/" + vault
        case .rclone:
            server = nil
            let base = documentRoot ?? scratch.appendingPathComponent("rclone-remote").path
            folder = base + "/" + vault
            location = "rclone:box:" + folder
            environment = [
                "RCLONE_CONFIG": scratch.appendingPathComponent("rclone.conf").path, "RCLONE_CONFIG_BOX_TYPE": "local",
            ]
        }
    }

    public func stop() {
        server?.stop()
    }

    /// Every file under the remote's folder, as sorted relative paths.
    public func files() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }.sorted()
    }
}

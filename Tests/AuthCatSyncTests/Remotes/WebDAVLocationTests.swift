import AuthCatEssentials
import Foundation
import Synchronization
import XCTest

@testable import AuthCatSync

/// Parsing `davs://`, `dav://` and `rclone:` locations, and finding a WebDAV password.
final class WebDAVLocationTests: XCTestCase {
    func testNextcloudLocation() throws {
        let location = try RemoteLocation(parsing: "davs://alice@cloud.example.com/remote.php/dav/files/alice/authcat")
        XCTAssertEqual(
            location,
            .webDAV(
                WebDAVConfiguration(
                    scheme: "https", host: "cloud.example.com", user: "alice",
                    path: "/remote.php/dav/files/alice/authcat")))
        XCTAssertEqual(location.kind, "webdav")
        XCTAssertEqual(location.displayLocation, "davs://alice@cloud.example.com/remote.php/dav/files/alice/authcat")
        XCTAssertFalse(location.isCleartextOverNetwork)
    }

    func testAPasswordInTheURLIsRefusedWithoutBeingRepeated() {
        for text in ["davs://alice:hunter2@nas.local/authcat", "dav://alice:hunter2@127.0.0.1:8080/authcat"] {
            XCTAssertThrowsError(try RemoteLocation(parsing: text)) { error in
                let message = String(describing: error)
                XCTAssertFalse(message.contains("hunter2"), message)
                XCTAssertTrue(message.contains("AUTHCAT_WEBDAV_PASSWORD_FILE"), message)
                XCTAssertTrue(message.contains("~/.netrc"), message)
            }
        }
    }

    func testPlainHTTPIsForLoopbackUnlessAllowed() throws {
        XCTAssertNoThrow(try RemoteLocation(parsing: "dav://alice@127.0.0.1:8080/authcat"))
        XCTAssertNoThrow(try RemoteLocation(parsing: "dav://alice@localhost:8080/authcat"))
        XCTAssertThrowsError(try RemoteLocation(parsing: "dav://alice@nas.local/authcat")) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains("unencrypted"), message)
            XCTAssertTrue(message.contains("allow_http=true"), message)
        }
        let allowed = try RemoteLocation(parsing: "dav://alice@nas.local/authcat?allow_http=true")
        XCTAssertTrue(allowed.isCleartextOverNetwork)
        XCTAssertEqual(allowed.displayLocation, "dav://alice@nas.local/authcat?allow_http=true")
    }

    func testAFolderIsRequiredAndUnknownQueriesAreRefused() {
        XCTAssertThrowsError(try RemoteLocation(parsing: "davs://alice@nas.local/"))
        XCTAssertThrowsError(try RemoteLocation(parsing: "davs://alice@nas.local/a/../b"))
        XCTAssertThrowsError(try RemoteLocation(parsing: "davs://alice@nas.local/a?insecure=true"))
    }

    func testRcloneLocations() throws {
        XCTAssertEqual(
            try RemoteLocation(parsing: "rclone:gdrive:apps/authcat/"),
            .rclone(RcloneConfiguration(remote: "gdrive", path: "apps/authcat")))
        XCTAssertEqual(try RemoteLocation(parsing: "rclone:gdrive:apps/authcat").kind, "rclone")
        XCTAssertEqual(
            try RemoteLocation(parsing: "rclone:nas:/srv/authcat").displayLocation, "rclone:nas:/srv/authcat")
        // A connection string or an on-the-fly backend would put a credential on rclone's command line.
        for text in [
            "rclone:webdav,pass=secret:x", "rclone::webdav,url=http\\://x,pass=secret:x", "rclone:-v:x",
            "rclone:noremote",
        ] {
            XCTAssertThrowsError(try RemoteLocation(parsing: text), text) { error in
                XCTAssertFalse(String(describing: error).contains("secret"), "\(error)")
            }
        }
    }

    func testNetrcEntries() {
        let text = """
            # a comment
            machine other.example.com login bob password bobs
            machine nas.local
                login alice
                password "with space"
            macdef init
            cd /tmp

            default login anon password anons
            """
        XCTAssertEqual(
            NetrcFile.entry(in: text, host: "NAS.local", login: nil),
            NetrcFile.Entry(login: "alice", password: "with space"))
        XCTAssertEqual(
            NetrcFile.entry(in: text, host: "nas.local", login: "alice"),
            NetrcFile.Entry(login: "alice", password: "with space"))
        XCTAssertNil(
            NetrcFile.entry(in: text, host: "nas.local", login: "carol"),
            "no entry, not even default, for another login")
        XCTAssertEqual(NetrcFile.entry(in: text, host: "unknown", login: nil)?.login, "anon")
    }

    /// The named file first, then ~/.netrc, then a prompt; none of them without a user to ask for.
    func testPasswordSourcesInOrder() throws {
        let home = try makeTemporaryFolder()
        let configuration = WebDAVConfiguration(host: "nas.local", user: "alice", path: "/authcat")
        let asked = WebDAVPasswordSource(named: { nil }, typed: { _ in SecretBytes(utf8: "typed") })
        XCTAssertEqual(try password(asked, configuration, home.path), "typed")

        try "machine nas.local login alice password fromnetrc\n".write(
            toFile: home.path + "/.netrc", atomically: true, encoding: .utf8)
        XCTAssertEqual(try password(asked, configuration, home.path), "fromnetrc")

        let named = WebDAVPasswordSource(named: { SecretBytes(utf8: "fromfile") }, typed: { _ in nil })
        XCTAssertEqual(try password(named, configuration, home.path), "fromfile")

        var noUser = configuration
        noUser.user = nil
        let fromNetrc = try WebDAVPasswordSource.netrcOnly.credentials(for: noUser, homeDirectory: home.path)
        XCTAssertEqual(fromNetrc?.user, "alice", "the login comes from ~/.netrc when the URL names none")

        try FileManager.default.removeItem(atPath: home.path + "/.netrc")
        XCTAssertThrowsError(
            try WebDAVPasswordSource.netrcOnly.credentials(for: configuration, homeDirectory: home.path)
        ) { error in
            XCTAssertEqual((error as? RemoteError)?.kind, .credentialsRejected)
            XCTAssertTrue(String(describing: error).contains("AUTHCAT_WEBDAV_PASSWORD_FILE"), "\(error)")
        }
    }

    /// A location without a user takes the login of the host's ~/.netrc entry
    /// also when the password comes from AUTHCAT_WEBDAV_PASSWORD_FILE; with
    /// neither, the error says where the user goes (issue 33 §9).
    func testAPasswordFileTakesTheLoginFromNetrcWhenTheLocationNamesNone() throws {
        let home = try makeTemporaryFolder()
        let noUser = WebDAVConfiguration(host: "nas.local", path: "/authcat")
        let named = WebDAVPasswordSource(named: { SecretBytes(utf8: "fromfile") }, typed: { _ in nil })
        XCTAssertThrowsError(try named.credentials(for: noUser, homeDirectory: home.path)) { error in
            XCTAssertTrue(String(describing: error).contains("machine nas.local login USER"), "\(error)")
        }
        try "machine nas.local login alice\n".write(toFile: home.path + "/.netrc", atomically: true, encoding: .utf8)
        chmod(home.path + "/.netrc", 0o600)
        let credentials = try named.credentials(for: noUser, homeDirectory: home.path)
        XCTAssertEqual(credentials?.user, "alice")
        XCTAssertEqual(try password(named, noUser, home.path), "fromfile", "the file's password goes with it")
    }

    /// A ~/.netrc others can read is still read, and the source is told the
    /// warning to show: the file and the fix, never a password in it (issue 33 §16).
    func testANetrcOthersCanReadIsReportedAsItIsRead() throws {
        let home = try makeTemporaryFolder()
        let netrc = home.path + "/.netrc"
        try "machine nas.local login alice password hunter2\n".write(toFile: netrc, atomically: true, encoding: .utf8)
        chmod(netrc, 0o644)
        let warnings = Mutex<[String]>([])
        let source = WebDAVPasswordSource(
            named: { nil }, typed: { _ in nil }, exposed: { warning in warnings.withLock { $0.append(warning) } })
        let configuration = WebDAVConfiguration(host: "nas.local", user: "alice", path: "/authcat")
        XCTAssertEqual(try password(source, configuration, home.path), "hunter2")
        XCTAssertEqual(
            warnings.withLock { $0 },
            ["\(netrc) has mode 644: others can read the secret in it; run: chmod 600 \(netrc)"])
        chmod(netrc, 0o600)
        XCTAssertEqual(try password(source, configuration, home.path), "hunter2")
        XCTAssertEqual(warnings.withLock { $0.count }, 1, "a file of the user's alone is read without a word")
    }

    /// A ~/.netrc another user could write is not believed (a FIFO neither: it would hang the sync).
    func testANetrcThatIsNotAPlainFileIsRefused() throws {
        let home = try makeTemporaryFolder()
        XCTAssertEqual(mkfifo(home.path + "/.netrc", 0o600), 0)
        let configuration = WebDAVConfiguration(host: "nas.local", user: "alice", path: "/authcat")
        XCTAssertThrowsError(
            try WebDAVPasswordSource.netrcOnly.credentials(for: configuration, homeDirectory: home.path)
        ) { error in
            XCTAssertEqual((error as? RemoteError)?.kind, .io, "\(error)")
        }
    }

    private func password(
        _ source: WebDAVPasswordSource, _ configuration: WebDAVConfiguration, _ home: String
    ) throws -> String? {
        try source.credentials(for: configuration, homeDirectory: home).map {
            String(decoding: $0.password.unprotectedData(), as: UTF8.self)
        }
    }

    /// An href names what the server would serve for it: percent-decoded and its dot segments resolved, so that
    /// `..` or `%2e%2e` never passes for a name inside the folder (issue 32 §4).
    func testHrefsAreResolvedBeforeTheyAreCompared() {
        let configuration = WebDAVConfiguration(scheme: "http", host: "127.0.0.1", port: 8080, path: "/dav/vault")
        let expected: [(String, String?)] = [
            ("/dav/vault/", ""), ("/dav/vault", ""), ("/dav/vault/authcat-x/", "authcat-x"),
            ("/dav/vault/authcat-x/manifest", "authcat-x/manifest"),
            ("http://127.0.0.1:8080/dav/vault/a/b", "a/b"), ("/dav/vault/a%2Db", "a-b"),
            ("/dav/vault/./a/../b", "b"), ("/dav/vault//a", "a"), ("/dav/vault/a?x=1", "a"),
            ("/dav/vault/../outside/", nil), ("/dav/vault/%2e%2e/outside/", nil), ("/dav/vault/%2E%2E/x", nil),
            ("/dav/vault/a/../../outside", nil), ("/dav/vault/..%2Foutside", nil), ("/dav/outside/", nil),
            ("/dav/vault-other/a", nil), ("/dav/vault/../vault/a", "a"), ("/../../etc/passwd", nil),
            ("http://127.0.0.1:8080/dav/vault/../outside/", nil), ("dav/vault/a", nil), ("", nil),
        ]
        for (href, name) in expected {
            XCTAssertEqual(configuration.name(ofHref: href), name, href)
        }
    }
}

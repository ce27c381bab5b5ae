import XCTest

@testable import AuthCatSync

final class RemoteLocationTests: XCTestCase {
    private func s3(_ text: String) throws -> S3Configuration {
        guard case .s3(let configuration) = try RemoteLocation(parsing: text) else {
            throw RemoteError.invalidLocation(location: text, reason: "expected s3")
        }
        return configuration
    }

    func testFileURLsAndAbsolutePaths() throws {
        XCTAssertEqual(
            try RemoteLocation(parsing: "file:///home/me/Sync/authcat"), .folder(path: "/home/me/Sync/authcat"))
        XCTAssertEqual(try RemoteLocation(parsing: "file://localhost/srv/authcat"), .folder(path: "/srv/authcat"))
        XCTAssertEqual(try RemoteLocation(parsing: "file:///home/me/My%20Sync"), .folder(path: "/home/me/My Sync"))
        XCTAssertEqual(try RemoteLocation(parsing: "/mnt/nas/authcat"), .folder(path: "/mnt/nas/authcat"))
        XCTAssertEqual(try RemoteLocation(parsing: "file:///srv/authcat").displayLocation, "file:///srv/authcat")
    }

    func testBadFileURLsSayWhy() async {
        let cases = [
            ("file://nas.local/share", "remove the host"), ("file:relative/path", "must be absolute"),
            ("file:///srv/a/../b", "'..'"), ("file:///srv/a?x=1", "no query"), ("relative/path", "not a URL"),
            ("ftp://host/path", "unsupported scheme 'ftp'"),
            ("file://me:pw@localhost/srv", "a folder takes no user name or password"),
        ]
        for (text, expected) in cases {
            let error = await assertRemoteError(.invalidLocation, text) { try RemoteLocation(parsing: text) }
            XCTAssertTrue(error?.description.contains(expected) == true, "\(text): \(error?.description ?? "")")
        }
    }

    func testAnUnknownSchemeWithAUserIsAnsweredForTheScheme() async {
        for text in ["ftp://alice@cloud.example/remote.php", "gdrive://me:secret@drive/x"] {
            let error = await assertRemoteError(.invalidLocation, text) { try RemoteLocation(parsing: text) }
            let message = error?.description ?? ""
            XCTAssertTrue(message.contains("unsupported scheme"), message)
            XCTAssertFalse(message.contains("AWS"), "no advice about another remote's credentials: \(message)")
            XCTAssertFalse(message.contains("secret"), "the password is not repeated: \(message)")
        }
    }

    /// An http(s) or webdav(s) URL is a WebDAV server written another way:
    /// the message names the scheme to use and the URL as it would be, its
    /// port kept, and never repeats a password (issue 33 §9).
    func testAnHTTPSURLIsAnsweredWithTheDavsURLItMeant() async {
        let cases = [
            ("https://me@cloud.example:8443/remote.php/dav", "davs://", ":8443/remote.php/dav"),
            ("webdav://me@nas.local:5005/authcat", "dav://", "nas.local:5005/authcat"),
            ("http://me:hunter2@127.0.0.1:8080/x", "dav://", "127.0.0.1:8080/x"),
        ]
        for (text, scheme, kept) in cases {
            let error = await assertRemoteError(.invalidLocation, text) { try RemoteLocation(parsing: text) }
            let message = error?.description ?? ""
            XCTAssertTrue(message.contains("as in \(scheme)"), message)
            XCTAssertTrue(message.contains(kept), message)
            XCTAssertFalse(message.contains("hunter2"), message)
        }
    }

    func testS3DefaultsToAWSVirtualHosted() throws {
        let configuration = try s3("s3://my-bucket/authcat/vault")
        XCTAssertEqual(configuration.bucket, "my-bucket")
        XCTAssertEqual(configuration.prefix, "authcat/vault")
        XCTAssertEqual(configuration.endpoint, "https://s3.us-east-1.amazonaws.com")
        XCTAssertEqual(configuration.region, "us-east-1")
        XCTAssertFalse(configuration.pathStyle)
        XCTAssertTrue(configuration.conditionalWrites)
        XCTAssertNil(configuration.profile)
        XCTAssertEqual(configuration.displayLocation, "s3://my-bucket/authcat/vault")
    }

    func testS3WithEndpointAndOptions() throws {
        let text =
            "s3://backups/authcat/?endpoint=http://127.0.0.1:9000&region=eu-central-1&path_style=true&profile=nas&conditional_writes=false"
        let configuration = try s3(text)
        XCTAssertEqual(configuration.prefix, "authcat")
        XCTAssertEqual(configuration.endpoint, "http://127.0.0.1:9000")
        XCTAssertEqual(configuration.port, 9000)
        XCTAssertEqual(configuration.region, "eu-central-1")
        XCTAssertTrue(configuration.pathStyle)
        XCTAssertEqual(configuration.profile, "nas")
        XCTAssertFalse(configuration.conditionalWrites)
        XCTAssertEqual(
            configuration.displayLocation,
            "s3://backups/authcat?endpoint=http://127.0.0.1:9000&region=eu-central-1&profile=nas&conditional_writes=false"
        )
        XCTAssertEqual(try s3(configuration.displayLocation), configuration, "the display location parses back")
    }

    func testS3EndpointDefaultsToPathStyleUnlessToldOtherwise() throws {
        XCTAssertTrue(try s3("s3://bucket1?endpoint=https://minio.example.org").pathStyle)
        XCTAssertFalse(try s3("s3://bucket1?endpoint=https://r2.example.org&path_style=false").pathStyle)
        XCTAssertTrue(try s3("s3://my.dotted.bucket").pathStyle, "dotted buckets cannot use virtual hosts over TLS")
    }

    func testBadS3URLsSayWhy() async {
        let cases = [
            ("s3:///prefix", "names no bucket"), ("s3://B/x", "not a valid bucket name"),
            ("s3://ab/x", "not a valid bucket name"),
            ("s3://bucket1/x?endpiont=http://h", "unknown option 'endpiont'"),
            ("s3://bucket1?endpoint=ftp://h", "http:// or https://"),
            ("s3://bucket1?endpoint=http://h/path", "without a path"),
            ("s3://bucket1?path_style=maybe", "true or false"),
            ("s3://bucket1?region=", "needs a value"), ("s3://bucket1/a b", "the prefix 'a b'"),
            ("s3://bucket1/../x", "prefix"),
            ("s3://bucket1:9000/x", "endpoint="), ("s3://bucket1?region=us-east-1&region=eu-west-1", "given twice"),
        ]
        for (text, expected) in cases {
            let error = await assertRemoteError(.invalidLocation, text) { try RemoteLocation(parsing: text) }
            XCTAssertTrue(error?.description.contains(expected) == true, "\(text): \(error?.description ?? "")")
        }
    }

    func testCredentialsInTheURLAreRejectedWithoutBeingRepeated() async {
        for text in [
            "s3://AKIAEXAMPLE:topsecret@bucket1/x", "s3://AKIAEXAMPLE:top/secret+x@bucket1/x?region=eu-west-1",
            "s3://bucket1/x?endpoint=http://user:topsecret@127.0.0.1:9000",
            "s3://bucket1/x?endpoint=http://u:top/secret@h:9000&region=x",
        ] {
            let error = await assertRemoteError(.invalidLocation, text) { try RemoteLocation(parsing: text) }
            XCTAssertFalse(error?.description.contains("topsecret") == true, error?.description ?? "")
            XCTAssertFalse(error?.description.contains("top/secret") == true, error?.description ?? "")
            XCTAssertTrue(error?.description.contains("credentials") == true, error?.description ?? "")
        }
    }

    /// A location's user name is a login, not a credential: an error shows it
    /// as typed. Only a password, or anything before the @ of an s3:// URL
    /// (an access key), is removed; in text from elsewhere (a server, rclone)
    /// every user-info is, since tokens serve as user names (issue 33 §9).
    func testOnlyAPasswordOrAKeyIsRemovedFromALocationShownInAnError() async {
        let shown = [
            ("davs://alice@nas.local/", "davs://alice@nas.local/"),
            ("https://alice@cloud.example/remote.php/dav", "davs://alice@cloud.example/remote.php/dav"),
            ("davs://alice:hunter2@nas.local/authcat", "davs://<credentials removed>@nas.local/authcat"),
            ("s3://AKIAEXAMPLE@bucket/prefix", "s3://<credentials removed>@bucket/prefix"),
        ]
        for (text, expected) in shown {
            let error = await assertRemoteError(.invalidLocation, text) { try RemoteLocation(parsing: text) }
            let message = error?.description ?? ""
            XCTAssertTrue(message.contains(expected), "\(text): \(message)")
            XCTAssertFalse(message.contains("hunter2") || message.contains("AKIAEXAMPLE"), message)
        }
        XCTAssertEqual(
            RemoteLocation.redacted("s3://bucket/p?endpoint=https://AKIAEXAMPLE@minio.local", keepingUsers: true),
            "s3://bucket/p?endpoint=https://<credentials removed>@minio.local")
        XCTAssertEqual(
            RemoteLocation.redacted("moved to https://ghp_token@example.com/x"),
            "moved to https://<credentials removed>@example.com/x")
    }

    func testFactoryMakesFolderRemote() async throws {
        let remote = try await makeRemote(
            location: "file:///srv/authcat", environment: [:], homeDirectory: "/nonexistent")
        XCTAssertEqual((remote as? FolderRemote)?.rootPath, "/srv/authcat")
    }

    func testFactoryNeedsS3Credentials() async throws {
        let error = await assertRemoteError(.credentialsRejected) {
            try await makeRemote(location: "s3://bucket1/x", environment: [:], homeDirectory: "/nonexistent")
        }
        guard case .credentialsMissing? = error else {
            return XCTFail("expected credentialsMissing, got \(String(describing: error))")
        }
        XCTAssertTrue(error?.description.contains("AWS_ACCESS_KEY_ID") == true)
    }

    func testOnlyHTTPToAnotherMachineIsCleartextOverANetwork() throws {
        for (endpoint, cleartext) in [
            ("http://10.0.0.5:9000", true), ("http://minio.example", true), ("http://127.0.0.1.example", true),
            ("http://0.0.0.0:9000", true), ("http://128.0.0.1", true),
            ("https://minio.example", false), ("http://127.0.0.1:9000", false), ("http://127.9.8.7", false),
            ("http://localhost:9000", false), ("http://LOCALHOST", false), ("http://[::1]:9000", false),
        ] {
            let location = try RemoteLocation(parsing: "s3://bucket/p?endpoint=\(endpoint)")
            XCTAssertEqual(location.isCleartextOverNetwork, cleartext, endpoint)
        }
        XCTAssertFalse(try RemoteLocation(parsing: "s3://bucket/p").isCleartextOverNetwork, "AWS is https")
        XCTAssertFalse(try RemoteLocation(parsing: "file:///srv/sync").isCleartextOverNetwork)
    }
}

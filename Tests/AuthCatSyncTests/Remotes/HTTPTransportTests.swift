import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// What `HTTPTransport` (libcurl) puts on the wire, and the
/// bounds it keeps on what comes back, against a canned HTTP server.
final class HTTPTransportTests: XCTestCase {
    private var servers: [CannedHTTPServer] = []
    private var remotes: [S3Remote] = []
    private var transports: [HTTPTransport] = []

    override func tearDown() async throws {
        for remote in remotes { try await remote.close() }
        for transport in transports { transport.close() }
        for server in servers { server.stop() }
        (remotes, transports, servers) = ([], [], [])
    }

    private func server(
        _ answer: @escaping @Sendable (CannedHTTPServer.Request) -> CannedHTTPServer.Answer
    ) throws -> CannedHTTPServer {
        let server = try CannedHTTPServer(answer: answer)
        servers.append(server)
        return server
    }

    private func remote(port: Int, timeout: TimeInterval = 2) throws -> S3Remote {
        guard
            case .s3(let configuration) = try RemoteLocation(
                parsing: "s3://authcat-test/vault?endpoint=http://127.0.0.1:\(port)")
        else {
            throw RemoteError.invalidLocation(location: "s3", reason: "not s3")
        }
        let credentials = S3Credentials(accessKeyId: "AKIAAUTHCATTEST00000", secretAccessKey: "test-secret")
        let remote = S3Remote(configuration: configuration, credentials: credentials, timeout: timeout)
        remotes.append(remote)
        return remote
    }

    private func transport(idleTimeout: TimeInterval = 2, deadline: TimeInterval = 6) -> HTTPTransport {
        let transport = HTTPTransport(idleTimeout: idleTimeout, deadline: deadline)
        transports.append(transport)
        return transport
    }

    private func request(_ path: String, method: S3Request.Method = .GET, on server: CannedHTTPServer) -> S3Request {
        let host = "127.0.0.1:\(server.port)"
        return S3Request(method: method, url: "http://\(host)\(path)", headers: [("host", host)], body: Data())
    }

    func testPathQueryAndHeadersGoOutAsSigned() async throws {
        let server = try server { _ in .bytes(CannedHTTPServer.reply(200)) }
        let remote = try remote(port: server.port)
        let key = remote.configuration.key(for: "a b+c~d/e")
        let query = [(name: "prefix", value: "x y+z~/"), (name: "list-type", value: "2")]
        let read = try await remote.send(.GET, key: key, query: query)
        let written = try await remote.send(.PUT, key: remote.configuration.key(for: "manifest"), body: Data("m".utf8))
        XCTAssertEqual([read.status, written.status], [200, 200])

        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        let signed = remote.signedRequest(.GET, key: key, query: query, headers: [], body: Data())
        let pathAndQuery = String(signed.url.dropFirst("http://127.0.0.1:\(server.port)".count))
        XCTAssertEqual(pathAndQuery, "/authcat-test/vault/a%20b%2Bc~d/e?list-type=2&prefix=x%20y%2Bz~%2F")
        XCTAssertEqual(requests[0].line, "GET \(pathAndQuery) HTTP/1.1")
        XCTAssertEqual(requests[0].header("host"), "127.0.0.1:\(server.port)")
        XCTAssertEqual(requests[0].header("accept-encoding"), "identity")
        XCTAssertNotNil(requests[0].header("x-amz-date"))
        XCTAssertTrue(
            requests[0].header("authorization")?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date,") == true
        )
        XCTAssertNil(requests[0].header("cookie"))

        XCTAssertEqual(requests[1].line, "PUT /authcat-test/vault/manifest HTTP/1.1")
        XCTAssertEqual(requests[1].body, Data("m".utf8))
        XCTAssertEqual(requests[1].header("content-length"), "1")
        XCTAssertEqual(requests[1].header("x-amz-content-sha256"), SigV4Signer.payloadHash(Data("m".utf8)))
        XCTAssertNil(requests[1].header("content-type"), "no content type is added to a signed PUT")
        XCTAssertNil(requests[1].header("expect"))
    }

    func testRedirectIsTheReplyAndIsNotFollowed() async throws {
        let server = try server { request in
            let elsewhere = "http://\(request.header("host") ?? "")/elsewhere"
            let body = "<?xml version=\"1.0\"?><Error><Code>TemporaryRedirect</Code><Region>eu-west-3</Region></Error>"
            return .bytes(
                CannedHTTPServer.reply(
                    307, headers: ["location": elsewhere, "x-amz-bucket-region": "eu-central-1"], body: Data(body.utf8))
            )
        }
        let remote = try remote(port: server.port)
        let error = await assertRemoteError(.invalidLocation) { try await remote.get("manifest") }
        // The region from the 3xx body, which therefore came back whole.
        XCTAssertTrue(error?.description.contains("region=eu-west-3") == true, error?.description ?? "")
        XCTAssertEqual(server.requests.count, 1, "the redirect was not followed")
    }

    func testReplyOverTheBoundIsRefused() async throws {
        let server = try server { request in
            let path = request.line.split(separator: " ")[1]
            switch path {
            case "/announced": return .bytes(CannedHTTPServer.reply(200, body: Data(count: 1001)))
            case "/streamed": return .bytes(CannedHTTPServer.reply(200, body: Data(count: 5000), length: false))
            case "/head":
                return .bytes(CannedHTTPServer.reply(200, headers: ["content-length": "999999999"], length: false))
            default: return .bytes(CannedHTTPServer.reply(200, body: Data(repeating: 7, count: 1000)))
            }
        }
        let transport = transport()
        for path in ["/announced", "/streamed"] {
            do {
                let reply = try await transport.send(request(path, on: server), maximumBytes: 1000)
                XCTFail("\(path): expected tooLarge, got HTTP \(reply.status) with \(reply.body.count) bytes")
            } catch {
                XCTAssertEqual(
                    error as? HTTPTransport.Failure, .tooLarge(limit: 1000, successful: true), "\(path): \(error)")
            }
        }
        let exact = try await transport.send(request("/exact", on: server), maximumBytes: 1000)
        XCTAssertEqual(exact.body, Data(repeating: 7, count: 1000))
        // A HEAD reply's length is the object's; it has no body to bound.
        let head = try await transport.send(request("/head", method: .HEAD, on: server), maximumBytes: 1000)
        XCTAssertEqual(head.status, 200)

        let remote = try remote(port: server.port)
        XCTAssertEqual(
            remote.transportFailure(HTTPTransport.Failure.tooLarge(limit: 65536, successful: false)) as? RemoteError,
            .protocolError(
                location: remote.displayLocation, status: nil,
                detail: "the reply is larger than the 65536 bytes allowed"))
    }

    /// An endless chunked reply is cut at the bound and its transfer stopped, not read on and thrown away: the
    /// server's one thread sees the client go and answers the next request (issue 32 §4).
    func testAnEndlessReplyIsStoppedAtTheBound() async throws {
        let server = try server { request in
            guard request.line.hasPrefix("GET /endless ") else { return .bytes(CannedHTTPServer.reply(200)) }
            let piece = Data(count: 65_536)
            let chunk = Data((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Data("\r\n".utf8)
            return .stream(
                head: CannedHTTPServer.reply(200, headers: ["transfer-encoding": "chunked"], length: false),
                piece: chunk, count: nil, tail: Data())
        }
        // Deadlines far longer than any machine needs: only the bound may end the transfer.
        let transport = transport(idleTimeout: 60, deadline: 120)
        do {
            let reply = try await transport.send(request("/endless", on: server), maximumBytes: 1 << 20)
            XCTFail("expected tooLarge, got HTTP \(reply.status) with \(reply.body.count) bytes")
        } catch {
            XCTAssertEqual(error as? HTTPTransport.Failure, .tooLarge(limit: 1 << 20, successful: true), "\(error)")
        }
        let next = try await transport.send(request("/next", on: server), maximumBytes: 1000)
        XCTAssertEqual(next.status, 200, "the endless transfer was stopped")
    }

    /// A head without end is refused at its bound too.
    func testAnEndlessHeadIsRefused() async throws {
        let server = try server { _ in
            .stream(
                head: Data("HTTP/1.1 200 OK\r\n".utf8),
                piece: Data("x-padding: \(String(repeating: "p", count: 1000))\r\n".utf8),
                count: nil, tail: Data())
        }
        let transport = transport(idleTimeout: 60, deadline: 120)
        do {
            _ = try await transport.send(request("/head", on: server), maximumBytes: 1000)
            XCTFail("expected headTooLarge")
        } catch {
            XCTAssertEqual(error as? HTTPTransport.Failure, .headTooLarge, "\(error)")
        }
    }

    /// Plain HTTP goes straight to its server whatever the proxy variables say: it may carry a password in clear.
    func testPlainHTTPNeverGoesThroughAProxy() async throws {
        let proxy = try server { _ in .bytes(CannedHTTPServer.reply(502)) }
        let server = try server { _ in .bytes(CannedHTTPServer.reply(200)) }
        let variables = ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"]
        for name in variables { setenv(name, "http://127.0.0.1:\(proxy.port)", 1) }
        defer { for name in variables { unsetenv(name) } }
        let reply = try await transport().send(request("/straight", on: server), maximumBytes: 1000)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(proxy.requests.count, 0, "the proxy received nothing")
        XCTAssertEqual(server.requests.map(\.line), ["GET /straight HTTP/1.1"])
    }

    func testDeadlineBoundsAReplyThatKeepsTrickling() async throws {
        let server = try server { _ in
            .dribble(
                head: Data("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n".utf8), body: Data(count: 100), interval: 0.2
            )
        }
        let transport = transport(idleTimeout: 1, deadline: 1.5)
        do {
            _ = try await transport.send(request("/slow", on: server), maximumBytes: 1000)
            XCTFail("expected the deadline")
        } catch {
            XCTAssertEqual(error as? HTTPTransport.Failure, .deadlineExceeded, "\(error)")
        }
    }

    func testSilentServerIsUnreachableInTime() async throws {
        let server = try server { _ in .silence }
        let remote = try remote(port: server.port, timeout: 1)
        let error = await assertRemoteError(.unreachable) { try await remote.get("manifest") }
        XCTAssertTrue(error?.description.contains("did not answer in time") == true, error?.description ?? "")
    }

    func testRefusedConnectionIsUnreachable() async throws {
        let remote = try remote(port: try FreePort.find())
        let error = await assertRemoteError(.unreachable) { try await remote.get("manifest") }
        XCTAssertTrue(error?.description.contains("connection refused") == true, error?.description ?? "")
    }

    func testCloseEndsARequestInFlightAndLaterOnes() async throws {
        let server = try server { _ in .silence }
        let transport = transport()
        let stuck = request("/x", on: server)
        let pending = Task { try await transport.send(stuck, maximumBytes: 1000) }
        XCTAssertTrue(server.waitForRequests(1))
        transport.close()
        do {
            _ = try await pending.value
            XCTFail("expected closed")
        } catch {
            XCTAssertEqual(error as? HTTPTransport.Failure, .closed, "\(error)")
        }
        do {
            _ = try await transport.send(request("/y", on: server), maximumBytes: 1000)
            XCTFail("expected closed")
        } catch {
            XCTAssertEqual(error as? HTTPTransport.Failure, .closed, "\(error)")
        }
    }

    func testCancellationEndsARequestInFlight() async throws {
        let server = try server { _ in .silence }
        let transport = transport()
        let stuck = request("/x", on: server)
        let pending = Task { try await transport.send(stuck, maximumBytes: 1000) }
        XCTAssertTrue(server.waitForRequests(1))
        pending.cancel()
        do {
            _ = try await pending.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }
}

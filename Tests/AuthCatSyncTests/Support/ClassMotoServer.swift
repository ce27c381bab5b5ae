import AuthCatTestSupport
import Foundation

/// One `MotoServer` for a whole test class: started from the class's
/// synchronous `setUp` (a child started from an async test's thread would
/// inherit its blocked signals and never see the SIGTERM that stops it),
/// stopped in `tearDown`. Tests are never skipped: without moto_server
/// `running()` throws the error that says how to install it.
///
/// `@unchecked Sendable`: a test class holds it in a static property, and
/// XCTest calls its class `setUp`, tests and class `tearDown` one at a time.
final class ClassMotoServer: @unchecked Sendable {
    private let name: String
    private var server: MotoServer?
    private var startError: Error?
    private var logDirectory: TemporaryFolder?

    /// - Parameter name: names the folder that holds the server's log.
    init(_ name: String) {
        self.name = name
    }

    func start() {
        do {
            let directory = try TemporaryFolder(name)
            logDirectory = directory
            server = try MotoServer(logDirectory: directory.path)
        } catch {
            startError = error
        }
    }

    func stop() {
        server?.stop()
        server = nil
        logDirectory?.remove()
    }

    /// The server, or the error that kept it from starting.
    func running() throws -> MotoServer {
        if let startError { throw startError }
        guard let server else { throw MotoProcess.StartError("moto_server is not running") }
        return server
    }
}

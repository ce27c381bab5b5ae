import AuthCatSync
import XCTest

/// Asserts that `body` throws a `RemoteError` of the given kind, and returns it.
@discardableResult
func assertRemoteError<T>(
    _ kind: RemoteError.Kind, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line,
    _ body: () async throws -> T
) async -> RemoteError? {
    do {
        let value = try await body()
        XCTFail("expected \(kind) but got \(value) \(message())", file: file, line: line)
    } catch let error as RemoteError {
        XCTAssertEqual(error.kind, kind, "\(error) \(message())", file: file, line: line)
        return error
    } catch {
        XCTFail("expected RemoteError.\(kind) but got \(error) \(message())", file: file, line: line)
    }
    return nil
}

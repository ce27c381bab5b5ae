import Foundation
import XCTest

final class ConcurrencyTests: AuthCatTestCase {
    /// Two processes hammering one HOTP account: every counter value is handed
    /// out exactly once (RFC 4226 codes for counters 0 to 49 are all different).
    func testTwoProcessesNeverGetTheSameHOTPCode() throws {
        try add("counter", ["--type", "hotp"])
        let runner = authcat!
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for _ in 0..<25 {
                let result = try? runner.runAsProcess(["code", "counter"])
                results.append(worker: worker, result)
            }
        }
        let all = results.all
        XCTAssertEqual(all.count, 50)
        for result in all {
            XCTAssertEqual(result?.status, 0, result?.stderr ?? "did not run")
        }
        let codes = all.compactMap { $0?.stdout.trimmingCharacters(in: .newlines) }
        XCTAssertEqual(Set(codes).count, 50, "a code was handed out twice: \(codes.sorted())")
        XCTAssertTrue(codes.contains("755224") && codes.contains("287082"), "counters 0 and 1 were used")
        XCTAssertEqual(try listedAccounts().first?["counter"] as? Int, 50)
        let history = try succeed(["history", "--json", "--limit", "0", "counter"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [Any])?.count, 51)
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [AuthCatResult?] = []

    func append(worker: Int, _ result: AuthCatResult?) {
        lock.withLock { results.append(result) }
    }

    var all: [AuthCatResult?] { lock.withLock { results } }
}

import AuthCatInterchange
import Foundation
import XCTest

final class DescriptorPathTests: XCTestCase {
    func testThisProcessesDescriptorFoldersNameDescriptors() {
        let process = "/proc/\(getpid())"
        XCTAssertEqual(DescriptorPath.number(folder: "\(process)/fd", name: "0"), 0)
        XCTAssertEqual(DescriptorPath.number(folder: "\(process)/fd", name: "12"), 12)
        XCTAssertEqual(DescriptorPath.number(folder: "\(process)/task/\(getpid())/fd", name: "2"), 2)
    }

    func testAnyOtherPathNamesNone() {
        let process = "/proc/\(getpid())"
        XCTAssertNil(DescriptorPath.number(folder: "/proc/1/fd", name: "0"), "another process's descriptor")
        XCTAssertNil(DescriptorPath.number(folder: "\(process)/fd", name: "x1"))
        XCTAssertNil(DescriptorPath.number(folder: "\(process)/fd", name: ""))
        XCTAssertNil(DescriptorPath.number(folder: "\(process)/fdinfo", name: "0"))
        XCTAssertNil(DescriptorPath.number(folder: "/dev", name: "stdin"), "a link's folder before it is resolved")
    }
}

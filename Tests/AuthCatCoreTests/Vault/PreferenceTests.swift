import Foundation
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

final class PreferenceTests: VaultTestCase {
    func testSetAndRemoveAreRecorded() throws {
        let vault = try makeVault()
        try vault.write(author: .cli) { try $0.setPreference("theme", to: "dark") }
        try vault.write(author: .cli) { try $0.setPreference("theme", to: "dark") }
        XCTAssertEqual(try vault.preferences(), ["theme": "dark"])
        try vault.write(author: .cli) { try $0.removePreference("theme") }
        XCTAssertEqual(try vault.preferences(), [:])
        XCTAssertEqual(try vault.history().flatMap(\.changes).map(\.kind), [.delete, .insert])
    }

    func testQuotaIsEnforcedWithNothingChanged() throws {
        let vault = try makeVault()
        XCTAssertThrowsError(
            try vault.write(author: .cli) { try $0.setPreference(String(repeating: "k", count: 65), to: "v") })
        XCTAssertThrowsError(
            try vault.write(author: .cli) { try $0.setPreference("big", to: String(repeating: "x", count: 1_048_577)) })
        XCTAssertThrowsError(
            try vault.write(author: .cli) { writer in
                for index in 0...PreferenceQuota.maximumKeys { try writer.setPreference("k\(index)", to: "v") }
            })
        XCTAssertEqual(try vault.preferences(), [:])
        XCTAssertEqual(try vault.history(), [])
    }

    func testLocalSettingsAreNotHistory() throws {
        let vault = try makeVault()
        try vault.setSetting("clipboard", to: "xclip")
        XCTAssertEqual(try vault.settings(), ["clipboard": "xclip"])
        try vault.setSetting("clipboard", to: nil)
        XCTAssertEqual(try vault.settings(), [:])
        XCTAssertEqual(try vault.history(), [])
    }
}

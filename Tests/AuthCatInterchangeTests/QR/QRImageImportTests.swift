import Foundation
import XCTest

@testable import AuthCatInterchange

final class QRImageImportTests: XCTestCase {
    func testGoogleMigrationCodesInAScreenshot() throws {
        let uris = try Fixture.text("google_migration.txt").split(separator: "\n").map(String.init)
        let images = try uris.map { try QRCode.encode($0).image(scale: 3) }
        // Stacked vertically, first code on top.
        var canvas = GreyImage(width: images.map(\.width).max() ?? 0, height: images.map(\.height).reduce(0, +))
        var top = 0
        for image in images {
            for y in 0..<image.height {
                for x in 0..<image.width {
                    canvas.pixels[(top + y) * canvas.width + x] = image.pixels[y * image.width + x]
                }
            }
            top += image.height
        }
        let parsed = try QRImageImport.parse(png: canvas.pngData())
        XCTAssertEqual(parsed.format, .google)
        XCTAssertEqual(parsed.entries.count, 4)
        XCTAssertEqual(parsed.entries.first?.position.description, "QR code 1, account 1")
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["QR code 2, account 3"])
    }

    func testSingleAccountCodesAndJunk() throws {
        let parsed = try QRImageImport.parse(texts: [
            "otpauth://totp/A:one?secret=JBSWY3DPEHPK3PXP", "https://example.com",
        ])
        XCTAssertEqual(parsed.format, .otpauth)
        XCTAssertEqual(parsed.entries.map(\.label), ["A:one"])
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["QR code 2"])
    }
}

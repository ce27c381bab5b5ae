import Foundation
import XCTest

@testable import AuthCatInterchange

final class QRScannerTests: XCTestCase {
    /// Several codes side by side, as in a screenshot of Google's export screens.
    private func sideBySide(_ texts: [String]) throws -> GreyImage {
        let images = try texts.map { try QRCode.encode($0).image(scale: 3) }
        let width = images.map(\.width).reduce(0, +)
        let height = images.map(\.height).max() ?? 0
        var canvas = GreyImage(width: width, height: height)
        var left = 0
        for image in images {
            for y in 0..<image.height {
                for x in 0..<image.width { canvas.pixels[y * width + left + x] = image.pixels[y * image.width + x] }
            }
            left += image.width
        }
        return canvas
    }

    func testEveryCodeInAnImageIsFoundInReadingOrder() throws {
        let texts = [
            "otpauth://totp/A:one?secret=JBSWY3DPEHPK3PXP", "otpauth://totp/B:two?secret=MFRGGZDFMZTWQ2LK",
            "otpauth-migration://offline?data=CgA%3D",
        ]
        XCTAssertEqual(try QRScanner.scan(sideBySide(texts)), texts)
    }

    func testAnImageWithoutCodes() {
        XCTAssertThrowsError(try QRScanner.scan(GreyImage(width: 64, height: 64, fill: 255))) {
            XCTAssertEqual($0 as? QRError, .noCodeFound)
        }
    }
}

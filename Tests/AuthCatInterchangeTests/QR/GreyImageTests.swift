import Foundation
import XCTest

@testable import AuthCatInterchange

final class GreyImageTests: XCTestCase {
    func testPNGRoundTrip() throws {
        let image = GreyImage(width: 7, height: 3, pixels: (0..<21).map { UInt8($0 * 12) })
        let png = try image.pngData()
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4e, 0x47])
        XCTAssertEqual(try GreyImage(png: png), image)
    }

    func testBrokenPNGsAreClearErrors() throws {
        let png = try GreyImage(width: 20, height: 20, fill: 128).pngData()
        XCTAssertThrowsError(try GreyImage(png: Data("not a png".utf8))) { error in
            guard case .invalidPNG? = error as? QRError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try GreyImage(png: png.prefix(png.count - 20)))
        XCTAssertThrowsError(try GreyImage(png: Data()))
    }

    func testColourPNGWithAlphaIsReadAsGreyOnWhite() throws {
        // A 1×2 RGBA image: opaque red over fully transparent.
        // Made with python3 zlib + struct: IHDR 1×2, depth 8, colour type 6 (RGBA); rows
        // (filter byte, then pixel) 00 ff0000ff and 00 00000000.
        let hex =
            "89504e470d0a1a0a0000000d49484452000000010000000208060000009981b6270000000f49444154789c63f8cfc000444000000efb01ff07d215ed0000000049454e44ae426082"
        let image = try GreyImage(png: XCTUnwrap(Hex.decode(hex)))
        XCTAssertEqual(image.width, 1)
        XCTAssertEqual(image.height, 2)
        XCTAssertLessThan(image.pixels[0], 128, "red is darkish grey")
        XCTAssertEqual(image.pixels[1], 255, "transparent is composed over white")
    }
}

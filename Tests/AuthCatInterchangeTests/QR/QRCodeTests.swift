import Foundation
import XCTest

@testable import AuthCatInterchange

final class QRCodeTests: XCTestCase {
    private let uri = "otpauth://totp/GitHub:alice%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=GitHub"

    func testEncodeRenderScanRoundTrip() throws {
        let code = try QRCode.encode(uri)
        XCTAssertEqual(code.size % 4, 1, "QR codes are 17 + 4·version modules wide")
        let png = try code.image(scale: 3).pngData()
        XCTAssertEqual(try QRScanner.scan(png: png), [uri])
    }

    func testTerminalDrawingHoldsEveryModule() throws {
        let code = try QRCode.encode(uri)
        let quiet = 2
        let lines = code.terminalText(quietZone: quiet).split(separator: "\n").map(Array.init)
        let side = code.size + 2 * quiet
        XCTAssertEqual(lines.count, (side + 1) / 2)
        XCTAssertTrue(lines.allSatisfy { $0.count == side })
        // Undo the half blocks: a drawn half is a light module.
        for (row, line) in lines.enumerated() {
            for (column, cell) in line.enumerated() {
                let upperLight = cell == "█" || cell == "▀"
                let lowerLight = cell == "█" || cell == "▄"
                let x = column - quiet
                let top = 2 * row - quiet
                XCTAssertEqual(upperLight, !code[x, top], "(\(x), \(top))")
                if top + 1 < code.size + quiet { XCTAssertEqual(lowerLight, !code[x, top + 1], "(\(x), \(top + 1))") }
            }
        }
        let inverted = code.terminalText(quietZone: quiet, darkOnLightTerminal: true)
        XCTAssertNotEqual(inverted, code.terminalText(quietZone: quiet))
        XCTAssertTrue(inverted.hasPrefix("  "), "a light quiet zone is background on a light terminal")
    }

    func testTerminalDrawingScansWhenRasterised() throws {
        // Paint the text as a screen would (light text on a dark background) and scan it.
        let code = try QRCode.encode(uri)
        let lines = code.terminalText().split(separator: "\n").map(Array.init)
        let scale = 4
        var image = GreyImage(width: lines[0].count * scale, height: lines.count * 2 * scale, fill: 0)
        for (row, line) in lines.enumerated() {
            for (column, cell) in line.enumerated() {
                let halves = [cell == "█" || cell == "▀", cell == "█" || cell == "▄"]
                for (half, lit) in halves.enumerated() where lit {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            image.pixels[((2 * row + half) * scale + dy) * image.width + column * scale + dx] = 255
                        }
                    }
                }
            }
        }
        // Add the light border a screenshot of a terminal has around the code's quiet zone.
        var framed = GreyImage(width: image.width + 8 * scale, height: image.height + 8 * scale, fill: 255)
        for y in 0..<image.height {
            for x in 0..<image.width {
                framed.pixels[(y + 4 * scale) * framed.width + x + 4 * scale] = image.pixels[y * image.width + x]
            }
        }
        XCTAssertEqual(try QRScanner.scan(framed), [uri])
    }

    func testTooMuchTextIsAClearError() {
        XCTAssertThrowsError(try QRCode.encode(String(repeating: "x", count: 5000))) { error in
            XCTAssertEqual(error as? QRError, .tooLong(bytes: 5000))
        }
    }
}

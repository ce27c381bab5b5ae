import CZBar
import Foundation

/// Finds QR codes in images with libzbar.
public enum QRScanner {
    /// The text of every QR code in `image`, top to bottom.
    /// - Throws: `QRError.noCodeFound` when there is none.
    public static func scan(_ image: GreyImage) throws -> [String] {
        let zbar = try ZBarLibrary.shared()
        guard let scanner = zbar.imageScannerCreate() else { throw QRError.scanFailed }
        defer { zbar.imageScannerDestroy(scanner) }
        // Only QR codes: other symbologies would find noise in a screenshot.
        _ = zbar.imageScannerSetConfig(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        _ = zbar.imageScannerSetConfig(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        guard let zbarImage = zbar.imageCreate() else { throw QRError.scanFailed }
        defer { zbar.imageDestroy(zbarImage) }
        zbar.imageSetFormat(zbarImage, fourCC("Y800"))
        zbar.imageSetSize(zbarImage, UInt32(image.width), UInt32(image.height))
        let texts: [String] = try image.pixels.withUnsafeBytes { buffer in
            // No cleanup handler: the pixels belong to Swift and outlive the scan,
            // and the zbar image is destroyed (by the defer above) before they are released.
            zbar.imageSetData(zbarImage, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar.scanImage(scanner, zbarImage) >= 0 else { throw QRError.scanFailed }
            return symbols(of: zbarImage, zbar)
        }
        guard !texts.isEmpty else { throw QRError.noCodeFound }
        return texts
    }

    /// Decodes a PNG and scans it.
    public static func scan(png: Data) throws -> [String] {
        try scan(GreyImage(png: png))
    }

    private static func symbols(of image: OpaquePointer, _ zbar: ZBarLibrary) -> [String] {
        var found: [(box: Box, text: String)] = []
        var symbol = zbar.imageFirstSymbol(image)
        while let current = symbol {
            if zbar.symbolGetType(current) == ZBAR_QRCODE, let bytes = zbar.symbolGetData(current) {
                let length = Int(zbar.symbolGetDataLength(current))
                let text = bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
                found.append((Box(current, zbar), text))
            }
            symbol = zbar.symbolNext(current)
        }
        return readingOrder(found)
    }

    /// Rows top to bottom, each left to right, so "QR code 2" means the same
    /// to the user and to authcat. A code starting above the bottom of a row's
    /// first code belongs to that row.
    private static func readingOrder(_ found: [(box: Box, text: String)]) -> [String] {
        var rows: [[(box: Box, text: String)]] = []
        for code in found.sorted(by: { $0.box.top < $1.box.top }) {
            if let first = rows.last?.first, code.box.top < first.box.bottom {
                rows[rows.count - 1].append(code)
            } else {
                rows.append([code])
            }
        }
        return rows.flatMap { $0.sorted { $0.box.left < $1.box.left }.map(\.text) }
    }

    /// The bounding box of a symbol's location points.
    private struct Box {
        var left = Int32.max, top = Int32.max, bottom = Int32.min

        init(_ symbol: OpaquePointer, _ zbar: ZBarLibrary) {
            for index in 0..<zbar.symbolGetLocSize(symbol) {
                left = min(left, zbar.symbolGetLocX(symbol, index))
                top = min(top, zbar.symbolGetLocY(symbol, index))
                bottom = max(bottom, zbar.symbolGetLocY(symbol, index))
            }
        }
    }

    private static func fourCC(_ code: String) -> UInt {
        code.utf8.reversed().reduce(0) { $0 << 8 | UInt($1) }
    }
}

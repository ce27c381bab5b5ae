import CZBar
import Foundation

/// Finds QR codes in images with libzbar.
public enum QRScanner {
    /// The text of every QR code in `image`, top to bottom.
    /// - Throws: `QRError.noCodeFound` when there is none.
    public static func scan(_ image: GreyImage) throws -> [String] {
        guard let scanner = zbar_image_scanner_create() else { throw QRError.scanFailed }
        defer { zbar_image_scanner_destroy(scanner) }
        // Only QR codes: other symbologies would find noise in a screenshot.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        guard let zbarImage = zbar_image_create() else { throw QRError.scanFailed }
        defer { zbar_image_destroy(zbarImage) }
        zbar_image_set_format(zbarImage, fourCC("Y800"))
        zbar_image_set_size(zbarImage, UInt32(image.width), UInt32(image.height))
        let texts: [String] = try image.pixels.withUnsafeBytes { buffer in
            // No cleanup handler: the pixels belong to Swift and outlive the scan,
            // and the zbar image is destroyed (by the defer above) before they are released.
            zbar_image_set_data(zbarImage, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar_scan_image(scanner, zbarImage) >= 0 else { throw QRError.scanFailed }
            return symbols(of: zbarImage)
        }
        guard !texts.isEmpty else { throw QRError.noCodeFound }
        return texts
    }

    /// Decodes a PNG and scans it.
    public static func scan(png: Data) throws -> [String] {
        try scan(GreyImage(png: png))
    }

    private static func symbols(of image: OpaquePointer) -> [String] {
        var found: [(box: Box, text: String)] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            if zbar_symbol_get_type(current) == ZBAR_QRCODE, let bytes = zbar_symbol_get_data(current) {
                let length = Int(zbar_symbol_get_data_length(current))
                let text = bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
                found.append((Box(current), text))
            }
            symbol = zbar_symbol_next(current)
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

        init(_ symbol: OpaquePointer) {
            for index in 0..<zbar_symbol_get_loc_size(symbol) {
                left = min(left, zbar_symbol_get_loc_x(symbol, index))
                top = min(top, zbar_symbol_get_loc_y(symbol, index))
                bottom = max(bottom, zbar_symbol_get_loc_y(symbol, index))
            }
        }
    }

    private static func fourCC(_ code: String) -> UInt {
        code.utf8.reversed().reduce(0) { $0 << 8 | UInt($1) }
    }
}

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
        var found: [(y: Int32, x: Int32, text: String)] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            if zbar_symbol_get_type(current) == ZBAR_QRCODE, let bytes = zbar_symbol_get_data(current) {
                let length = Int(zbar_symbol_get_data_length(current))
                let text = bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
                found.append((zbar_symbol_get_loc_y(current, 0), zbar_symbol_get_loc_x(current, 0), text))
            }
            symbol = zbar_symbol_next(current)
        }
        // Reading order, so "QR code 2" means the same to the user and to authcat.
        return found.sorted { ($0.y, $0.x) < ($1.y, $1.x) }.map(\.text)
    }

    private static func fourCC(_ code: String) -> UInt {
        code.utf8.reversed().reduce(0) { $0 << 8 | UInt($1) }
    }
}

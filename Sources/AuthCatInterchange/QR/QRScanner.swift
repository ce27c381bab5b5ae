internal import CZBar
import Foundation

/// Finds QR codes in images with libzbar: the one file of AuthCatInterchange
/// that uses it.
public enum QRScanner {
    /// The text of every QR code in `image`, top to bottom.
    /// - Throws: `QRError.noCodeFound` when there is none.
    public static func scan(_ image: GreyImage) throws -> [String] {
        let zbar = try Library.shared()
        guard let scanner = zbar.imageScannerCreate() else { throw QRError.scanFailed }
        defer { zbar.imageScannerDestroy(scanner) }
        // Only QR codes: other symbologies would find noise in a screenshot.
        guard zbar.imageScannerSetConfig(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0) == 0,
            zbar.imageScannerSetConfig(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1) == 0
        else { throw QRError.scanFailed }
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

    private static func symbols(of image: OpaquePointer, _ zbar: Library) -> [String] {
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

        init(_ symbol: OpaquePointer, _ zbar: Library) {
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

    /// libzbar, opened when the first QR code is scanned instead of linked at
    /// start-up.
    ///
    /// libzbar pulls in some twenty libraries (D-Bus, X11, V4L, JPEG, systemd).
    /// Linked, the dynamic loader would map and relocate all of them before
    /// every command, `authcat code` included; opened here, only `import --qr`
    /// pays for them. The CZBar module still supplies the header's types.
    struct Library {
        typealias Create = @convention(c) () -> OpaquePointer?
        typealias Destroy = @convention(c) (OpaquePointer?) -> Void
        typealias SetConfig = @convention(c) (OpaquePointer?, zbar_symbol_type_t, zbar_config_t, Int32) -> Int32
        typealias SetFormat = @convention(c) (OpaquePointer?, UInt) -> Void
        typealias SetSize = @convention(c) (OpaquePointer?, UInt32, UInt32) -> Void
        typealias SetData =
            @convention(c) (OpaquePointer?, UnsafeRawPointer?, UInt, (@convention(c) (OpaquePointer?) -> Void)?) -> Void
        typealias Scan = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
        typealias SymbolOf = @convention(c) (OpaquePointer?) -> OpaquePointer?
        typealias SymbolType = @convention(c) (OpaquePointer?) -> zbar_symbol_type_t
        typealias SymbolData = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
        typealias SymbolCount = @convention(c) (OpaquePointer?) -> UInt32
        typealias SymbolLocation = @convention(c) (OpaquePointer?, UInt32) -> Int32

        let imageScannerCreate: Create
        let imageScannerDestroy: Destroy
        let imageScannerSetConfig: SetConfig
        let imageCreate: Create
        let imageDestroy: Destroy
        let imageSetFormat: SetFormat
        let imageSetSize: SetSize
        let imageSetData: SetData
        let scanImage: Scan
        let imageFirstSymbol: SymbolOf
        let symbolNext: SymbolOf
        let symbolGetType: SymbolType
        let symbolGetData: SymbolData
        let symbolGetDataLength: SymbolCount
        let symbolGetLocSize: SymbolCount
        let symbolGetLocX: SymbolLocation
        let symbolGetLocY: SymbolLocation

        /// The library, opened once per process; the handle is never closed.
        static func shared() throws -> Library {
            try loaded.get()
        }

        private static let loaded = Result { try Library(path: "libzbar.so.0") }

        private init(path: String) throws {
            let library = try DynamicLibrary(path, unavailable: QRError.scannerUnavailable)
            func function<T>(_ name: String) throws -> T { try library.function(name) }
            imageScannerCreate = try function("zbar_image_scanner_create")
            imageScannerDestroy = try function("zbar_image_scanner_destroy")
            imageScannerSetConfig = try function("zbar_image_scanner_set_config")
            imageCreate = try function("zbar_image_create")
            imageDestroy = try function("zbar_image_destroy")
            imageSetFormat = try function("zbar_image_set_format")
            imageSetSize = try function("zbar_image_set_size")
            imageSetData = try function("zbar_image_set_data")
            scanImage = try function("zbar_scan_image")
            imageFirstSymbol = try function("zbar_image_first_symbol")
            symbolNext = try function("zbar_symbol_next")
            symbolGetType = try function("zbar_symbol_get_type")
            symbolGetData = try function("zbar_symbol_get_data")
            symbolGetDataLength = try function("zbar_symbol_get_data_length")
            symbolGetLocSize = try function("zbar_symbol_get_loc_size")
            symbolGetLocX = try function("zbar_symbol_get_loc_x")
            symbolGetLocY = try function("zbar_symbol_get_loc_y")
        }
    }
}

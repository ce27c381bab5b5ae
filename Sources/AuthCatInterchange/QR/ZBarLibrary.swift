import CZBar
import Foundation

/// libzbar, opened when the first QR code is scanned instead of linked at
/// start-up.
///
/// libzbar pulls in some twenty libraries (D-Bus, X11, V4L, JPEG, systemd).
/// Linked, the dynamic loader would map and relocate all of them before
/// every command, `authcat code` included; opened here, only `import --qr`
/// pays for them. The CZBar module still supplies the header's types.
struct ZBarLibrary {
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
    static func shared() throws -> ZBarLibrary {
        try loaded.get()
    }

    private static let loaded = Result { try ZBarLibrary(path: "libzbar.so.0") }

    private init(path: String) throws {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { throw QRError.scannerUnavailable }
        func function<T>(_ name: String) throws -> T {
            guard let address = dlsym(handle, name) else { throw QRError.scannerUnavailable }
            return unsafeBitCast(address, to: T.self)
        }
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

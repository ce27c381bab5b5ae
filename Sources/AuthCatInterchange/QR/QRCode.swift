import AuthCatCore
import AuthCatEssentials
internal import CQREncode
import Foundation

/// A QR code's modules, made with libqrencode.
public struct QRCode: Equatable, Sendable {
    /// Modules per side, without a quiet zone.
    public let size: Int
    /// Row by row; true is a dark module.
    private let modules: [Bool]

    public init(size: Int, modules: [Bool]) {
        precondition(modules.count == size * size, "a QR code has size² modules")
        self.size = size
        self.modules = modules
    }

    /// Whether the module at column `x`, row `y` is dark; outside the code (the quiet zone) is light.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// The QR code of `text`, in byte mode with error correction level M
    /// (15 % of the code may be damaged and still read).
    /// - Throws: `QRError.tooLong` when `text` does not fit in a version 40 code.
    public static func encode(_ text: String) throws -> QRCode {
        guard !text.utf8.contains(0) else { throw QRError.encodingFailed }
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw errno == ERANGE ? QRError.tooLong(bytes: text.utf8.count) : QRError.encodingFailed
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // libqrencode fills `width`² module bytes; bit 0 of each is set for a dark module.
        let bytes = UnsafeBufferPointer(start: code.pointee.data, count: size * size)
        return QRCode(size: size, modules: bytes.map { $0 & 1 == 1 })
    }
}

import AuthCatCore
import AuthCatEssentials

/// Why a QR code could not be made or read. Messages never quote the
/// encoded text, which usually holds a secret.
public enum QRError: UserFacingError, Equatable {
    /// The text does not fit in the largest QR code.
    case tooLong(bytes: Int)
    /// libqrencode failed for another reason.
    case encodingFailed
    /// The PNG could not be decoded; carries libpng's message.
    case invalidPNG(String)
    /// An image with more pixels than authcat will decode.
    case imageTooLarge(width: Int, height: Int)
    /// libzbar could not scan the image.
    case scanFailed
    /// libzbar could not be opened: the package libzbar0 is missing.
    case scannerUnavailable
    /// No QR code was found in the image.
    case noCodeFound

    public var description: String {
        switch self {
        case .tooLong(let bytes): "\(bytes) bytes is too much for one QR code"
        case .encodingFailed: "the QR code could not be made (libqrencode failed)"
        case .invalidPNG(let why): "the image is not a readable PNG: \(why)"
        case .imageTooLarge(let width, let height):
            "the image is \(width)×\(height) pixels, too large to scan; crop it to the QR codes"
        case .scanFailed: "the image could not be scanned (libzbar failed)"
        case .scannerUnavailable: "reading QR codes needs libzbar (Debian package libzbar0), which could not be loaded"
        case .noCodeFound: "no QR code was found in the image; use a sharp, uncropped screenshot of the codes"
        }
    }
}

internal import CPNG
import Foundation

/// An 8-bit greyscale image, row by row, 0 black to 255 white: what libpng
/// decodes screenshots into and what libzbar scans. This file is the one of
/// AuthCatInterchange that uses libpng.
public struct GreyImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// The most pixels authcat decodes: an 8K screenshot, with room to spare.
    public static let maximumPixels = 64 * 1024 * 1024

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixels must be width × height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: UInt8 = 255) {
        self.init(width: width, height: height, pixels: Array(repeating: fill, count: width * height))
    }
}

extension GreyImage {
    /// Decodes a PNG of any colour type and depth into 8-bit grey.
    ///
    /// Uses libpng's simplified API, which reports errors through the
    /// `png_image` rather than `longjmp`, which Swift frames cannot survive.
    /// - Throws: `QRError.invalidPNG` or `QRError.imageTooLarge`.
    public init(png data: Data) throws {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw QRError.invalidPNG(Self.message(of: &image)) }
        let width = Int(image.width)
        let height = Int(image.height)
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixelCount <= Self.maximumPixels else {
            throw QRError.imageTooLarge(width: width, height: height)
        }
        image.format = png_uint_32(PNG_FORMAT_GRAY)
        var pixels = [UInt8](repeating: 255, count: width * height)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            // A white background: transparent parts of a screenshot read as light, not black.
            var white = png_color(red: 255, green: 255, blue: 255)
            return png_image_finish_read(&image, &white, buffer.baseAddress, png_int_32(width), nil)
        }
        guard finished != 0 else { throw QRError.invalidPNG(Self.message(of: &image)) }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The image as an 8-bit greyscale PNG.
    public func pngData() throws -> Data {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_GRAY)
        defer { png_image_free(&image) }
        var size: png_alloc_size_t = 0
        let measured = pixels.withUnsafeBytes {
            png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, png_int_32(width), nil)
        }
        guard measured != 0 else { throw QRError.invalidPNG(Self.message(of: &image)) }
        var output = Data(count: Int(size))
        let written = output.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes {
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, png_int_32(width), nil)
            }
        }
        guard written != 0 else { throw QRError.invalidPNG(Self.message(of: &image)) }
        return output.prefix(Int(size))
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { buffer in
            let text = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "libpng could not read it" : text
        }
    }
}

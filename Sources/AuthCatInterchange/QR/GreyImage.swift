/// An 8-bit greyscale image, row by row, 0 black to 255 white: what libpng
/// decodes screenshots into and what libzbar scans.
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

extension QRCode {
    /// The code as an image: dark modules black, `scale` pixels per module,
    /// inside a white quiet zone of `quietZone` modules.
    public func image(scale: Int = 4, quietZone: Int = 4) -> GreyImage {
        let side = (size + 2 * quietZone) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<side {
            for x in 0..<side where self[x / scale - quietZone, y / scale - quietZone] {
                pixels[y * side + x] = 0
            }
        }
        return GreyImage(width: side, height: side, pixels: pixels)
    }
}

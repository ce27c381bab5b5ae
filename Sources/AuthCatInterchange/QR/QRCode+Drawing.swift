/// What a QR code looks like: half blocks on a terminal, or an image.
extension QRCode {
    /// The code drawn with Unicode half blocks (`▀ ▄ █`), two module rows per
    /// line of text, inside a quiet zone of `quietZone` modules.
    ///
    /// Light modules are drawn in the terminal's text colour and dark ones
    /// left as background, which gives dark-on-light on the usual light-on-dark
    /// terminal; `darkOnLightTerminal` swaps that for light-background terminals.
    public func terminalText(quietZone: Int = 2, darkOnLightTerminal: Bool = false) -> String {
        let range = -quietZone..<(size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = ""
            for x in range {
                let upper = isDrawn(x, top, inside: range, darkOnLightTerminal)
                let lower = isDrawn(x, top + 1, inside: range, darkOnLightTerminal)
                let cell: Character =
                    switch (upper, lower) {
                    case (true, true): "█"
                    case (true, false): "▀"
                    case (false, true): "▄"
                    case (false, false): " "
                    }
                line.append(cell)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether the half cell at (`x`, `y`) is drawn in the text colour; a row
    /// past the quiet zone (when the rows are odd) is background.
    private func isDrawn(_ x: Int, _ y: Int, inside range: Range<Int>, _ darkOnLightTerminal: Bool) -> Bool {
        guard range.contains(y) else { return false }
        return self[x, y] == darkOnLightTerminal
    }

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

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Rows of text in aligned columns, two spaces apart, for terminal output.
public enum TextTable {
    /// One line per row, each column padded to its widest cell; lines carry
    /// no trailing spaces. Cells are sanitized for the terminal.
    /// - Parameters:
    ///   - width: the terminal's columns, when the lines go to one: if the
    ///     widest line is wider, the cells of column `cut` (the account's
    ///     label) that make it so are cut, ending in `…`, so that each row
    ///     fits on one line rather than wrapping. Nil keeps every cell whole
    ///     (a pipe, a file).
    ///   - cut: the column that gives up characters.
    public static func lines(_ rows: [[String]], width: Int? = nil, cut: Int = 0) -> [String] {
        var cells = rows.map { $0.map(TerminalText.sanitized) }
        var widths = cells.map { $0.map(Self.width) }
        let columns = cells.map(\.count).max() ?? 0
        var columnWidths = (0..<columns).map { column in
            widths.map { column < $0.count ? $0[column] : 0 }.max() ?? 0
        }
        if let width, cut < columns {
            let widest = columnWidths.reduce(0, +) + 2 * (columns - 1)
            if widest > width {
                // Never below a few characters: a label cut to nothing names nothing.
                let kept = max(minimumCutWidth, columnWidths[cut] - (widest - width))
                for row in cells.indices where cut < cells[row].count && widths[row][cut] > kept {
                    cells[row][cut] = Self.prefix(cells[row][cut], columns: kept - 1) + "…"
                    widths[row][cut] = Self.width(cells[row][cut])
                }
                columnWidths[cut] = min(columnWidths[cut], kept)
            }
        }
        return zip(cells, widths).map { row, rowWidths in
            line(row, padding: row.indices.map { columnWidths[$0] - rowWidths[$0] })
        }
    }

    /// The fewest characters a cut cell keeps, `…` included.
    public static let minimumCutWidth = 8

    /// The cells two spaces apart, each but the last followed by its padding,
    /// without trailing spaces. Built as bytes: `authcat list` makes 10,000.
    private static func line(_ row: [String], padding: [Int]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(row.reduce(0) { $0 + $1.utf8.count + 2 } + padding.reduce(0, +))
        for (column, cell) in row.enumerated() {
            if column > 0 { bytes += [0x20, 0x20] }
            bytes += cell.utf8
            if column < row.count - 1 { bytes += repeatElement(0x20, count: padding[column]) }
        }
        let kept = bytes.lastIndex { $0 != 0x20 }.map { $0 + 1 } ?? 0
        // A space after an ASCII byte is a character of its own; after other
        // text it might belong to the character before (a "prepend" mark), so
        // there the spaces are trimmed as characters.
        guard kept > 0, bytes[kept - 1] >= 0x80 else {
            return String(decoding: bytes[..<kept], as: UTF8.self)
        }
        var line = String(decoding: bytes, as: UTF8.self)
        while line.last == " " { line.removeLast() }
        return line
    }

    /// Columns as a terminal counts them, closely enough for names: ASCII
    /// by bytes (cheap), anything else by grapheme clusters, two for a wide
    /// one (`TerminalText.columns`), so that `李雷` lines up with `ab  `.
    private static func width(_ cell: String) -> Int {
        let bytes = cell.utf8.count
        return cell.utf8.allSatisfy { $0 < 0x80 } ? bytes : cell.reduce(0) { $0 + TerminalText.columns($1) }
    }

    /// The longest start of `cell` that takes at most `columns` columns.
    private static func prefix(_ cell: String, columns: Int) -> String {
        var used = 0
        return String(
            cell.prefix { character in
                used += TerminalText.columns(character)
                return used <= columns
            })
    }
}

/// Text from the vault made safe to print on a terminal.
///
/// Account names can come from a scanned QR code or an imported file, so a
/// name could carry escape sequences that rewrite the screen; they are shown
/// as `\u{…}` instead.
public enum TerminalText {
    public static func sanitized(_ text: String) -> String {
        // Nearly all names are printable ASCII; checking bytes is far cheaper
        // than looking up each character's Unicode category.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The columns a terminal gives a character: two for East Asian wide and
    /// full-width characters and emoji shown as pictures, else one. The
    /// ranges are Unicode's East Asian Width W and F blocks that names use.
    static func columns(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]
}

/// One account as `authcat list` shows it: label, type, algorithm, digits,
/// period or next counter, tags. Shared by `authcat-cli` and the quick front
/// `authcat`, so both print the same table.
public enum AccountRow {
    public static func cells(_ account: Account) -> [String] {
        let otp = account.otp
        let step = otp.kind == .hotp ? "counter \(otp.counter)" : "\(otp.period)s"
        return [
            account.label, otp.kind.rawValue, otp.algorithm.rawValue, "\(otp.digits) digits", step,
            account.tags.joined(separator: ","),
        ]
    }
}

/// One code as a person reads it on a terminal: the code, the account's
/// label and how long the code stays valid. Shared by `authcat-cli` and the
/// quick front `authcat`, so both print the same line.
public enum CodeRow {
    /// The column of the label, which a narrow terminal cuts (`TextTable.lines`).
    public static let labelColumn = 1

    /// The cells of the row; `code` is nil for an HOTP account listed without using up a counter value.
    public static func cells(_ account: Account, _ code: OTPCode?, at now: Date) -> [String] {
        let status: String
        if let seconds = code?.secondsRemaining(at: now) {
            status = "\(seconds)s left"
        } else if account.otp.kind == .hotp {
            status = code == nil ? "hotp: ask by name" : "hotp"
        } else {
            status = ""
        }
        return [code?.value ?? "-", account.label, status]
    }
}

/// Rows of text in aligned columns, two spaces apart, for terminal output.
public enum TextTable {
    /// One line per row, each column padded to its widest cell; lines carry
    /// no trailing spaces. Cells are sanitized for the terminal.
    public static func lines(_ rows: [[String]]) -> [String] {
        let cells = rows.map { $0.map(TerminalText.sanitized) }
        let widths = cells.map { $0.map(width) }
        let columns = cells.map(\.count).max() ?? 0
        let columnWidths = (0..<columns).map { column in
            widths.map { column < $0.count ? $0[column] : 0 }.max() ?? 0
        }
        return zip(cells, widths).map { row, rowWidths in
            var line = ""
            for (column, cell) in row.enumerated() {
                if column > 0 { line += "  " }
                line += cell
                if column < row.count - 1 {
                    line += String(repeating: " ", count: columnWidths[column] - rowWidths[column])
                }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Characters as a terminal counts them, closely enough for names: ASCII
    /// by bytes (cheap), anything else by grapheme clusters.
    private static func width(_ cell: String) -> Int {
        let bytes = cell.utf8.count
        return cell.utf8.allSatisfy { $0 < 0x80 } ? bytes : cell.count
    }
}

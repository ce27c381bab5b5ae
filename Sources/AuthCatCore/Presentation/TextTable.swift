import Foundation

/// Rows of text in aligned columns, two spaces apart, for terminal output.
public enum TextTable {
    /// One line per row, each column padded to its widest cell; lines carry
    /// no trailing spaces. Cells are sanitized for the terminal.
    public static func lines(_ rows: [[String]]) -> [String] {
        let cells = rows.map { $0.map(TerminalText.sanitized) }
        let columns = cells.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            cells.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return cells.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
            .trailingSpacesRemoved
        }
    }
}

extension String {
    fileprivate var trailingSpacesRemoved: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

import Foundation

/// The rows of a CSV file (RFC 4180): fields separated by commas, rows by
/// line breaks; a field in double quotes may hold commas, line breaks and
/// doubled quotes. Reading is one pass, and a row's width is bounded, so a
/// file of nothing but commas cannot make a row of millions of fields.
struct CSVRows {
    /// Far wider than any password manager's export (KeePassXC writes 10 columns).
    static let maximumColumns = 256

    /// Why the text is not CSV; the description is one lower-case clause.
    enum Failure: Error, CustomStringConvertible {
        case unclosedQuote(row: Int)
        case tooWide(row: Int)

        var description: String {
            switch self {
            case .unclosedQuote(let row): "row \(row) opens a quoted field it never closes"
            case .tooWide(let row): "row \(row) has more than \(CSVRows.maximumColumns) columns"
            }
        }
    }

    /// The rows of `text`, blank lines left out, each with its 1-based number among the rows.
    static func rows(of text: String) throws -> [(number: Int, fields: [String])] {
        var rows: [(Int, [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var wasQuoted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending = iterator.next()
        func endField() throws {
            fields.append(field)
            field = ""
            wasQuoted = false
            guard fields.count <= maximumColumns else { throw Failure.tooWide(row: rows.count + 1) }
        }
        func endRow() throws {
            try endField()
            if fields != [""] { rows.append((rows.count + 1, fields)) }
            fields = []
        }
        while let scalar = pending {
            pending = iterator.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = iterator.next()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case ",":
                try endField()
            case "\r" where pending == "\n":
                continue
            case "\n", "\r":
                try endRow()
            default:
                field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { throw Failure.unclosedQuote(row: rows.count + 1) }
        if !field.isEmpty || !fields.isEmpty || wasQuoted { try endRow() }
        return rows
    }
}

extension CSVRows {
    /// The rows of an import file of `format`: UTF-8 text, as `rows(of:)` reads it.
    /// - Throws: `ImportError.malformed` naming `format` when it is not UTF-8 or not CSV.
    static func rows(of data: Data, format: ImportFormat) throws -> [(number: Int, fields: [String])] {
        do {
            return try rows(of: TextLines.text(of: data, format: format))
        } catch let failure as Failure {
            throw ImportError.malformed(format, failure.description)
        }
    }
}

import Foundation
import XCTest

/// One line of a vector file, its values by column name.
struct Vector: CustomStringConvertible {
    let file: String
    let line: Int
    let values: [String: String]

    /// The value of `column`; a missing column is a broken vector file, so it fails the test.
    subscript(column: String) -> String {
        guard let value = values[column] else {
            XCTFail("\(self): no column \"\(column)\"")
            return ""
        }
        return value
    }

    func int64(_ column: String) throws -> Int64 {
        try XCTUnwrap(Int64(self[column]), "\(self): \(column) is not an integer")
    }

    var description: String { "\(file):\(line)" }
}

/// Reads the vector files in `Tests/AuthCatEssentialsTests/Vectors` (format in its README.md):
/// `#` comments and blank lines skipped, a header line of column names, then
/// one vector per line, values separated by spaces.
enum VectorLoader {
    static func load(_ name: String) throws -> [Vector] {
        let url = try XCTUnwrap(
            Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Vectors"),
            "no vector file \(name)")
        let text = try String(contentsOf: url, encoding: .utf8)
        var header: [String]?
        var vectors: [Vector] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(separator: " ").map(String.init)
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            guard let columns = header else {
                header = fields
                continue
            }
            guard fields.count == columns.count else {
                throw LoadError(message: "\(name):\(index + 1): \(fields.count) values for \(columns.count) columns")
            }
            vectors.append(
                Vector(file: name, line: index + 1, values: Dictionary(uniqueKeysWithValues: zip(columns, fields))))
        }
        guard !vectors.isEmpty else { throw LoadError(message: "\(name) holds no vectors") }
        return vectors
    }

    struct LoadError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

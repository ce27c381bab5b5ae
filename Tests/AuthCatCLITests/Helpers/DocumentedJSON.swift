import Foundation
import XCTest

/// The examples of docs/JSON.md, by heading, and a check of real output
/// against them: the same keys at every level, the same kinds of values
/// (`null` on either side stands for any kind), snake_case keys and whole
/// seconds for every time.
enum DocumentedJSON {
    /// docs/JSON.md, found from this file's place in the repository.
    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/JSON.md")

    /// Each "### `heading`" with the json block that follows it, parsed.
    static func examples() throws -> [String: Any] {
        let lines = try String(contentsOf: documentURL, encoding: .utf8).components(separatedBy: "\n")
        var examples: [String: Any] = [:]
        var heading: String?
        var block: [String]?
        for line in lines {
            if line.hasPrefix("### ") {
                heading = line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "` "))
            } else if line == "```json" {
                block = []
            } else if line == "```", let body = block {
                if let heading {
                    examples[heading] = try JSONSerialization.jsonObject(with: Data(body.joined(separator: "\n").utf8))
                }
                block = nil
                heading = nil
            } else if block != nil {
                block?.append(line)
            }
        }
        return examples
    }

    /// Keys whose values are instants or durations: whole seconds when not null.
    static let timeKeys: Set<String> = [
        "valid_until", "timestamp", "created_at", "updated_at", "expires_at", "seconds_left",
        "started", "ended", "first_seen", "last_seen", "last_successful_sync", "removed_at",
    ]

    /// Where `actual` departs from `documented`, one line per difference; empty when it matches.
    static func differences(
        _ actual: Any, from documented: Any, at path: String = "$", checkKeyNames: Bool = true
    ) -> [String] {
        if actual is NSNull || documented is NSNull { return [] }
        switch (actual, documented) {
        case (let actual as [String: Any], let documented as [String: Any]):
            var found: [String] = []
            let missing = Set(documented.keys).subtracting(actual.keys)
            let extra = Set(actual.keys).subtracting(documented.keys)
            if !missing.isEmpty { found.append("\(path): missing \(missing.sorted())") }
            if !extra.isEmpty { found.append("\(path): not documented \(extra.sorted())") }
            for (key, value) in actual {
                if checkKeyNames, key.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) == nil {
                    found.append("\(path).\(key): not snake_case")
                }
                if timeKeys.contains(key), !(value is NSNull), !isWholeNumber(value) {
                    found.append("\(path).\(key): not whole seconds: \(value)")
                }
                if let expected = documented[key] {
                    found += differences(value, from: expected, at: "\(path).\(key)", checkKeyNames: checkKeyNames)
                }
            }
            return found
        case (let actual as [Any], let documented as [Any]):
            guard let example = documented.first else { return actual.isEmpty ? [] : ["\(path): documented empty"] }
            return actual.enumerated().flatMap { index, element in
                differences(element, from: example, at: "\(path)[\(index)]", checkKeyNames: checkKeyNames)
            }
        default:
            let kinds = (kind(of: actual), kind(of: documented))
            return kinds.0 == kinds.1 ? [] : ["\(path): \(kinds.0), documented as \(kinds.1)"]
        }
    }

    private static func kind(of value: Any) -> String {
        switch value {
        case is [String: Any]: "object"
        case is [Any]: "array"
        case is String: "string"
        // JSONSerialization gives booleans the C type char, and every number another.
        case let number as NSNumber: String(cString: number.objCType) == "c" ? "boolean" : "number"
        default: "\(type(of: value))"
        }
    }

    private static func isWholeNumber(_ value: Any) -> Bool {
        guard let number = value as? NSNumber, kind(of: number) == "number" else { return false }
        return !["d", "f"].contains(String(cString: number.objCType))
    }
}

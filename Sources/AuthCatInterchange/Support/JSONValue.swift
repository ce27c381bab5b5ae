import Foundation

/// A JSON document read without assuming its shape, so that each entry of
/// another app's export can be checked on its own and reported by position.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `data`; throws `ImportError.malformed` naming `format` when it
    /// is not JSON or nests deeper than `JSONNesting.maximumDepth`.
    static func parse(_ data: Data, format: ImportFormat) throws -> JSONValue {
        guard JSONNesting.isWithinBound(data) else {
            throw ImportError.malformed(
                format, "it nests lists and objects more than \(JSONNesting.maximumDepth) levels deep")
        }
        do {
            return try decode(data)
        } catch {
            throw ImportError.malformed(format, "it is not valid JSON (truncated or damaged?)")
        }
    }

    /// Decodes `data`, which must nest at most `JSONNesting.maximumDepth` deep:
    /// the one way any JSON from a file becomes a `JSONValue`.
    static func decode(_ data: Data) throws -> JSONValue {
        guard JSONNesting.isWithinBound(data) else { throw EntryProblem.invalid("JSON nested too deeply") }
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// What this value is, for messages such as "should be a number, not a string".
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }
}

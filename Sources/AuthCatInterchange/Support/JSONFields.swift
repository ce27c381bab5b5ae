import Foundation

/// Typed access to the fields of one JSON object, throwing `EntryProblem`s
/// that name the field and what was wrong with it, never its value.
struct JSONFields {
    let object: [String: JSONValue]
    /// Prefix for field names in messages, such as "info." for Aegis' nested object.
    let path: String

    init(_ value: JSONValue, path: String = "", what: String = "the entry") throws {
        guard let object = value.objectValue else {
            throw EntryProblem.invalid("\(what) should be an object, not \(value.kindName)")
        }
        self.object = object
        self.path = path
    }

    /// The object a whole file holds, for the formats whose file is one JSON object.
    /// - Throws: `ImportError.malformed` naming `format` when it is not one.
    static func document(_ data: Data, format: ImportFormat) throws -> JSONFields {
        guard let document = try? JSONFields(JSONValue.parse(data, format: format)) else {
            throw ImportError.malformed(format, "the file is not a JSON object")
        }
        return document
    }

    /// Whether `key` is present and not null.
    func has(_ key: String) -> Bool {
        guard let value = object[key] else { return false }
        return value != .null
    }

    func string(_ key: String) throws -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    /// The string at `key`; nil when missing or null.
    func optionalString(_ key: String) throws -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw wrongType(key, expected: "a string", found: other)
        }
    }

    func int(_ key: String) throws -> Int {
        guard let value = try optionalInt(key) else { throw missing(key) }
        return value
    }

    /// The whole number at `key`; nil when missing or null.
    func optionalInt(_ key: String) throws -> Int? {
        guard let value = try optionalWholeNumber(key) else { return nil }
        return value
    }

    /// A non-negative whole number at `key` (HOTP counters); nil when missing or null.
    func optionalCounter(_ key: String) throws -> UInt64? {
        guard let value = try optionalInt(key) else { return nil }
        guard value >= 0 else { throw EntryProblem.invalid("field '\(path)\(key)' must not be negative") }
        return UInt64(value)
    }

    func optionalBool(_ key: String) throws -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw wrongType(key, expected: "true or false", found: other)
        }
    }

    func fields(_ key: String) throws -> JSONFields {
        guard let value = object[key], value != .null else { throw missing(key) }
        return try JSONFields(value, path: "\(path)\(key).", what: "field '\(path)\(key)'")
    }

    /// The list at `key`; empty when missing or null.
    func array(_ key: String) throws -> [JSONValue] {
        switch object[key] {
        case nil, .null?: return []
        case .array(let value)?: return value
        case let other?: throw wrongType(key, expected: "a list", found: other)
        }
    }

    /// The strings of the list at `key`; empty when missing or null.
    func strings(_ key: String) throws -> [String] {
        try array(key).map { element in
            guard let string = element.stringValue else {
                throw EntryProblem.invalid("field '\(path)\(key)' should hold strings, not \(element.kindName)")
            }
            return string
        }
    }

    private func optionalWholeNumber(_ key: String) throws -> Int? {
        switch object[key] {
        case nil, .null?:
            return nil
        case .number(let value)?:
            // Doubles hold every integer up to 2^53 exactly; anything else is not a count.
            guard value.rounded() == value, abs(value) <= 9_007_199_254_740_992 else {
                throw EntryProblem.invalid("field '\(path)\(key)' should be a whole number")
            }
            return Int(value)
        case let other?:
            throw wrongType(key, expected: "a number", found: other)
        }
    }

    private func missing(_ key: String) -> EntryProblem {
        .invalid("field '\(path)\(key)' is missing")
    }

    private func wrongType(_ key: String, expected: String, found: JSONValue) -> EntryProblem {
        .invalid("field '\(path)\(key)' should be \(expected), not \(found.kindName)")
    }
}

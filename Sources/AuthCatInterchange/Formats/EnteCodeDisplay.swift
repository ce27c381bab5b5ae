import AuthCatCore
import AuthCatEssentials
import Foundation

/// Ente Auth's `codeDisplay` otpauth parameter: percent-encoded JSON such as
/// `{"pinned":false,"trashed":false,"lastUsedAt":0,"tapCount":0,"tags":["work"],"note":""}`.
/// authcat reads its tags, note and trash flag, and writes it to carry tags
/// and notes through an otpauth export.
struct EnteCodeDisplay: Equatable {
    var tags: [String] = []
    var note: String = ""
    var trashed = false

    static let parameterName = "codeDisplay"

    init(tags: [String], note: String) {
        self.tags = tags
        self.note = note
    }

    /// The parameter in `query`, or nil when there is none.
    /// - Throws: `EntryProblem.invalid` when it is present but not the JSON Ente writes.
    init?(query: Substring) throws {
        let prefix = Self.parameterName.lowercased() + "="
        guard let pair = query.split(separator: "&").first(where: { $0.lowercased().hasPrefix(prefix) }) else {
            return nil
        }
        let encoded = pair.dropFirst(prefix.count).replacingOccurrences(of: "+", with: " ")
        guard let json = encoded.removingPercentEncoding,
            let value = try? JSONValue.decode(Data(json.utf8))
        else {
            throw EntryProblem.invalid("its codeDisplay parameter is not valid JSON")
        }
        let fields = try JSONFields(value, path: "codeDisplay.", what: "its codeDisplay parameter")
        tags = try fields.strings("tags")
        note = try fields.optionalString("note") ?? ""
        trashed = try fields.optionalBool("trashed") ?? false
    }

    /// `&codeDisplay=…`, percent-encoded, to append to a URI.
    var queryItem: String {
        // Written by hand so the key order is the one Ente writes and the output is stable.
        let tagList = tags.map(Self.jsonString).joined(separator: ",")
        let json =
            "{\"pinned\":false,\"trashed\":false,\"lastUsedAt\":0,\"tapCount\":0,\"tags\":[\(tagList)],\"note\":\(Self.jsonString(note))}"
        return "&\(Self.parameterName)=" + PercentEncoding.encode(json)
    }

    private static func jsonString(_ text: String) -> String {
        // Encoding a String cannot fail; the fallback only satisfies the type checker.
        guard let data = try? JSONEncoder().encode(text) else { return "\"\"" }
        return String(decoding: data, as: UTF8.self)
    }
}

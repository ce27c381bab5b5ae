/// Describes a `DecodingError` by where it happened, never by the value
/// found there (which could be a secret).
enum DecodingProblem {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context):
            "\(path(context.codingPath)) has the wrong type"
        case .valueNotFound(_, let context):
            "\(path(context.codingPath)) is missing"
        case .keyNotFound(let key, let context):
            "\(path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "it is not valid JSON (truncated or damaged?)" : "\(path(context.codingPath)) is invalid"
        @unknown default:
            "it could not be read"
        }
    }

    /// `accounts[3].digits`, for a user to find the spot.
    private static func path(_ keys: [CodingKey]) -> String {
        guard !keys.isEmpty else { return "the document" }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return "field '\(text)'"
    }
}

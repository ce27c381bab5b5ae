import AuthCatEssentials

extension OTPAuthURI {
    /// The query of an otpauth URI: names compared case-insensitively, the
    /// first occurrence of a name wins, values still percent-encoded.
    struct Parameters {
        private var values: [String: Substring] = [:]

        init(_ query: Substring) throws {
            for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
                let equals = pair.firstIndex(of: "=") ?? pair.endIndex
                guard let name = PercentEncoding.decode(pair[..<equals], plusAsSpace: true)?.lowercased() else {
                    throw OTPAuthURIError.invalidEncoding(part: "parameter names")
                }
                if values[name] == nil { values[name] = pair[equals...].dropFirst() }
            }
        }

        /// The decoded value of `name`, `nil` if absent.
        func text(_ name: String) throws -> String? {
            guard let raw = values[name] else { return nil }
            guard let value = PercentEncoding.decode(raw, plusAsSpace: true) else {
                throw OTPAuthURIError.invalidEncoding(part: "\(name) parameter")
            }
            return value
        }

        /// The integer value of `name`, `nil` if absent.
        func number(_ name: String) throws -> Int? {
            guard let text = try text(name) else { return nil }
            guard let number = Int(text) else { throw OTPAuthURIError.invalidNumber(parameter: name) }
            return number
        }
    }
}

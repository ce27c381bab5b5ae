import Foundation

/// The INI format of `~/.aws/credentials`.
///
/// `[name]` starts a profile; `key = value` lines belong to it; lines
/// starting with `#` or `;` are comments. Keys are lower-cased; later
/// sections of the same name add to earlier ones.
enum AWSCredentialsFile {
    static func sections(of text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                var name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                // The config file's "[profile name]" spelling is accepted too.
                if name.hasPrefix("profile ") {
                    name = name.dropFirst("profile ".count).trimmingCharacters(in: .whitespaces)
                }
                current = name
                sections[name, default: [:]] = sections[name, default: [:]]
                continue
            }
            guard let section = current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[section, default: [:]][key] = value
        }
        return sections
    }
}

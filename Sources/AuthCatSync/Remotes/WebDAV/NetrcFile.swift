/// The `~/.netrc` format curl, ftp and many other tools share.
///
/// Tokens are separated by white space: `machine NAME` starts an entry,
/// `default` starts the entry for any other host, and `login`, `password`
/// and `account` give its values; `macdef` defines a macro that runs to the
/// next empty line and is skipped. Quoted tokens (`"a b"`) are read as curl does.
enum NetrcFile {
    struct Entry: Equatable {
        var login: String?
        var password: String?
    }

    /// The entry for `host` (and `login`, when the location names a user), else the `default` entry.
    static func entry(in text: String, host: String, login: String?) -> Entry? {
        let all = entries(in: text)
        let fits = { (entry: Entry) in login == nil || entry.login == nil || entry.login == login }
        if let named = all.first(where: { $0.machine?.lowercased() == host.lowercased() && fits($0.entry) }) {
            return named.entry
        }
        return all.first { $0.machine == nil && fits($0.entry) }?.entry
    }

    /// Each entry with its machine (`nil` for `default`), in file order.
    static func entries(in text: String) -> [(machine: String?, entry: Entry)] {
        var result: [(machine: String?, entry: Entry)] = []
        var tokens = self.tokens(in: text)[...]
        var current: (machine: String?, entry: Entry)?
        func finish() {
            if let current { result.append(current) }
            current = nil
        }
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                finish()
                current = (tokens.popFirst() ?? "", Entry())
            case "default":
                finish()
                current = (nil, Entry())
            case "login": current?.entry.login = tokens.popFirst()
            case "password": current?.entry.password = tokens.popFirst()
            case "account": _ = tokens.popFirst()
            default: continue
            }
        }
        finish()
        return result
    }

    /// The tokens, with `macdef` bodies and `#` comment lines left out.
    private static func tokens(in text: String) -> [String] {
        var tokens: [String] = []
        var inMacro = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inMacro {
                if trimmed.isEmpty { inMacro = false }
                continue
            }
            if trimmed.hasPrefix("#") { continue }
            let words = words(in: trimmed)
            if let index = words.firstIndex(of: "macdef") {
                tokens += words[..<index]
                inMacro = true
                continue
            }
            tokens += words
        }
        return tokens
    }

    /// White-space separated words; a word in double quotes may hold spaces and `\"`.
    private static func words(in line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        var inWord = false
        for character in line {
            if quoted {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    current.append(character)
                }
            } else if character == " " || character == "\t" || character == "\r" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else if character == "\"" && !inWord {
                quoted = true
                inWord = true
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}

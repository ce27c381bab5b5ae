#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Account {
    /// Tags as the vault stores them: a JSON array of strings.
    public static func tagsJSON(_ tags: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(tags), as: UTF8.self)
    }

    /// The tags of a stored JSON array; none when it does not read. Most
    /// accounts have no tags, and skipping the JSON decoder for them keeps
    /// listing 10,000 accounts fast.
    public static func tags(fromJSON json: String) -> [String] {
        guard json != "[]" else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}

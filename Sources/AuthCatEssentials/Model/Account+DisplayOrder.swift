extension Account {
    /// Sorted, stable output: issuer, then name, ignoring case; id breaks ties.
    public static func displayOrder(_ a: Account, _ b: Account) -> Bool {
        a.displayKey < b.displayKey
    }

    /// What `displayOrder` compares, computed once per account when sorting many.
    fileprivate var displayKey: DisplayKey {
        DisplayKey(issuer: issuer.lowercased(), name: name.lowercased(), id: id.vaultString)
    }
}

/// Issuer, then name, ignoring case; the id breaks ties.
private struct DisplayKey: Comparable {
    var issuer: String
    var name: String
    var id: String

    static func < (a: DisplayKey, b: DisplayKey) -> Bool {
        (a.issuer, a.name, a.id) < (b.issuer, b.name, b.id)
    }
}

extension Array where Element == Account {
    /// Sorted by `Account.displayOrder`, each sort key computed once rather
    /// than on every comparison, which matters for vaults of thousands.
    public func sortedForDisplay() -> [Account] {
        map { ($0.displayKey, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

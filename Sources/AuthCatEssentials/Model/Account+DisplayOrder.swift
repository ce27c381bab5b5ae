extension Account {
    /// Sorted, stable output: issuer, then name, ignoring case; id breaks ties.
    public static func displayOrder(_ a: Account, _ b: Account) -> Bool {
        a.displayKey < b.displayKey
    }
}

extension AccountNaming {
    /// What `displayOrder` compares, computed once per account when sorting many.
    fileprivate var displayKey: DisplayKey {
        withUnsafeBytes(of: id.uuid) { bytes in
            DisplayKey(
                issuer: issuer.lowercased(), name: name.lowercased(),
                idHigh: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                idLow: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}

/// Issuer, then name, ignoring case; the id breaks ties. The id's bytes
/// compare in the order of its lowercase text, without making the text.
private struct DisplayKey: Comparable {
    var issuer: String
    var name: String
    var idHigh: UInt64
    var idLow: UInt64

    static func < (a: DisplayKey, b: DisplayKey) -> Bool {
        (a.issuer, a.name, a.idHigh, a.idLow) < (b.issuer, b.name, b.idHigh, b.idLow)
    }
}

extension Array where Element: AccountNaming {
    /// Sorted by `Account.displayOrder`, each sort key computed once rather
    /// than on every comparison, and positions sorted rather than whole
    /// accounts moved: that matters for vaults of thousands.
    public func sortedForDisplay() -> [Element] {
        let keys = map { $0.displayKey }
        return indices.sorted { keys[$0] < keys[$1] }.map { self[$0] }
    }
}

extension Account {
    /// The tags as an account keeps them: trimmed, blank ones dropped, and
    /// one of each tag, where tags that fold alike (`tagKey`) are one tag, so
    /// Aegis's group "Work" and `--tag work` name the same. Of the spellings
    /// of one tag the first given is kept, as typed: callers put the tags an
    /// account has before the ones added. Sorted by spelling, as they were
    /// before tags were folded: the lists already in vaults, backups and sync
    /// objects keep their order.
    public static func normalizedTags(_ tags: [String]) -> [String] {
        // Most accounts have no tag or one: the vault reader runs this for every account.
        guard tags.count > 1 else {
            return tags.map(\.trimmingSpacesAndTabs).filter { !$0.isEmpty }
        }
        var seen = Set<String>()
        var kept: [String] = []
        for tag in tags.map(\.trimmingSpacesAndTabs) where !tag.isEmpty && seen.insert(tagKey(tag)).inserted {
            kept.append(tag)
        }
        return kept.sorted()
    }

    /// What a tag is compared by: folded as names are when they are matched
    /// (`AccountQuery.folded`: case and Latin accents ignored), one rule for both.
    public static func tagKey(_ tag: String) -> String {
        AccountQuery.folded(tag.trimmingSpacesAndTabs)
    }

    /// Whether the account has every one of `tags`, compared by `tagKey`.
    public func hasTags(_ tags: [String]) -> Bool {
        guard !tags.isEmpty else { return true }
        let own = Set(self.tags.map(Account.tagKey))
        return tags.allSatisfy { own.contains(Account.tagKey($0)) }
    }

    /// Whether the account has `tag`, compared by `tagKey`.
    public func hasTag(_ tag: String) -> Bool { hasTags([tag]) }
}

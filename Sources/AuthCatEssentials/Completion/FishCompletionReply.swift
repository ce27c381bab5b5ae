/// Turns the labels that match a typed word into fish's candidates, so that
/// fish lists every account the word names and puts in nothing that would
/// name one of several, or none.
///
/// fish (3.6 as 4) matches each candidate against the word by its own
/// rules, which fold case but not accents, and lists only those of the best
/// rank: a label the word begins hides every label that holds it further
/// in; one the word begins in its own case hides one it begins in another;
/// a word with a capital ranks labels of its own case first; and `zoe`
/// matches no `Zoë`. Of the best, it keeps those that would replace the word
/// (case differs, or a match inside) only when none would merely add to it.
/// Then it puts in the one it kept, or the start they share, when that is
/// longer than the word.
///
/// When fish would hide a label or pick the one, the typed word is offered
/// too, spelled as the labels fish keeps spell it, which fish ranks with them and which
/// leaves no longer start to put in: the word stays as typed, and the labels
/// fish would still hide are named in its description (`dav  (also
/// Expensify:dave)`). Where fish keeps no label at all, that candidate alone
/// remains and fish puts in the word as typed, which still names them.
public struct FishCompletionReply: Sendable {
    /// The word as fish matches it (its quotes removed).
    public let typed: String

    public init(typed: String) {
        self.typed = typed
    }

    public func candidates(for labels: [String]) -> [String] {
        guard !typed.isEmpty, !labels.isEmpty, !isSafe(labels) else { return labels }
        let word = spelledWord(for: labels)
        let kept = listed(labels.contains(word) ? labels : labels + [word])
        let hidden = labels.filter { !kept.contains($0) }
        let described = hidden.isEmpty ? word : word + "\t" + "also " + hidden.joined(separator: ", ")
        return kept.filter { $0 != word } + [described]
    }

    /// How fish matches a candidate against the word.
    struct Match {
        /// fish's rank, lower first: the kind of match, then whether case had to be ignored.
        var rank: Int
        /// Whether fish replaces the word with it rather than adding to the word.
        var replacesWord: Bool
        /// Whether the candidate begins with the word (fish puts in a shared start only then).
        var isPrefix: Bool
    }

    func match(_ candidate: String) -> Match? {
        // A word without capitals matches any case as well as its own (fish's smart case).
        let caseRank = typed == typed.lowercased() ? 0 : 2
        let word = Array(typed.unicodeScalars)
        if Array(candidate.unicodeScalars).starts(with: word) {
            return Match(rank: 8, replacesWord: false, isPrefix: true)
        }
        if Array(candidate.lowercased().unicodeScalars).starts(with: typed.lowercased().unicodeScalars) {
            return Match(rank: 8 + caseRank, replacesWord: true, isPrefix: true)
        }
        if candidate.unicodeScalars.contains(word) {
            return Match(rank: 16, replacesWord: true, isPrefix: false)
        }
        if candidate.lowercased().unicodeScalars.contains(Array(typed.lowercased().unicodeScalars)) {
            return Match(rank: 16 + caseRank, replacesWord: true, isPrefix: false)
        }
        var rest = word[...]
        for scalar in candidate.unicodeScalars where scalar == rest.first { rest = rest.dropFirst() }
        return rest.isEmpty ? Match(rank: 24, replacesWord: true, isPrefix: false) : nil
    }

    /// The candidates fish lists: those of the best rank, and of them only
    /// those that add to the word if any does.
    func listed(_ candidates: [String]) -> [String] {
        let matched = candidates.compactMap { candidate in match(candidate).map { (candidate, $0) } }
        guard let best = matched.map(\.1.rank).min() else { return [] }
        let ofBest = matched.filter { $0.1.rank == best }
        let replacing = ofBest.allSatisfy(\.1.replacesWord)
        return ofBest.filter { $0.1.replacesWord == replacing }.map(\.0)
    }

    /// What fish puts in for `listed` candidates: the one, or the start they
    /// share when that is longer than the word; nil for nothing.
    func insertion(_ listed: [String]) -> String? {
        if listed.count == 1 { return listed.first }
        let matches = listed.compactMap(match)
        guard matches.count == listed.count, matches.allSatisfy(\.isPrefix) else { return nil }
        if matches.allSatisfy(\.replacesWord) {
            let shared = BashCompletionReply.commonPrefix(of: listed)
            return shared.unicodeScalars.count > typed.unicodeScalars.count ? shared : nil
        }
        let added = BashCompletionReply.commonPrefix(
            of: listed.map { String(String.UnicodeScalarView($0.unicodeScalars.dropFirst(typed.unicodeScalars.count))) }
        )
        return added.isEmpty ? nil : typed + added
    }

    /// Whether fish, given the labels alone, lists them all. What it puts in
    /// then is a start they share, which names them all (`AccountQuery`).
    private func isSafe(_ labels: [String]) -> Bool {
        listed(labels).count == labels.count
    }

    /// The typed word as fish ranks it with the most labels it can: as
    /// typed when a label begins with it in its case, else as the first
    /// label it begins spells it.
    private func spelledWord(for labels: [String]) -> String {
        let begun = labels.compactMap { label in match(label).map { (label, $0) } }.filter(\.1.isPrefix)
        guard !begun.contains(where: { !$0.1.replacesWord }),
            let first = begun.min(by: { $0.1.rank < $1.1.rank })?.0
        else { return typed }
        return String(String.UnicodeScalarView(first.unicodeScalars.prefix(typed.unicodeScalars.count)))
    }
}

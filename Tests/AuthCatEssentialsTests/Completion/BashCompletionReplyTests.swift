import XCTest

@testable import AuthCatEssentials

/// What readline does with a reply, as it decides: it puts in the bytes all
/// candidates share (case ignored with `completion-ignore-case on`), and
/// keeps the typed word when they share none. Whichever way it is set, the
/// word is only ever kept or added to. ShellCompletionTests checks the same
/// in a real bash.
final class BashCompletionReplyTests: XCTestCase {
    private func reply(_ typed: String, _ labels: [String]) -> [String] {
        BashCompletionReply(word: ShellWord(typed), wordBreaks: BashCompletionReply.defaultWordBreaks)
            .candidates(for: labels)
    }

    /// What readline puts in for `candidates`: nil when it keeps the word.
    private func inserted(_ candidates: [String], ignoringCase: Bool) -> String? {
        let compared = ignoringCase ? candidates.map { $0.lowercased() } : candidates
        let shared = BashCompletionReply.sharedBytes(of: compared)
        return shared.isEmpty ? nil : String(decoding: shared, as: UTF8.self)
    }

    func testTheWordIsKeptOrAddedToWhateverReadlineIgnores() {
        let cases: [(String, [String])] = [
            ("ali", ["GitHub:alice", "github:alice2"]),  // one start, ignoring case only
            ("ali", ["GitHub:alice@work", "GitLab:alice"]),
            ("itl", ["GitLab:alice", "GitLab:bob"]),
            ("ex", ["Elex:y", "Example:carol"]),
            ("gitl", ["GitLab:alice", "GitLab:bob"]),
            ("zo", ["Mail:Zoe\u{0301}", "Mail:Zoe\u{0308}y"]),  // one first letter, accents apart
        ]
        for (typed, labels) in cases {
            let candidates = reply(typed, labels)
            for ignoringCase in [false, true] {
                guard let put = inserted(candidates, ignoringCase: ignoringCase) else { continue }
                XCTAssertTrue(
                    put.lowercased().hasPrefix(typed.lowercased()),
                    "\(typed) would become \(put) (ignoring case: \(ignoringCase)) from \(candidates)")
            }
        }
    }

    func testNoCandidateBeginsWithASpaceUnlessEveryLabelBeginsAsTheWordDoes() {
        XCTAssertEqual(reply("itl", ["GitLab:alice", "GitLab:bob"]), ["itl", "GitLab:alice", "GitLab:bob"])
        XCTAssertEqual(reply("gi", ["GitHub:a", "GitLab:b"]), ["GitHub:a", "GitLab:b"])
        XCTAssertEqual(reply("Ab", ["Abra:x", "Aardvark:ab"]), [" Ab", "Aardvark:ab", "Abra:x"])
    }
}

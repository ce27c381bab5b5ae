import Foundation
import XCTest

@testable import AuthCatEssentials

/// What fish gets for a word: every label it lists, and nothing it would put
/// in that names one of several accounts, or none. fish's own ranking is
/// modelled by `FishCompletionReply.listed`; ShellCompletionTests checks the
/// same words in a real fish.
final class FishCompletionReplyTests: XCTestCase {
    private func reply(_ typed: String, _ labels: [String]) -> [String] {
        FishCompletionReply(typed: typed).candidates(for: labels)
    }

    func testLabelsFishListsAllAreLeftAsTheyAre() {
        // All begin with it, and their shared start "Git" names them all.
        XCTAssertEqual(reply("gi", ["GitHub:a", "GitLab:b"]), ["GitHub:a", "GitLab:b"])
        // All hold it inside: fish lists them and puts nothing in.
        XCTAssertEqual(reply("ali", ["GitHub:alice", "GitLab:alice"]), ["GitHub:alice", "GitLab:alice"])
        // One label: fish puts it in, and it names its account.
        XCTAssertEqual(reply("gitlab:b", ["GitLab:bob"]), ["GitLab:bob"])
        XCTAssertEqual(reply("", ["A:x", "B:y"]), ["A:x", "B:y"])
    }

    /// A label the word begins would hide those that hold it further in:
    /// they are named in the description of the typed word, which keeps
    /// fish from putting in the one label it would list.
    func testLabelsFishWouldHideAreNamedBesideTheTypedWord() {
        XCTAssertEqual(reply("dav", ["Dave:x", "Expensify:dave"]), ["Dave:x", "Dav\talso Expensify:dave"])
        // One begun in the word's own case hides one begun in another.
        XCTAssertEqual(
            reply("dav", ["Dave:x", "davey:z", "Expensify:dave"]),
            ["davey:z", "dav\talso Dave:x, Expensify:dave"])
        // A word with a capital ranks its own case first.
        XCTAssertEqual(reply("Git", ["GitHub:a", "gitea:b"]), ["GitHub:a", "Git\talso gitea:b"])
    }

    /// fish folds no accents: a label found only by folding them is never
    /// listed, so the typed word, which `code` accepts for it, is offered.
    func testALabelFoundOnlyWithAccentsFoldedKeepsTheTypedWord() {
        XCTAssertEqual(reply("zoe", ["Mail:Zoë"]), ["zoe\talso Mail:Zoë"])
        // fish would put in the one it lists; the typed word goes in instead.
        XCTAssertEqual(reply("ose", ["Café:josé", "Rose:x"]), ["ose\talso Café:josé, Rose:x"])
    }

    /// A start several share names them all (`GitLab:`): fish may put it in.
    func testAStartSeveralShareIsLeftToFish() {
        XCTAssertEqual(reply("gitl", ["GitLab:alice", "GitLab:bob"]), ["GitLab:alice", "GitLab:bob"])
        XCTAssertEqual(reply("GitLab", ["GitLab:alice", "GitLab:bob"]), ["GitLab:alice", "GitLab:bob"])
    }

    /// Whatever fish would do with the reply, it lists every label or names
    /// it, and puts in nothing but the typed word or a start `code` accepts.
    func testFishNeverPicksOneOfSeveralNorBreaksTheWord() {
        let labels = ["Dave:x", "davey:z", "Expensify:dave", "GitHub:alice", "GitLab:alice", "GitLab:bob", "Mail:Zoë"]
        let accounts = labels.map { label in
            let parts = label.split(separator: ":", maxSplits: 1).map(String.init)
            return Account(
                id: UUID(), issuer: parts[0], name: parts[1], otp: OTPParameters(), createdAt: Date(), updatedAt: Date()
            )
        }
        for typed in ["d", "dav", "DAV", "git", "GitL", "gitlab:", "ali", "zoe", "ave", "e"] {
            let fish = FishCompletionReply(typed: typed)
            let matching = labels.filter { fish.match($0) != nil || $0.lowercased().contains(typed.lowercased()) }
            let offered = fish.candidates(for: matching)
            let listed = fish.listed(offered.map { String($0.prefix { $0 != "\t" }) })
            let described = offered.flatMap { $0.split(separator: "\t").dropFirst() }.joined()
            for label in matching {
                XCTAssertTrue(listed.contains(label) || described.contains(label), "\(typed): \(label) in \(offered)")
            }
            if let inserted = fish.insertion(listed), matching.count > 1 {
                let named = AccountQuery(inserted).matches(in: accounts).map(\.label)
                XCTAssertTrue(listed.allSatisfy(named.contains), "\(typed) would become \(inserted)")
            }
        }
    }
}

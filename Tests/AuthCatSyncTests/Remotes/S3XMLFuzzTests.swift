import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// Seeded random and mutated S3 replies through the XML reader, the list
/// page and the error reply: each input ends in a result or an
/// `S3XMLReader.Failure`, never a crash, and what is read keeps the reader's
/// bounds. Inputs are at most `maximumInput` bytes, so memory and time are
/// bounded by construction; nothing here looks at a clock.
///
/// The seed is random and printed; `AUTHCAT_TEST_SEED=<seed>` replays a run.
final class S3XMLFuzzTests: XCTestCase {
    private static let iterations = 3_000
    private static let maximumInput = 64 * 1024
    private static let names = [
        "ListBucketResult", "Contents", "Key", "Size", "ETag", "IsTruncated", "NextContinuationToken",
        "Error", "Code", "Region", "Message", "Owner", "ID", "s3:Contents", "a", "x:y:Key",
    ]
    private static let texts = [
        "devices/a/batch-000001", "120", "-1", "true", "&amp;", "&lt;&gt;", "&#x1F600;", "&#0;",
        "&bogus;", "&", "<![CDATA[<raw>]]>", "<!-- c -->", "<?pi x?>", "99999999999999999999999", " ",
    ]

    private var random = SeededRandom(seed: 0)

    func testRandomAndMutatedRepliesEndInAResultOrAFailure() {
        let seed =
            ProcessInfo.processInfo.environment["AUTHCAT_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max)
        print("S3XMLFuzzTests seed \(seed) (AUTHCAT_TEST_SEED=\(seed) replays it)")
        random = SeededRandom(seed: seed)
        let corpus = [Self.listPage(entries: 3), Self.listPage(entries: 0), Self.errorReply]
        var outcomes = (read: 0, refused: 0)
        for iteration in 0..<Self.iterations {
            let input: Data
            switch iteration % 3 {
            case 0: input = randomDocument()
            case 1: input = mutate(Data(corpus[iteration % corpus.count].utf8))
            default: input = mutate(randomDocument())
            }
            XCTAssertLessThanOrEqual(input.count, Self.maximumInput)
            if check(input, "seed \(seed) #\(iteration)") { outcomes.read += 1 } else { outcomes.refused += 1 }
        }
        XCTAssertGreaterThan(outcomes.read, 0, "seed \(seed): some inputs should read")
        XCTAssertGreaterThan(outcomes.refused, 0, "seed \(seed): some inputs should be refused")
    }

    /// Reads `input` every way authcat does; whether the document itself was read.
    private func check(_ input: Data, _ context: String) -> Bool {
        var read = false
        do {
            let document = try S3XMLDocument(input, wanted: nil, deadline: nil)
            read = true
            for leaf in document.leaves {
                XCTAssertLessThanOrEqual(leaf.path.split(separator: "/").count, S3XMLReader.maximumDepth, context)
            }
            XCTAssertLessThanOrEqual(document.leaves.count, S3XMLReader.maximumElements, context)
        } catch {
            XCTAssertTrue(error is S3XMLReader.Failure, "\(context): \(type(of: error)) \(error)")
            XCTAssertFalse("\(error)".isEmpty, context)
        }
        do {
            let page = try S3ListPage(input, deadline: nil)
            XCTAssertTrue(page.entries.allSatisfy { $0.size >= 0 }, context)
        } catch {
            XCTAssertTrue(error is S3XMLReader.Failure, "\(context): \(type(of: error)) \(error)")
        }
        if let reply = S3ErrorReply(input, deadline: nil) {
            XCTAssertTrue(reply.code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, context)
        }
        return read
    }

    // MARK: - Inputs

    private static func listPage(entries: Int) -> String {
        let contents = (0..<entries).map { index in
            "<Contents><Key>v/devices/a/batch-00000\(index)</Key><ETag>&quot;e\(index)&quot;</ETag><Size>\(index * 10)</Size></Contents>"
        }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name>\(contents)\
            <IsTruncated>true</IsTruncated><NextContinuationToken>t/1=</NextContinuationToken></ListBucketResult>
            """
    }

    private static let errorReply =
        "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Region>eu-west-1</Region></Error>"

    /// A document of random elements, sometimes nested past the depth bound, sometimes left open.
    private func randomDocument() -> Data {
        var text = random.chance(0.5) ? "<?xml version=\"1.0\"?>" : ""
        var open: [String] = []
        let steps = Int.random(in: 1...400, using: &random)
        for _ in 0..<steps where text.utf8.count < Self.maximumInput / 2 {
            let name = random.pick(Self.names) ?? "a"
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                text += random.chance(0.2) ? "<\(name) a=\"1 > 0\" b='x'>" : "<\(name)>"
                open.append(name)
            case 4...5 where !open.isEmpty:
                text += random.pick(Self.texts) ?? ""
            case 6...8 where !open.isEmpty:
                text += "</\(open.removeLast())>"
            case 9 where !open.isEmpty:
                text += "<\(name)/>"
            default:
                continue
            }
        }
        if random.chance(0.8) { while let name = open.popLast() { text += "</\(name)>" } }
        return Data(text.utf8.prefix(Self.maximumInput))
    }

    /// `data` with a few random byte changes, cuts, insertions or repeats; never more than `maximumInput` bytes.
    private func mutate(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1:
                bytes = Array(bytes.prefix(position))
            case 2:
                let snippet =
                    random.pick(["<", ">", "</", "/>", "&", ";", "<!DOCTYPE a>", "<!--", "]]>", "\"", "\u{0}"]) ?? "<"
                bytes.insert(contentsOf: Array(snippet.utf8), at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...200, using: &random))
                let slice = bytes[position..<end]
                for _ in 0..<Int.random(in: 1...50, using: &random) where bytes.count + slice.count <= Self.maximumInput
                {
                    bytes.insert(contentsOf: slice, at: position)
                }
            default:
                if !bytes.isEmpty { bytes.remove(at: position) }
            }
        }
        return Data(bytes.prefix(Self.maximumInput))
    }
}

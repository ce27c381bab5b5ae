import AuthCatTestSupport
import Foundation

/// Makes damaged variants of a valid file: flipped bits, dropped, repeated
/// or inserted bytes, cut-offs, JSON tokens spliced in, pure noise.
struct Mutator {
    var generator: SeededRandom

    private static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ":", ",", "null", "true", "-1", "1e999", "0.5",
        "\"\\u0000\"", "%", "%zz", "=", "&", "\n", "otpauth://", "\u{FEFF}", "99999999999999999999",
    ]
    .map { Array($0.utf8) }

    mutating func mutate(_ seed: Data) -> Data {
        var bytes = [UInt8](seed)
        let rounds = Int.random(in: 1...4, using: &generator)
        for _ in 0..<rounds { mutateOnce(&bytes) }
        return Data(bytes)
    }

    private mutating func mutateOnce(_ bytes: inout [UInt8]) {
        let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<8, using: &generator) {
        case 0 where !bytes.isEmpty:
            bytes[position] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
        case 1 where !bytes.isEmpty:
            bytes.remove(at: position)
        case 2:
            bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
        case 3:
            bytes = Array(bytes.prefix(position))
        case 4 where !bytes.isEmpty:
            let end = min(bytes.count, position + Int.random(in: 1...64, using: &generator))
            bytes.insert(contentsOf: bytes[position..<end], at: position)
        case 5:
            bytes.insert(contentsOf: Self.tokens.randomElement(using: &generator) ?? [], at: position)
        case 6 where !bytes.isEmpty:
            let end = min(bytes.count, position + Int.random(in: 1...16, using: &generator))
            bytes.replaceSubrange(position..<end, with: [])
        default:
            bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
        }
    }
}

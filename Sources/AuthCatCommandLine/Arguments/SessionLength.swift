import ArgumentParser
import AuthCatCore
import AuthCatEssentials

/// How long `authcat unlock` keeps the vault unlocked: `90s`, `15m`, `8h`,
/// `7d`, or plain seconds; at least a second, at most `VaultKeyring.longestDuration`.
struct SessionLength: ExpressibleByArgument, CustomStringConvertible, Equatable {
    let seconds: Int

    static let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    init(seconds: Int) {
        self.seconds = seconds
    }

    init?(argument: String) {
        guard let length = try? Self(parsing: argument) else { return nil }
        self = length
    }

    /// The option's transform: a refused value says what is accepted, which
    /// ArgumentParser adds to its "is invalid" line.
    init(parsing argument: String) throws {
        let text = argument.lowercased()
        let unit = text.last.flatMap { Self.units[$0] }
        let number = unit == nil ? text : String(text.dropLast())
        guard let value = Int(number), value > 0 else { throw Refusal.notALength }
        let (seconds, overflow) = value.multipliedReportingOverflow(by: unit ?? 1)
        guard !overflow, seconds <= VaultKeyring.longestDuration else { throw Refusal.tooLong }
        self.seconds = seconds
    }

    /// Why a value is not a session length.
    enum Refusal: Error, CustomStringConvertible {
        case notALength
        case tooLong

        static let accepted =
            "one whole number with one unit, s, m, h or d (90s, 15m, 8h, 7d; "
            + "150m for two and a half hours), up to \(VaultKeyring.longestDuration / 86_400)d"

        var description: String {
            switch self {
            case .notALength: "give \(Self.accepted)"
            case .tooLong:
                "the longest is \(VaultKeyring.longestDuration / 86_400)d (\(VaultKeyring.longestDuration / 3600)h)"
            }
        }
    }

    static var defaultValueDescription: String { "15m" }

    /// As a person says it: the largest whole unit.
    var description: String {
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60)] where seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}

import ArgumentParser
import AuthCatCore
import AuthCatEssentials

/// How long `authcat unlock` keeps the vault unlocked: `90s`, `15m`, `8h`,
/// `7d`, or plain seconds; at least a second, at most `VaultKeyring.longestDuration`.
struct SessionLength: ExpressibleByArgument, Equatable {
    let seconds: Int

    static let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    init(seconds: Int) {
        self.seconds = seconds
    }

    init?(argument: String) {
        let text = argument.lowercased()
        let unit = text.last.flatMap { Self.units[$0] }
        let number = unit == nil ? text : String(text.dropLast())
        guard let value = Int(number), value > 0 else { return nil }
        let (seconds, overflow) = value.multipliedReportingOverflow(by: unit ?? 1)
        guard !overflow, seconds <= VaultKeyring.longestDuration else { return nil }
        self.seconds = seconds
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

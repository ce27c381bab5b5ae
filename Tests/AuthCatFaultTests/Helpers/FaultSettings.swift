import AuthCatTestSupport
import Foundation

/// The seed and sizes of the fault suite, read from the environment so that
/// `scripts/fault-suite` runs the long variants and a failure replays:
///
/// - `AUTHCAT_FAULT_SEED`: the seed (decimal); random when unset, and printed.
/// - `AUTHCAT_FAULT_KILLS`, `AUTHCAT_FAULT_TRIALS`, `AUTHCAT_FAULT_DISK`…: how
///   much each test does (see each test); the defaults keep `swift test` short.
/// - `AUTHCAT_FAULT_BIN`: a folder holding the `authcat` and `authcat-cli` to
///   test, instead of the ones built next to the tests.
/// - `AUTHCAT_FAULT_REPORT`: a file the figures are appended to, one
///   `name: value` line each, for the script to sum.
enum FaultSettings {
    static let seed: UInt64 = {
        let given = ProcessInfo.processInfo.environment["AUTHCAT_FAULT_SEED"].flatMap { UInt64($0) }
        let seed = given ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("fault suite seed: \(seed) (replay with AUTHCAT_FAULT_SEED=\(seed))")
        return seed
    }()

    /// A generator for one test: the suite's seed mixed with the test's name,
    /// so each test replays alone, whatever else runs.
    static func random(for test: String) -> SeededRandom {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in test.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        print("\(test): seed \(seed)")
        return SeededRandom(seed: seed ^ hash)
    }

    /// An integer setting, or `fallback`.
    static func integer(_ name: String, default fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? fallback
    }

    static func flag(_ name: String) -> Bool {
        ["1", "yes", "true"].contains(ProcessInfo.processInfo.environment[name]?.lowercased() ?? "")
    }

    /// Prints a measured figure and appends it to `AUTHCAT_FAULT_REPORT`.
    static func record(_ name: String, _ value: CustomStringConvertible) {
        let line = "\(name): \(value)"
        print("fault figure \(line)")
        guard let path = ProcessInfo.processInfo.environment["AUTHCAT_FAULT_REPORT"], !path.isEmpty else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `rclone` program: where it is, its environment, and the flags every start gets.
///
/// Its arguments name only what authcat asks of it (never a credential:
/// those stay in rclone's configuration); its environment is the caller's,
/// so that `RCLONE_CONFIG_*` and `RCLONE_CONFIG_PASS` reach it.
struct RcloneProgram: Sendable {
    let executable: String
    let environment: [String: String]
    /// Seconds one request may take.
    let deadline: TimeInterval

    /// The program `AUTHCAT_RCLONE` names, else `rclone` on `PATH`; nil if there is none.
    static func find(environment: [String: String]) -> String? {
        if let named = environment["AUTHCAT_RCLONE"], !named.isEmpty {
            guard named.contains("/") else { return search(named, environment: environment) }
            return access(named, X_OK) == 0 ? named : nil
        }
        return search("rclone", environment: environment)
    }

    private static func search(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// Quiet, bounded retries (authcat's own sync is the retry), timeouts inside the deadline.
    func commonFlags(logLevel: String = "ERROR") -> [String] {
        let seconds = max(1, Int(deadline.rounded(.up)))
        return [
            "--log-level", logLevel, "--retries", "1", "--low-level-retries", "2", "--contimeout", "\(seconds)s",
            "--timeout", "\(seconds)s", "--ask-password=false",
        ]
    }
}

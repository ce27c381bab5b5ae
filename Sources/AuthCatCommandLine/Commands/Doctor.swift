import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat doctor`: what would make codes fail or secrets leak, one finding a line.
    struct Doctor: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check what would make codes fail or secrets leak.",
            discussion: """
                TOTP codes are only as good as the clock. doctor asks a time server \
                (SNTP, one UDP request; --server, default \(SNTPServer.default.host)) how far \
                this machine's clock is off, and checks the rest without touching the network:

                  clock            offset: up to \(Int(DoctorChecks.clockTolerance)) s ok, \
                under \(Int(DoctorChecks.clockLimit)) s a warning, more a problem
                  permissions      the vault folder 0700, every file in it 0600, all yours
                  passphrase_file  AUTHCAT_PASSPHRASE_FILE, if set, readable by you alone
                  secret_file      every other AUTHCAT_*_FILE that is set, and ~/.netrc: yours
                                   alone
                  passphrase       a passphrase on the vault key, and whether it is unlocked
                  clipboard        which tool --copy would use (wl-copy, xclip or xsel)
                  sync             sync's health as last recorded (as 'sync status --offline')
                  followed_file    each followed file there, applied at its last look, and
                                   changed within \(DoctorChecks.followedFileQuietDays) days (a warning each)
                  completion       shell completion installed for $SHELL, and current

                Each finding is one line: ok, warning or problem, what was checked, what was \
                found, and what to do. doctor never creates a vault, never asks for a \
                passphrase, and prints no secret. When no time server answers (no network), \
                the clock finding says so as a warning; name one that answers with --server, \
                or skip the clock with --no-clock.

                Exit status: 0 when nothing is a problem (warnings alone included), 1 when \
                anything is.

                Examples:
                  authcat doctor
                  authcat doctor --server time.cloudflare.com
                  authcat doctor --server 192.168.1.1:123 --timeout 1
                  authcat doctor --no-clock --json
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Option(
            help: ArgumentHelp(
                "The time server to ask: HOST or HOST:PORT (default: \(SNTPServer.default.host)).",
                valueName: "host"))
        var server: String?

        @Option(
            help: ArgumentHelp("How long to wait for the time server, in seconds (0.1 to 60).", valueName: "seconds"))
        var timeout: Double = 3

        @Flag(help: "Do not ask a time server; skip the clock check.")
        var noClock = false

        @Flag(help: "Print the findings as JSON.")
        var json = false

        func validate() throws {
            guard timeout >= 0.1, timeout <= 60 else { throw ValidationError("--timeout must be 0.1 to 60 seconds") }
            if noClock, server != nil { throw ValidationError("--no-clock asks no time server; leave out --server") }
            if let server { _ = try Self.parsed(server) }
        }

        func run(in invocation: Invocation) throws {
            let environment = invocation.environment
            let location = try vaultOptions.location(in: invocation)
            var findings: [DoctorFinding] = []
            var clock: DoctorReport.ClockMeasurement?
            if !noClock {
                let server = try server.map(Self.parsed) ?? .default
                let result = Result { try SNTPClient(server: server, timeout: timeout).measure() }
                    .mapError { $0 as? SNTPError ?? .network(server.description, reason: "\($0)") }
                findings.append(DoctorChecks.clock(result, server: server))
                if case .success(let measurement) = result {
                    clock = DoctorReport.ClockMeasurement(server: server, measurement)
                }
            }
            findings += DoctorChecks.permissions(in: location)
            findings += DoctorChecks.writability(in: location)
            findings += DoctorChecks.secretFiles(environment: environment, home: SyncService.home(environment))
            findings.append(DoctorChecks.protection(in: location))
            findings.append(Self.clipboard(environment: environment))
            findings.append(Self.sync(in: location, now: invocation.now))
            findings += DoctorChecks.followedFiles(followedFiles(in: invocation), now: invocation.now)
            findings.append(
                CompletionCheck.completion(environment: environment) { shell in
                    CompletionShell(rawValue: shell).flatMap { try? CompletionScript.script(for: $0) }
                })

            let report = DoctorReport(findings: findings.map(\.advised), clock: clock)
            if json {
                invocation.output.print(try JSONOutput.string(report))
            } else {
                report.textLines().forEach { invocation.output.print($0) }
            }
            if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
        }

        /// The followed files, read without the vault key; none when there is no vault to read.
        private func followedFiles(in invocation: Invocation) -> [FollowedFile] {
            (try? vaultOptions.openExistingVault(in: invocation)?.followedFiles()) ?? []
        }

        private static func parsed(_ text: String) throws -> SNTPServer {
            do {
                return try SNTPServer(parsing: text)
            } catch {
                throw ValidationError("\(error)")
            }
        }

        /// The tool `code --copy` would use, found the same way.
        private static func clipboard(environment: [String: String]) -> DoctorFinding {
            let display = [environment["WAYLAND_DISPLAY"], environment["DISPLAY"]].contains { !($0 ?? "").isEmpty }
            guard let tool = try? Clipboard.find(environment: environment) else {
                guard display else {
                    return DoctorFinding(
                        "clipboard", .ok, "no display and no clipboard tool: --copy is not for this session")
                }
                return DoctorFinding(
                    "clipboard", .warning, "no clipboard tool found: code --copy cannot work",
                    advice: "install wl-clipboard (Wayland), xclip or xsel")
            }
            let message = "code --copy uses \(tool.executable.path)"
            guard display else {
                return DoctorFinding(
                    "clipboard", .warning, message + ", but this session has no display: --copy prints the code only",
                    advice: "run authcat in a graphical session, or set DISPLAY or WAYLAND_DISPLAY")
            }
            guard tool.reader != nil else {
                return DoctorFinding(
                    "clipboard", .warning, message + ", but finds nothing to read the clipboard with",
                    advice: "install wl-paste beside wl-copy (the wl-clipboard package)")
            }
            return DoctorFinding("clipboard", .ok, message)
        }

        /// Sync's health as the monitor last recorded it, without contacting the remote.
        private static func sync(in location: VaultLocation, now: Date) -> DoctorFinding {
            guard location.exists else { return DoctorFinding("sync", .ok, "off") }
            let status = SyncStatus.recorded(in: location, now: now)
            // The check's name already says sync: the summary, then its detail
            // unless that only repeats it ("off", not "sync: off: sync is off").
            let message =
                status.summary == .off
                ? "off"
                : status.summary.rawValue + (status.message.map { ": \($0)" } ?? "")
            switch status.summary {
            case .off, .succeeded, .inProgress:
                return DoctorFinding("sync", .ok, message, next: status.nextStep)
            case .notStarted:
                return DoctorFinding("sync", .warning, message, next: status.nextStep ?? .syncNow)
            default:
                return DoctorFinding("sync", .problem, message, next: status.nextStep ?? .seeSyncStatus)
            }
        }
    }
}

extension DoctorFinding {
    /// The finding as the command line shows it: its next step worded into the advice.
    var advised: DoctorFinding {
        var finding = self
        let parts = [advice, nextStep?.advice].compactMap { $0 }
        finding.advice = parts.isEmpty ? nil : parts.joined(separator: "; ")
        finding.nextStep = nil
        return finding
    }
}

/// The `doctor` report for people: one aligned line per finding, then a count.
extension DoctorReport {
    /// One line per finding (status, check, message, then what to do), and a last line counting them.
    func textLines() -> [String] {
        let checkWidth = findings.map(\.check.count).max() ?? 0
        var lines = findings.map { finding in
            let status = finding.status.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            let check = finding.check.padding(toLength: checkWidth, withPad: " ", startingAt: 0)
            let advice = finding.advice.map { "; \($0)" } ?? ""
            return TerminalText.sanitized("\(status)  \(check)  \(finding.message)\(advice)")
        }
        func count(_ number: Int, _ word: String) -> String { "\(number) \(word)\(number == 1 ? "" : "s")" }
        lines.append(
            problems == 0 && warnings == 0
                ? "all is well"
                : "\(count(problems, "problem")), \(count(warnings, "warning"))")
        return lines
    }
}

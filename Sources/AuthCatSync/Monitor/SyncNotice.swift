import AuthCatCore
import AuthCatEssentials
import Foundation

/// The one-line warning that tells the user, at their next command, that
/// sync has a problem: the vault folder's `notice` file
/// (`VaultLocation.noticeFileURL`), present exactly while `sync status`
/// would exit non-zero.
///
/// Whoever learns something new about sync (the end of any sync, a failed
/// background push, `sync status`, a lost state found after a change)
/// updates it; writing it never fails the caller.
public enum SyncNotice {
    /// Writes the notice for an unhealthy `status`, or removes it.
    public static func update(_ status: SyncStatus, in location: VaultLocation) {
        let url = location.noticeFileURL
        guard !status.summary.isHealthy else {
            unlink(url.path)
            return
        }
        let line = Self.line(for: status)
        guard (try? String(contentsOf: url, encoding: .utf8)) != line + "\n" else { return }
        try? SecureFile.writeAtomically(Data((line + "\n").utf8), to: url)
    }

    /// Folds the recorded events and the local state, without contacting the
    /// remote, and updates the notice from that.
    public static func refresh(in location: VaultLocation, now: Date) {
        update(SyncStatus.recorded(in: location, now: now), in: location)
    }

    /// The warning to show, if there is one: the file's first line, without control characters.
    public static func current(in location: VaultLocation) -> String? {
        guard let text = try? String(contentsOf: location.noticeFileURL, encoding: .utf8),
            let first = text.split(separator: "\n").first, !first.isEmpty
        else { return nil }
        return TerminalText.sanitized(String(first))
    }

    /// `sync: <summary>: <message>`, as the notice and `doctor` show a status.
    public static func line(for status: SyncStatus) -> String {
        "sync: \(status.summary.rawValue)" + (status.message.map { ": \($0)" } ?? "")
    }
}

import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

/// What `follow add` and `follow now` print of a `FollowReport`: a line for
/// the file, then a line per account it changed (and per entry it refused);
/// with `--json`, `FollowDocument`s.
enum FollowReportOutput {
    static func lines(_ report: FollowReport) -> [String] {
        let name = TerminalText.sanitized(report.name)
        switch report.status {
        case .unchanged: return ["\(name): unchanged"]
        case .failed: return ["\(name): nothing applied: \(report.problem ?? "")"]
        case .passwordNeeded: return ["\(name): nothing applied: \(report.problem ?? "")"]
        case .applied: break
        }
        var counts = [
            ("added", report.added.count), ("changed", report.updated.count), ("removed", report.removed.count),
            ("adopted", report.adopted.count), ("refused", report.rejections.count),
        ].filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
        if counts.isEmpty { counts = ["no account changed"] }
        var lines = ["\(name): " + counts.joined(separator: ", ")]
        lines += report.added.map { "  added    \(TerminalText.sanitized($0))" }
        lines += report.updated.map { update in
            var line = "  changed  \(TerminalText.sanitized(update.label)) (\(update.fields.joined(separator: ", ")))"
            if !update.replacedLocalEdits.isEmpty {
                line +=
                    "; the file's \(update.replacedLocalEdits.joined(separator: ", ")) replaced an edit made "
                    + "here (history keeps it)"
            }
            return line
        }
        lines += report.removed.map { "  removed  \(TerminalText.sanitized($0)) ('authcat restore' brings it back)" }
        lines += report.adopted.map { "  adopted  \(TerminalText.sanitized($0)) (already here, now followed)" }
        lines += report.keptRemoved.map { "  kept removed \(TerminalText.sanitized($0)) (removed here)" }
        lines += report.rejections.map { "  refused  \($0)" }
        return lines
    }

    static func printWarnings(_ report: FollowReport, in invocation: Invocation) {
        for warning in report.warnings {
            invocation.output.warning("\(TerminalText.sanitized(report.name)): \(warning)")
        }
    }
}

/// A `FollowReport` as `--json` prints it (docs/JSON.md).
struct FollowDocument: Encodable {
    struct Update: Encodable {
        var label: String
        var fields: [String]
        var replacedLocalEdits: [String]

        enum CodingKeys: String, CodingKey {
            case label, fields
            case replacedLocalEdits = "replaced_local_edits"
        }
    }

    struct Refusal: Encodable {
        var entry: Int
        var position: String
        @NullWhenAbsent var label: String?
        var kind: String
        var reason: String
    }

    var name: String
    var status: String
    var added: [String]
    var updated: [Update]
    var removed: [String]
    var adopted: [String]
    var keptRemoved: [String]
    var refused: [Refusal]
    var warnings: [String]
    @NullWhenAbsent var problem: String?

    enum CodingKeys: String, CodingKey {
        case name, status, added, updated, removed, adopted, refused, warnings, problem
        case keptRemoved = "kept_removed"
    }

    init(_ report: FollowReport) {
        name = report.name
        status = report.status.rawValue
        added = report.added
        updated = report.updated.map {
            Update(label: $0.label, fields: $0.fields, replacedLocalEdits: $0.replacedLocalEdits)
        }
        removed = report.removed
        adopted = report.adopted
        keptRemoved = report.keptRemoved
        refused = report.rejections.map {
            Refusal(
                entry: $0.position.number, position: $0.position.description, label: $0.label, kind: $0.kind,
                reason: $0.message)
        }
        warnings = report.warnings
        problem = report.problem
    }
}

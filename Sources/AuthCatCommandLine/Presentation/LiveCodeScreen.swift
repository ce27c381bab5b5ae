import AuthCatCore
import AuthCatEssentials
import Foundation

/// One account as the live view (`authcat code --watch`) shows it.
public struct LiveCodeEntry: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        /// A time-based code with the whole seconds left in its time step.
        case expires(code: String, secondsLeft: Int, period: Int)
        /// HOTP: listing must not use up a counter value, so no code.
        case counterBased
        /// HOTP asked for by name: its code, valid until it is used.
        case counterCode(String)
        /// The code could not be computed (a PIN missing, say).
        case unavailable
    }

    public var label: String
    public var state: State

    public init(label: String, state: State) {
        self.label = label
        self.state = state
    }

    /// The entry of `account`, whose code at `now` is `code` (nil for HOTP, or when none could be made).
    public init(_ account: Account, code: OTPCode?, at now: Date) {
        label = account.label
        if account.otp.kind == .hotp {
            state = .counterBased
        } else if let code, let seconds = code.secondsRemaining(at: now) {
            state = .expires(code: code.value, secondsLeft: seconds, period: account.otp.period)
        } else {
            state = .unavailable
        }
    }
}

/// The live view's screen as lines of text, rendered for a terminal of a
/// given size; the program that owns the terminal draws them.
///
/// Each line is: the code, the seconds left in its time step with a bar
/// that empties as the step runs out, and the account's label. No line is
/// wider than the terminal (long labels are cut with `…`, never wrapped),
/// and there are never more lines than rows: those that do not fit are
/// counted on the last line. With `color`, codes are bold and a countdown
/// in its last five seconds red; without it the lines hold no escape sequence at all.
public struct LiveCodeScreen: Sendable {
    public var width: Int
    public var height: Int
    public var color: Bool

    /// Cells in the countdown bar.
    static let barCells = 10
    /// Seconds left from which a countdown is shown as urgent.
    static let urgentSeconds = 5

    public init(width: Int, height: Int, color: Bool) {
        self.width = width
        self.height = height
        self.color = color
    }

    /// Whether to colour the screen: yes unless `NO_COLOR` is set to anything
    /// but the empty string (no-color.org).
    public static func usesColor(environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// The screen's lines, top to bottom; `title` heads it.
    public func lines(_ entries: [LiveCodeEntry], title: String) -> [String] {
        guard width > 0, height > 0 else { return [] }
        var rows: [[Segment]] = [[Segment(title, .dim)]]
        let codeWidth = entries.map(\.codeText.count).max() ?? 1
        let statusWidth = entries.map(\.statusText.count).max() ?? 0
        for entry in entries {
            let code = entry.codeText.padding(toLength: codeWidth, withPad: " ", startingAt: 0)
            let status = entry.statusText.padding(toLength: statusWidth, withPad: " ", startingAt: 0)
            rows.append([
                Segment(code, .bold), Segment("  "), Segment(status, entry.isUrgent ? .urgent : .plain),
                Segment("  "), Segment(TerminalText.sanitized(entry.label)),
            ])
        }
        if entries.isEmpty { rows.append([Segment("no accounts")]) }
        if rows.count > height {
            let shown = max(height - 1, 0)
            let hidden = rows.count - max(shown, 1)
            // The title counts among the shown rows; everything after them is summed up.
            rows =
                Array(rows.prefix(shown)) + [
                    [Segment("… \(hidden) more; make the window taller or give a QUERY", .dim)]
                ]
            if height == 1 { rows = [rows[rows.count - 1]] }
        }
        return rows.map(render)
    }

    /// Text with how it is shown; the style is dropped without `color`.
    struct Segment {
        enum Style {
            case plain, bold, dim, urgent
        }

        var text: String
        var style: Style

        init(_ text: String, _ style: Style = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// The segments cut to `width` characters (the last one then `…`), their
    /// trailing spaces dropped, styled when `color` is on.
    private func render(_ segments: [Segment]) -> String {
        let total = segments.reduce(0) { $0 + $1.text.count }
        var budget = total > width ? width - 1 : width
        var cut: [Segment] = []
        for segment in segments where budget > 0 {
            let kept = String(segment.text.prefix(budget))
            budget -= kept.count
            cut.append(Segment(kept, segment.style))
        }
        if total > width { cut.append(Segment("…")) }
        // No trailing spaces: a terminal shows none, and tests compare lines.
        while let last = cut.last, last.text.last == " " || last.text.isEmpty {
            let trimmed = String(last.text.reversed().drop { $0 == " " }.reversed())
            cut.removeLast()
            if !trimmed.isEmpty { cut.append(Segment(trimmed, last.style)) }
        }
        return cut.map(styled).joined()
    }

    private func styled(_ segment: Segment) -> String {
        guard color, !segment.text.isEmpty else { return segment.text }
        let parameter: String
        switch segment.style {
        case .plain: return segment.text
        case .bold: parameter = "1"
        case .dim: parameter = "2"
        case .urgent: parameter = "31"
        }
        return "\u{1B}[\(parameter)m\(segment.text)\u{1B}[0m"
    }
}

extension LiveCodeEntry {
    var codeText: String {
        switch state {
        case .expires(let code, _, _), .counterCode(let code): code
        case .counterBased, .unavailable: "-"
        }
    }

    /// "12s ▮▮▮▮▯▯▯▯▯▯", or what stands in for it.
    var statusText: String {
        switch state {
        case .expires(_, let secondsLeft, let period):
            let cells = LiveCodeScreen.barCells
            // Full with the whole step left, empty in its last second: a step
            // shows `period` down to 1 seconds left, never 0.
            let filled =
                period > 1 ? min(cells, max(0, ((secondsLeft - 1) * cells * 2 + period - 1) / ((period - 1) * 2))) : 0
            let seconds = "\(secondsLeft)s".padding(toLength: 4, withPad: " ", startingAt: 0)
            return seconds + String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
        case .counterBased:
            return "hotp: ask by name"
        case .counterCode:
            return "hotp: valid until used"
        case .unavailable:
            return "no code"
        }
    }

    var isUrgent: Bool {
        if case .expires(_, let secondsLeft, _) = state { return secondsLeft <= LiveCodeScreen.urgentSeconds }
        return false
    }
}

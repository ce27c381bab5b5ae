import Glibc

/// The width of the terminal a table is printed on, so that a row can be
/// made to fit it: only a person at a terminal reads the table's lines as
/// rows; JSON and pipes get every name whole.
public enum TerminalWidth {
    /// The columns of the terminal on `descriptor`; nil when it is not a
    /// terminal or does not say (a table is then printed whole).
    public static func of(_ descriptor: Int32) -> Int? {
        var window = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return nil }
        return Int(window.ws_col)
    }
}

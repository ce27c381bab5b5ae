/// The graphical session authcat runs in, as its environment says: it
/// decides which menu, typing tool and clipboard tool fit.
enum DesktopSession: Equatable, Sendable {
    case wayland
    case x11
    /// No display: a console, an ssh session, a cron job.
    case none

    init(environment: [String: String]) {
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        // A Wayland session often sets DISPLAY too, for Xwayland: Wayland's tools come first there.
        self = isSet("WAYLAND_DISPLAY") ? .wayland : isSet("DISPLAY") ? .x11 : .none
    }
}

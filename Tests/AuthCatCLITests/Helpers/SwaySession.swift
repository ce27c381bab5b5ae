import AuthCatTestSupport
import Foundation

/// A Wayland session of a test's own: sway on wlroots' headless backend,
/// run as a local user (sway refuses to start as root, which CI is), with
/// its runtime folder, an idle virtual keyboard kept for the session's life
/// (a headless seat has none, and each `wtype` would add one and take it
/// away, so that a client may miss its first key), and the programs a test
/// drives it with as a person would (wtype, swaymsg).
final class SwaySession: @unchecked Sendable {
    let user: LocalUser
    /// A folder of the user's, reachable by all: the runtime folder and the test's files live in it.
    let folder: String
    private let runtime: String
    private var started: [Process] = []
    private var display = ""

    /// Starts sway with `config` (sway's own syntax) as `user`, with
    /// `environment` added to what its clients (and `exec`s) get.
    init(user: LocalUser, config: String, environment extra: [String: String] = [:]) throws {
        for program in ["sway", "swaymsg", "wtype", "foot"]
        where !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + program) {
            throw XvfbDisplay.Failure(description: "/usr/bin/\(program) is missing; scripts/setup installs it")
        }
        self.user = user
        folder = try LocalUser.makeReachableFolder(prefix: "sway")
        try user.own(folder)
        runtime = folder + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false)
        chmod(runtime, 0o700)
        try user.own(runtime)
        let configFile = folder + "/sway.config"
        try (config + "\n").write(toFile: configFile, atomically: true, encoding: .utf8)
        chmod(configFile, 0o644)
        baseEnvironment = [
            "PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": runtime,
        ].merging(extra) { $1 }
        let sway = user.process(
            "/usr/bin/sway", ["-c", configFile],
            environment: baseEnvironment.merging([
                "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
            ]) { $1 }, in: folder)
        sway.standardInput = FileHandle.nullDevice
        sway.standardOutput = FileHandle.nullDevice
        sway.standardError = FileHandle.nullDevice
        try sway.run()
        started.append(sway)
        display = try waitForSocket(prefix: "wayland-", notSuffix: ".lock")
        swaySocket = try waitForSocket(prefix: "sway-ipc.", notSuffix: ".lock")
        // The idle keyboard: wtype's sleep holds its virtual keyboard until it is ended.
        try start("/usr/bin/wtype", ["-s", "86400000"])
    }

    private let baseEnvironment: [String: String]
    private var swaySocket = ""

    /// What the session's clients run with.
    var environment: [String: String] {
        baseEnvironment.merging([
            "WAYLAND_DISPLAY": display, "SWAYSOCK": runtime + "/" + swaySocket, "XDG_SESSION_TYPE": "wayland",
        ]) { $1 }
    }

    /// Ends every program started in the session, then sway.
    func stop() {
        for process in started.reversed() where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Starts `program` as the user in the session, in the background, ended by `stop`.
    @discardableResult
    func start(_ program: String, _ arguments: [String]) throws -> Process {
        let process = user.process(program, arguments, environment: environment, in: folder)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        started.append(process)
        return process
    }

    /// Runs `program` as the user in the session, to its end.
    @discardableResult
    func run(_ program: String, _ arguments: [String], stdin: Data? = nil) throws -> LocalUser.Result {
        try user.run(program, arguments, environment: environment, in: folder, stdin: stdin)
    }

    /// Types `text` on a keyboard of its own (wtype), then Enter when asked.
    func type(_ text: String, enter: Bool = false) throws {
        try wtype([text] + (enter ? ["-k", "Return"] : []))
    }

    /// Presses one named key (`Return`).
    func press(key: String) throws {
        try wtype(["-k", key])
    }

    /// Presses a key binding: `modifier` held around `key`.
    func press(_ key: String, with modifier: String) throws {
        try wtype(["-M", modifier, key, "-m", modifier])
    }

    /// Each wtype brings a virtual keyboard of its own, and the focused
    /// client may drop the first key that keyboard sends (its keymap is
    /// still being set up): a Shift, which types nothing, goes first.
    private func wtype(_ arguments: [String]) throws {
        let result = try run("/usr/bin/wtype", ["-k", "Shift_L"] + arguments)
        guard result.status == 0 else { throw XvfbDisplay.Failure(description: "wtype failed: \(result.stderr)") }
    }

    /// Waits until a window with this app id is focused (`swaymsg -t get_tree`).
    func waitForFocus(appID: String, timeout: TimeInterval = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let tree = try run("/usr/bin/swaymsg", ["-t", "get_tree", "-r"]).stdout
            if Self.focusedAppIDs(in: tree).contains(appID) { return }
            usleep(20_000)
        }
        throw XvfbDisplay.Failure(description: "no window of \(appID) got the focus within \(Int(timeout)) s")
    }

    /// The app ids of the focused nodes of sway's tree.
    private static func focusedAppIDs(in tree: String) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any] else { return [] }
        var found: [String] = []
        func walk(_ node: [String: Any]) {
            if node["focused"] as? Bool == true, let appID = node["app_id"] as? String { found.append(appID) }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { walk(child) }
            }
        }
        walk(root)
        return found
    }

    /// The name of the first file in the runtime folder with this prefix, once sway made it.
    private func waitForSocket(prefix: String, notSuffix: String, timeout: TimeInterval = 60) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
            if let name = names.first(where: { $0.hasPrefix(prefix) && !$0.hasSuffix(notSuffix) }) { return name }
            guard started.first?.isRunning == true else { break }
            usleep(20_000)
        }
        throw XvfbDisplay.Failure(description: "sway did not make its \(prefix) socket (headless backend)")
    }
}

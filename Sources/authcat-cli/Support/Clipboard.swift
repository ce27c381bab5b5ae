import AuthCatCore
import Foundation

/// The desktop clipboard, through whichever of wl-copy, xclip or xsel is installed.
struct Clipboard {
    let executable: URL
    let arguments: [String]

    /// The first clipboard tool found on `PATH`; wl-copy first under Wayland.
    /// - Throws: `ClipboardError.noTool` when none is installed.
    static func find(environment: [String: String]) throws -> Clipboard {
        let wayland = Clipboard.candidate("wl-copy", [])
        let x11 = [Clipboard.candidate("xclip", ["-selection", "clipboard"]),
                   Clipboard.candidate("xsel", ["--clipboard", "--input"])]
        let order = environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } == true ? [wayland] + x11 : x11 + [wayland]
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for (name, arguments) in order {
            for folder in folders {
                let path = URL(fileURLWithPath: folder).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: path.path) {
                    return Clipboard(executable: path, arguments: arguments)
                }
            }
        }
        throw ClipboardError.noTool
    }

    private static func candidate(_ name: String, _ arguments: [String]) -> (String, [String]) {
        (name, arguments)
    }

    /// Hands `text` to the tool on its standard input.
    ///
    /// The tool's output goes to /dev/null: xclip and wl-copy leave a process
    /// behind to serve the selection, which must not hold authcat's pipes open.
    func copy(_ text: String) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
            try input.fileHandleForWriting.close()
        } catch {
            throw ClipboardError.failed(executable.lastPathComponent, status: nil)
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ClipboardError.failed(executable.lastPathComponent, status: process.terminationStatus)
        }
    }
}

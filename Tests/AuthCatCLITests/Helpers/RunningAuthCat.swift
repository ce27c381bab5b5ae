import Foundation

/// An `authcat` process started without waiting for it (`sync watch`, a sync to be killed).
///
/// It runs directly, not under `setsid`, so that signals reach authcat itself.
final class RunningAuthCat {
    let process = Process()
    private let outputURL: URL
    private let errorURL: URL

    init(device: AuthCatRunner, arguments: [String], folder: URL) throws {
        let name = UUID().uuidString
        outputURL = folder.appendingPathComponent("\(name).out")
        errorURL = folder.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = AuthCatRunner.executableURL
        process.arguments = ["--home", device.home.path] + arguments
        process.environment = device.environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for the process to exit; its status, or nil if it is still running.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

import Foundation
import XCTest

extension FaultTestCase {
    /// Runs `authcat --home HOME arguments…` under GNU time, waiting a generous 120 s, and returns how it ended
    /// with its peak memory in KiB and the CPU time it used (user and system, in seconds).
    ///
    /// The peak is GNU time's: it forks, so the count starts from its own
    /// small memory. (`wait4` on a child of the test runner would not do:
    /// posix_spawn shares the runner's memory until the exec, and the kernel
    /// counts the runner's peak as the child's.) A run that does not end in
    /// 120 s fails the test as hung; nothing here asserts that it is fast.
    func measured(
        _ home: URL, _ arguments: [String], environment extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (run: FaultRun, peakKiB: Int, cpuSeconds: Double) {
        let measure = scratch.appendingPathComponent("peak-\(UUID().uuidString)")
        let child = try SpawnedAuthCat(
            executable: "/usr/bin/time",
            arguments: ["-f", "%M %U %S", "-o", measure.path, Self.executable, "--home", home.path] + arguments,
            environment: baseEnvironment.merging(extra) { $1 }, stdinPath: nil, scratch: scratch)
        let termination = child.wait(timeout: 120)
        defer { child.removeFiles() }
        XCTAssertFalse(child.timedOut, "authcat \(arguments.joined(separator: " ")) hung", file: file, line: line)
        let measuredText = try? String(contentsOf: measure, encoding: .utf8)
        // The last line: GNU time says "Command exited with non-zero status" on a line before it.
        let fields = measuredText.flatMap { $0.split(separator: "\n").last }?.split(separator: " ") ?? []
        let peak = fields.first.flatMap { Int($0) } ?? Int.max
        let cpu = fields.dropFirst().compactMap { Double($0) }.reduce(0, +)
        FaultSettings.record("peak memory of authcat \(arguments.joined(separator: " "))", "\(peak) KiB")
        let run = FaultRun(termination: termination, stdout: child.stdout, stderr: child.stderr)
        return (run, peak, fields.count == 3 ? cpu : .infinity)
    }

    /// Runs a command that must end (`measured`) and peak below `limitKiB`; returns how it ended.
    func bounded(
        _ home: URL, _ arguments: [String], environment: [String: String], belowKiB limitKiB: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> FaultRun {
        let (run, peak, _) = try measured(home, arguments, environment: environment, file: file, line: line)
        XCTAssertLessThan(
            peak, limitKiB, "authcat \(arguments.joined(separator: " ")) peaked at \(peak) KiB (bound \(limitKiB) KiB)",
            file: file, line: line)
        return run
    }
}

import Foundation
import Synchronization

/// What a program run on a pseudo-terminal (`script`) has shown so far, read
/// as it arrives, so that a test types each answer once its prompt shows
/// instead of after a fixed pause.
///
/// A prompt is output that ends in a space: authcat's prompts end so
/// ("authcat passphrase: ", "[y/N] "), while the terminal's echo of a typed
/// line and every other line end in a line break.
final class TerminalTranscript: Sendable {
    private let shown = Mutex(Data())
    private let reader = DispatchGroup()

    /// The longest wait for a prompt; a program that never asks gets the answer anyway.
    private static let promptTimeout: TimeInterval = 20

    init(reading output: Pipe) {
        let handle = output.fileHandleForReading
        reader.enter()
        Thread.detachNewThread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                shown.withLock { $0.append(chunk) }
            }
            reader.leave()
        }
    }

    /// Everything shown, once the program's output has ended.
    func finished() -> Data {
        reader.wait()
        return shown.withLock { $0 }
    }

    /// Types each chunk once a new prompt shows; after the last one, closes the
    /// input once the process exits or prompts again (it asks for more than
    /// the test typed: the end of input answers it, as before).
    ///
    /// - Parameter atPrompt: called with the chunk's index once its prompt
    ///   shows, before it is typed: the program waits for a person then.
    func type(
        _ chunks: [Data], into pipe: Pipe, until process: Process,
        atPrompt: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> DispatchGroup {
        signal(SIGPIPE, SIG_IGN)
        let group = DispatchGroup()
        let fd = pipe.fileHandleForWriting.fileDescriptor
        DispatchQueue.global().async(group: group) { [self] in
            var seen = 0
            for (index, chunk) in chunks.enumerated() {
                seen = waitForPrompt(after: seen, while: process)
                atPrompt(index)
                guard AuthCatRunner.writeAll(chunk, to: fd) else { break }
            }
            _ = waitForPrompt(after: seen, while: process)
            try? pipe.fileHandleForWriting.close()
        }
        return group
    }

    /// Waits until output beyond `count` bytes ends in a prompt, or the process
    /// ends, or the timeout passes; returns how much output there was then.
    private func waitForPrompt(after count: Int, while process: Process) -> Int {
        let deadline = Date().addingTimeInterval(Self.promptTimeout)
        while process.isRunning, Date() < deadline {
            let (length, prompted) = shown.withLock { ($0.count, $0.count > count && $0.last == UInt8(ascii: " ")) }
            if prompted { return length }
            usleep(5_000)
        }
        return shown.withLock { $0.count }
    }
}

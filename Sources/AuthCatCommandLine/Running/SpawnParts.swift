import Foundation

/// What `posix_spawn` needs from every caller (the detached launcher, the
/// clipboard tools): C strings for argv and envp, the invocation's
/// environment, the descriptors a child must not inherit, and a pipe that
/// hands a child its input.
enum SpawnParts {
    /// `strings` as a NULL-terminated list of C strings, freed after `body`.
    static func withCStrings<Result>(
        _ strings: [String],
        _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
    ) -> Result {
        let list = strings.map { strdup($0) } + [nil]
        defer { list.forEach { free($0) } }
        return body(list)
    }

    /// The invocation's environment as `NAME=value`: what a child sees, for
    /// a command line run in process as for one run as a program.
    static func entries(of environment: [String: String]) -> [String] {
        environment.map { "\($0.key)=\($0.value)" }
    }

    /// This process's open descriptors, from /proc.
    static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }

    /// Why a pipe could not be filled, in the system's words.
    struct PipeFailure: Error {
        var reason: String
    }

    /// The reading end (close-on-exec) of a pipe already holding `bytes`, its
    /// writing end closed: a child given it as standard input may exit
    /// without reading, and this process neither waits for it nor writes to
    /// a pipe without a reader (SIGPIPE).
    ///
    /// - Throws: `PipeFailure` when there is no pipe, or `bytes` do not fit
    ///   in one (at most `largestPipe`): the writes never block, so more than
    ///   the pipe holds fails at once instead of hanging.
    static func filledPipe(_ bytes: [UInt8]) throws -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw PipeFailure(reason: String(cString: strerror(errno))) }
        let (reader, writer) = (ends[0], ends[1])
        _ = fcntl(reader, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writer, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        if bytes.count > 65_536 { _ = fcntl(writer, pipeSetSize, Int32(min(bytes.count, largestPipe))) }
        let failure = writeAll(bytes, to: writer)
        close(writer)
        guard failure == 0 else {
            close(reader)
            throw PipeFailure(reason: String(cString: strerror(failure)))
        }
        return reader
    }

    /// What an unprivileged process may make a pipe hold by default
    /// (/proc/sys/fs/pipe-max-size).
    static let largestPipe = 1 << 20

    /// Linux's F_SETPIPE_SZ, declared only under _GNU_SOURCE.
    private static let pipeSetSize: Int32 = 1031

    /// Writes all of `bytes` to the non-blocking `fd`; the errno that stopped it, or 0.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress?.advanced(by: offset), $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EAGAIN }
            offset += written
        }
        return 0
    }
}

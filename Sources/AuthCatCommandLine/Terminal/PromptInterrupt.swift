import Foundation

/// SIGINT, while a question is open on the terminal, means "cancel this
/// question": whatever the command set SIGINT to do (`sync watch` ignores it
/// and counts it through a dispatch source), a Ctrl-C typed at a prompt
/// reaches the prompt, which throws `PromptInterrupted`.
///
/// The handler only writes a byte to a pipe that the prompt's read waits on
/// beside the terminal (the self-pipe pattern): a signal may land on any
/// thread, and a read retried on EINTR would never see it. The signal is
/// unblocked on the asking thread, since a dispatch signal source blocks it
/// on the thread that made it and then reads it from a signalfd instead; a
/// SIGINT that source takes first is passed on (`cancelOpenPrompt`).
///
/// Signal handlers cannot capture context, so the pipe lives in process-wide
/// storage, made once and written only before the handler is installed.
enum PromptInterrupt {
    nonisolated(unsafe) private static var pipeEnds: (read: Int32, write: Int32) = (-1, -1)

    /// What SIGINT did and which signals were blocked before a prompt, to put back after it.
    struct Saved {
        fileprivate var action = sigaction()
        fileprivate var mask = sigset_t()
    }

    /// Catches SIGINT for a prompt. Returns the descriptor that becomes
    /// readable once SIGINT arrived, and what to pass to `disarm`; nil when
    /// no pipe can be made (then SIGINT does what it did before).
    static func arm() -> (wake: Int32, saved: Saved)? {
        guard makePipe() else { return nil }
        drain()
        var saved = Saved()
        var catching = sigaction()
        catching.__sigaction_handler.sa_handler = { _ in PromptInterrupt.wake() }
        sigemptyset(&catching.sa_mask)
        // The pipe, not EINTR, tells the prompt; other threads' calls need not fail for it.
        catching.sa_flags = SA_RESTART
        guard sigaction(SIGINT, &catching, &saved.action) == 0 else { return nil }
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, &saved.mask)
        return (pipeEnds.read, saved)
    }

    /// Puts back what SIGINT did before `arm`; a Ctrl-C the prompt did not
    /// read is dropped with the pipe's contents, as it was answered by the prompt's end.
    static func disarm(_ saved: Saved) {
        var action = saved.action
        var mask = saved.mask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        sigaction(SIGINT, &action, nil)
        drain()
    }

    /// Cancels the open question, if any, for a SIGINT that reached the
    /// process another way: a dispatch signal source reads SIGINT from its
    /// signalfd, and may take it before the prompt's handler runs (`StopSignal`).
    static func cancelOpenPrompt() {
        wake()
    }

    private static func makePipe() -> Bool {
        if pipeEnds.read >= 0 { return true }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        // Neither end may block (a full pipe in the handler, an empty one when drained), nor reach a child.
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        pipeEnds = (ends[0], ends[1])
        return true
    }

    private static func drain() {
        var byte: UInt8 = 0
        while read(pipeEnds.read, &byte, 1) > 0 {}
    }

    /// Runs in the signal handler: only async-signal-safe calls, errno kept.
    private static func wake() {
        let saved = errno
        var byte: UInt8 = 1
        _ = write(pipeEnds.write, &byte, 1)
        errno = saved
    }
}

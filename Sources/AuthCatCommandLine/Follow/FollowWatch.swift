import AuthCatCore
import AuthCatInterchange
import Foundation

/// `follow now --watch`: applies each followed file as soon as it is
/// written whole, until SIGINT or SIGTERM. The folders that hold the files
/// are watched with inotify: a file closed after writing, or renamed into
/// place (as Syncthing and Nextcloud write), is looked at; every file is
/// also looked at every few minutes, for file systems that send no events.
struct FollowWatch {
    var look: FollowedFileLook
    var json: Bool

    /// Seconds between looks at every file, events or not.
    static let fullLookInterval = 300.0

    func run(_ files: [FollowedFile]) async throws {
        let invocation = look.invocation
        try await StopSignal.catching { stop in
            let events = try FolderEvents(folders: Set(files.map { ($0.path as NSString).deletingLastPathComponent }))
            try show(files.map(look.check))
            var lastFullLook = invocation.now
            while !stop.isStopped {
                let touched = events.wait(seconds: 1)
                guard !stop.isStopped else { break }
                let full = invocation.now.timeIntervalSince(lastFullLook) >= Self.fullLookInterval
                guard full || !touched.isEmpty else { continue }
                if full { lastFullLook = invocation.now }
                let due = try look.vault.followedFiles().filter { full || touched.contains($0.path) }
                guard !due.isEmpty else { continue }
                try show(due.map(look.check).filter { $0.status != .unchanged })
            }
        }
    }

    /// Prints what the looks did: lines for people, a JSON object per line with `--json`.
    private func show(_ reports: [FollowReport]) throws {
        let invocation = look.invocation
        if reports.contains(where: \.changedAccounts) { VaultChangeHook.vaultDidChange(look.vault, in: invocation) }
        for report in reports {
            FollowReportOutput.printWarnings(report, in: invocation)
            let text =
                json
                ? try JSONOutput.line(FollowDocument(report))
                : FollowReportOutput.lines(report).joined(separator: "\n")
            invocation.output.print(text)
        }
        // Whoever reads a watch (a log, a status bar) sees each look as it happens.
        invocation.output.flushStandardOutput()
    }
}

/// inotify on a few folders: which paths in them were written whole,
/// created, moved or removed.
private final class FolderEvents {
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]

    init(folders paths: Set<String>) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw FollowedFileProblem.unreadable("inotify", errno) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
        for path in paths {
            let watch = inotify_add_watch(descriptor, path, mask)
            // A folder that is gone now is looked at every few minutes instead.
            if watch >= 0 { folders[watch] = path }
        }
    }

    deinit { close(descriptor) }

    /// The paths with events within `seconds` (none when nothing happened).
    func wait(seconds: Double) -> Set<String> {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return [] }
        var touched: Set<String> = []
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while case let count = read(descriptor, buffer, size), count > 0 {
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if event.len > 0, let folder = folders[event.wd] {
                    let name = String(cString: (buffer + nameStart).assumingMemoryBound(to: CChar.self))
                    touched.insert(folder + "/" + name)
                }
                offset = nameStart + Int(event.len)
            }
        }
        return touched
    }
}

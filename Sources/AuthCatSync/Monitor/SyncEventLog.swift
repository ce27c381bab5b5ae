import AuthCatCore
import AuthCatEssentials
import Foundation
import Synchronization

/// The monitor's event store: a bounded, append-only file in the vault folder.
///
/// Each event is one JSON line in `sync-events.log` (mode 0600). Every
/// process that syncs appends to the same file under an exclusive `flock` on
/// `sync-events.lock`, so concurrent writers never interleave lines. When the
/// file would grow past `maximumBytes`, it is replaced by its newest events,
/// half the budget. Events are monitor data, never vault data: a write that fails is
/// dropped rather than failing the sync, and a torn line is skipped on read.
public final class SyncEventLog: SyncEventRecorder {
    /// The file's name inside the vault folder.
    public static let fileName = "sync-events.log"
    /// The default size bound: a few hundred syncs.
    public static let defaultMaximumBytes = 64 * 1024

    /// Where the events are kept.
    public let fileURL: URL
    let maximumBytes: Int
    private let processID: Int32
    /// Set once a write gave up waiting for another process's lock.
    let waitedInVain = Mutex(false)

    /// A log in `location`'s folder.
    ///
    /// - Parameters:
    ///   - processID: stamped on events that carry none; the current process by default.
    ///   - maximumBytes: the size the file never exceeds (one event always fits).
    public init(
        location: VaultLocation, processID: Int32 = getpid(), maximumBytes: Int = SyncEventLog.defaultMaximumBytes
    ) {
        fileURL = location.folder.appendingPathComponent(Self.fileName)
        self.processID = processID
        self.maximumBytes = maximumBytes
    }

    /// Appends `event`; never throws, because sync must not fail for want of a log line.
    public func record(_ event: SyncEvent) {
        var stamped = event
        if stamped.processID == nil { stamped.processID = processID }
        guard let line = try? Self.encoder.encode(stamped) else { return }
        try? append(line + Data("\n".utf8))
    }

    /// Every event still in the log, oldest first; an absent log has none.
    ///
    /// - Throws: `SyncMonitorError.cannotRead` if the file exists but cannot be read.
    public func events() throws -> [SyncEvent] {
        guard let data = try readAll() else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? Self.decoder.decode(SyncEvent.self, from: Data($0))
        }
    }

    /// Drops every event, as when sync is turned off and on again from scratch.
    public func removeAll() throws {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else {
            throw SyncMonitorError.cannotWrite(fileURL.path, reason: String(cString: strerror(errno)))
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        // Whole milliseconds, as every time authcat stores (docs/FORMAT.md).
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()
}

/// Receives the sync engine's events.
///
/// Recording must never fail or slow sync down: an implementation that cannot
/// store an event drops it. `SyncEventLog` keeps them in the vault folder.
public protocol SyncEventRecorder: Sendable {
    func record(_ event: SyncEvent)
}

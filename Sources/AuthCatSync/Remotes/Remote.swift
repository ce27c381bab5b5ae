import Foundation

/// Storage that holds the sync engine's opaque, encrypted objects.
///
/// A remote is deliberately dumb: a flat namespace of named byte strings with
/// list, get, put, create-only put and delete. Names are relative to the
/// remote's root (`manifest`, `devices/<id>/batch-000001`) and must pass
/// `RemoteObjectName.validate(_:)`; every operation rejects other names with
/// `RemoteError.invalidObjectName`. All failures are thrown as `RemoteError`.
///
/// A remote is ready for requests once it is made: one that runs a program on
/// this machine (rclone) starts it when it is made, and one that writes
/// through temporary files (a folder) tidies what killed writes left as it
/// goes. What differs between stores is described by `capabilities`, one
/// value; nothing here has a default, so every remote says what it does, and a
/// wrapper (`RemoteWrapper`) passes on everything it does not change.
///
/// Conforming types: `MemoryRemote` (AuthCatTesting), `FolderRemote` (`file://`),
/// `S3Remote` (`s3://`), `WebDAVRemote` (`davs://`, `dav://`) and
/// `RcloneRemote` (`rclone:`); `CountingRemote` and `DeadlineRemote` wrap any of them.
public protocol Remote: Sendable {
    /// Where the objects live, as a URL without credentials, safe to print.
    var displayLocation: String { get }

    /// What the store offers, as far as is known now.
    var capabilities: RemoteCapabilities { get }

    /// Makes the remote ready for use and checks that it is reachable.
    ///
    /// Call it once when sync is turned on. A folder remote creates its root
    /// folder here (and only here); an S3 remote checks the bucket exists and
    /// the credentials are accepted, but never creates buckets.
    func prepare() async throws

    /// Every object whose name starts with `prefix` (a plain string prefix,
    /// as in S3), sorted by name. Follows pagination to the end.
    func list(prefix: String) async throws -> [RemoteObject]

    /// The object's bytes, or `nil` if no object has that name.
    func get(_ name: String) async throws -> Data?

    /// Stores `data` under `name`, replacing any object of that name.
    ///
    /// Readers see either the old or the new object, never a partial one.
    func put(_ name: String, data: Data) async throws

    /// Stores `data` under `name` only if no object of that name exists.
    ///
    /// Whether the store itself refuses an existing name, or `create` looks
    /// first, is `capabilities.createOnlyEnforced`.
    ///
    /// - Returns: `true` if this call created the object, `false` if an
    ///   object of that name already existed (it is left untouched).
    func create(_ name: String, data: Data) async throws -> Bool

    /// Removes the object; removing an absent object is not an error.
    func delete(_ name: String) async throws

    /// Releases what the remote holds (connection pools, a local program).
    /// The remote must not be used afterwards. Safe to call more than once.
    func close() async throws
}

/// What a remote's store offers, described by the remote itself.
public struct RemoteCapabilities: Sendable, Equatable {
    /// Whether the store refuses a `create` of an existing name by itself
    /// (rather than `create` looking first, which two racing writers can
    /// both pass); nil while unknown (a WebDAV server not yet probed).
    public var createOnlyEnforced: Bool?

    public init(createOnlyEnforced: Bool?) {
        self.createOnlyEnforced = createOnlyEnforced
    }
}

/// A remote that passes everything to `base` except what it implements
/// itself: a wrapper names only what it changes, and cannot lose the rest.
public protocol RemoteWrapper: Remote {
    /// The remote that does the work.
    var base: any Remote { get }
}

extension RemoteWrapper {
    public var displayLocation: String { base.displayLocation }

    public var capabilities: RemoteCapabilities { base.capabilities }

    public func prepare() async throws {
        try await base.prepare()
    }

    public func list(prefix: String) async throws -> [RemoteObject] {
        try await base.list(prefix: prefix)
    }

    public func get(_ name: String) async throws -> Data? {
        try await base.get(name)
    }

    public func put(_ name: String, data: Data) async throws {
        try await base.put(name, data: data)
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try await base.create(name, data: data)
    }

    public func delete(_ name: String) async throws {
        try await base.delete(name)
    }

    public func close() async throws {
        try await base.close()
    }
}

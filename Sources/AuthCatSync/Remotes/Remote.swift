import Foundation

/// Storage that holds the sync engine's opaque, encrypted objects.
///
/// A remote is deliberately dumb: a flat namespace of named byte strings with
/// list, get, put, create-only put and delete. Names are relative to the
/// remote's root (`manifest`, `devices/<id>/batch-000001`) and must pass
/// `RemoteObjectName.validate(_:)`; every operation rejects other names with
/// `RemoteError.invalidObjectName`. All failures are thrown as `RemoteError`.
///
/// Conforming types: `MemoryRemote` (AuthCatTesting), `FolderRemote` (`file://`),
/// `S3Remote` (`s3://`), `WebDAVRemote` (`davs://`, `dav://`) and
/// `RcloneRemote` (`rclone:`). `CountingRemote` wraps any of them to count requests.
public protocol Remote: Sendable {
    /// Where the objects live, as a URL without credentials, safe to print.
    var displayLocation: String { get }

    /// Makes the remote ready for use and checks that it is reachable.
    ///
    /// Call it once when sync is turned on. A folder remote creates its root
    /// folder here (and only here); an S3 remote checks the bucket exists and
    /// the credentials are accepted, but never creates buckets.
    func prepare() async throws

    /// Starts what the remote runs on this machine before its first request
    /// (rclone's remote control), so that a deadline on a request measures
    /// the remote's answer, not the start of a local program.
    func startLocalProgram() async throws

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
    /// - Returns: `true` if this call created the object, `false` if an
    ///   object of that name already existed (it is left untouched).
    func create(_ name: String, data: Data) async throws -> Bool

    /// Whether the store refuses a `create` of an existing name by itself
    /// (rather than `create` looking first, which two racing writers can
    /// both pass); nil while unknown (a WebDAV server not yet probed).
    var createOnlyEnforced: Bool? { get }

    /// Removes the object; removing an absent object is not an error.
    func delete(_ name: String) async throws

    /// Releases network resources (connection pools). The remote must not be
    /// used afterwards. Safe to call more than once.
    func close() async throws

    /// Removes the temporary files a write cut off by a kill left in the
    /// folder that holds the objects under `prefix` (which ends in `/`), if
    /// they were last changed before `cutoff`; returns how many it removed.
    ///
    /// Only remotes that write through temporary files have any (the folder
    /// remote); the caller must be sure nobody else writes under `prefix`.
    func removeStaleTemporaries(under prefix: String, changedBefore cutoff: Date) async throws -> Int
}

extension Remote {
    /// Remotes with nothing to set up only check that they can list.
    public func prepare() async throws {
        _ = try await list(prefix: "")
    }

    /// Remotes reached without a program of their own start nothing.
    public func startLocalProgram() async throws {}

    /// Remotes that create with an atomic check of their own (a folder's link, memory).
    public var createOnlyEnforced: Bool? { true }

    /// Remotes without network resources have nothing to release.
    public func close() async throws {}

    /// Remotes whose writes are atomic leave no temporaries.
    public func removeStaleTemporaries(under prefix: String, changedBefore cutoff: Date) async throws -> Int { 0 }
}

import AuthCatEssentials
internal import CArchive
import Foundation

/// A ZIP archive read from memory with libarchive, every size bounded before
/// and while it is read: the number of entries, each entry's declared size and
/// their total before anything is inflated, and the bytes an entry inflates to
/// while it is inflated (a zip bomb declares a small size and inflates to
/// gigabytes: reading stops at the first byte past what it declared). The one
/// reader of the exports that are ZIP archives (1Password's `.1pux`, Proton
/// Pass's export), and the one file of AuthCatInterchange that uses libarchive.
///
/// Nothing is written to disk: an entry's bytes go from the archive in memory
/// to the caller, who wipes them. Entries are found by exact path; a path that
/// climbs out of the archive (`..`) or starts at the root makes the whole
/// archive suspect and is refused.
///
/// libarchive, not ZIPFoundation: ZIPFoundation 0.9.20's inflater on Linux
/// reads past a short chunk and loops forever on a deflate stream that runs
/// to the end of the archive (`zip_runaway.zip`, 125 bytes, hangs it: `BoundedZIPTests`).
struct BoundedZIP {
    /// Far more than an export holds (1Password adds one per attachment).
    static let maximumEntries = 10_000
    /// The most one entry may inflate to: an export of 10,000 accounts is about 10 MiB of JSON.
    static let maximumEntrySize = 64 << 20
    /// The most all entries together may declare.
    static let maximumTotalSize = 1 << 30

    /// Why an archive cannot be read; the description is one lower-case clause.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// libarchive refused it: not a ZIP archive, truncated, or damaged.
        case damaged
        case tooManyEntries
        case entryTooLarge(String)
        case totalTooLarge
        /// An entry inflates to more than its header declared.
        case inflatesPastItsSize(String)
        case pathOutside

        var description: String {
            switch self {
            case .damaged:
                "its ZIP archive is damaged or truncated"
            case .tooManyEntries:
                "its ZIP archive holds more than \(BoundedZIP.maximumEntries) files"
            case .entryTooLarge(let path):
                "its file \(Self.shown(path)) is larger than \(BoundedZIP.maximumEntrySize >> 20) MiB"
            case .totalTooLarge:
                "its ZIP archive's files add up to more than \(BoundedZIP.maximumTotalSize >> 30) GiB"
            case .inflatesPastItsSize(let path):
                "its file \(Self.shown(path)) holds more than its header says (a zip bomb?)"
            case .pathOutside:
                "its ZIP archive names a file outside itself (a path with '..' or from '/')"
            }
        }

        /// A file's path, short and printable, for a message.
        private static func shown(_ path: String) -> String {
            "'" + String(path.unicodeScalars.prefix(64).map { (0x20...0x7e).contains($0.value) ? Character($0) : "?" })
                + "'"
        }
    }

    /// libarchive could not be loaded: no ZIP export can be read.
    struct Unavailable: UserFacingError, Equatable {
        var description: String {
            "reading a ZIP export needs libarchive (Debian package libarchive13), which could not be loaded"
        }
    }

    /// One file of the archive, as its central directory describes it.
    struct Entry: Equatable {
        var path: String
        var declaredSize: Int
        var isFile: Bool
    }

    /// The archive's entries, in its order.
    let entries: [Entry]
    private let data: Data

    /// Whether `data` starts like a ZIP archive (a file's header, or the end of an empty archive).
    static func looksLike(_ data: Data) -> Bool {
        data.starts(with: [0x50, 0x4b, 0x03, 0x04]) || data.starts(with: [0x50, 0x4b, 0x05, 0x06])
    }

    /// Reads the archive's directory, and checks its bounds and paths.
    /// - Throws: `Failure`, or `Unavailable` without libarchive.
    init(_ data: Data) throws {
        self.data = data
        var entries: [Entry] = []
        var total = 0
        try Self.walk(data) { entry, _ in
            guard entries.count < Self.maximumEntries else { throw Failure.tooManyEntries }
            guard !Self.climbsOut(entry.path) else { throw Failure.pathOutside }
            guard entry.declaredSize <= Self.maximumEntrySize else { throw Failure.entryTooLarge(entry.path) }
            total += entry.declaredSize
            guard total <= Self.maximumTotalSize else { throw Failure.totalTooLarge }
            entries.append(entry)
            return true
        }
        self.entries = entries
    }

    /// The bytes of the file at `path`, or nil when the archive has none;
    /// the caller wipes them.
    /// - Throws: `Failure.inflatesPastItsSize` as soon as it inflates past
    ///   its declared size, `.damaged` when it does not inflate.
    func contents(of path: String) throws -> Data? {
        guard let wanted = entries.first(where: { $0.path == path && $0.isFile }) else { return nil }
        var found: Data?
        try Self.walk(data) { entry, read in
            guard entry.path == path && entry.isFile else { return true }
            found = try read(wanted.declaredSize)
            return false
        }
        return found
    }

    /// Whether `path` names a place outside the archive.
    private static func climbsOut(_ path: String) -> Bool {
        path.hasPrefix("/") || path.hasPrefix("\\")
            || path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
    }

    /// Calls `visit` with each entry of the archive in `data` and a reader of
    /// its bytes bounded by a size, until `visit` returns false.
    private static func walk(_ data: Data, _ visit: (Entry, (Int) throws -> Data) throws -> Bool) throws {
        let library = try Library.shared()
        guard let archive = library.readNew() else { throw Failure.damaged }
        defer { _ = library.readFree(archive) }
        try data.withUnsafeBytes { bytes in
            // The central directory, not the local headers: what every other reader of the file believes.
            guard library.supportFormatZipSeekable(archive) == ARCHIVE_OK,
                library.openMemory(archive, bytes.baseAddress, bytes.count) == ARCHIVE_OK
            else { throw Failure.damaged }
            var header: OpaquePointer?
            while true {
                let status = library.nextHeader(archive, &header)
                if status == ARCHIVE_EOF { return }
                guard status == ARCHIVE_OK, let header else { throw Failure.damaged }
                let size = library.entrySizeIsSet(header) != 0 ? library.entrySize(header) : Int64(maximumEntrySize)
                let entry = Entry(
                    path: library.entryPathname(header).map { String(cString: $0) } ?? "",
                    declaredSize: Int(clamping: max(0, size)),
                    isFile: library.entryFiletype(header) & 0o170000 == 0o100000)
                guard try visit(entry, { limit in try read(archive, entry, limit: limit, library) }) else { return }
            }
        }
    }

    /// The current entry's bytes, refused at the first byte past `limit`.
    private static func read(_ archive: OpaquePointer, _ entry: Entry, limit: Int, _ library: Library) throws -> Data {
        var chunk = Data(count: 64 << 10)
        defer { chunk.resetBytes(in: 0..<chunk.count) }
        var result = Data()
        // The whole declared size at once, so that growing leaves no unwiped copy behind.
        result.reserveCapacity(limit)
        while true {
            let count = chunk.withUnsafeMutableBytes { library.readData(archive, $0.baseAddress, $0.count) }
            guard count >= 0 else {
                result.resetBytes(in: 0..<result.count)
                throw Failure.damaged
            }
            if count == 0 { return result }
            guard result.count + count <= limit else {
                result.resetBytes(in: 0..<result.count)
                throw Failure.inflatesPastItsSize(entry.path)
            }
            result.append(chunk.prefix(count))
        }
    }
}

extension BoundedZIP {
    /// libarchive, opened at run time on the first ZIP export: linked, it
    /// would load libxml2 and ICU at every start of authcat-cli.
    struct Library: @unchecked Sendable {
        typealias New = @convention(c) () -> OpaquePointer?
        typealias OfArchive = @convention(c) (OpaquePointer?) -> Int32
        typealias OpenMemory = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
        typealias NextHeader = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
        typealias Pathname = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
        typealias Size = @convention(c) (OpaquePointer?) -> Int64
        typealias Filetype = @convention(c) (OpaquePointer?) -> UInt32
        typealias ReadData = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int) -> Int

        let readNew: New
        let readFree: OfArchive
        let supportFormatZipSeekable: OfArchive
        let openMemory: OpenMemory
        let nextHeader: NextHeader
        let entryPathname: Pathname
        let entrySize: Size
        let entrySizeIsSet: OfArchive
        let entryFiletype: Filetype
        let readData: ReadData

        /// The library, opened once per process; the handle is never closed.
        static func shared() throws -> Library {
            try loaded.get()
        }

        private static let loaded = Result { try Library(path: "libarchive.so.13") }

        private init(path: String) throws {
            let library = try DynamicLibrary(path, unavailable: Unavailable())
            func function<T>(_ name: String) throws -> T { try library.function(name) }
            readNew = try function("archive_read_new")
            readFree = try function("archive_read_free")
            supportFormatZipSeekable = try function("archive_read_support_format_zip_seekable")
            openMemory = try function("archive_read_open_memory")
            nextHeader = try function("archive_read_next_header")
            entryPathname = try function("archive_entry_pathname_utf8")
            entrySize = try function("archive_entry_size")
            entrySizeIsSet = try function("archive_entry_size_is_set")
            entryFiletype = try function("archive_entry_filetype")
            readData = try function("archive_read_data")
        }
    }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Whether an SQLite database file is as long as its own header says.
///
/// SQLite reads a page missing from the end of a file as zeros, so a vault
/// cut short (a copy stopped part-way, a full disk under a file copier) would
/// open, answer with rows missing, and be written back that way. The header
/// records the number of pages, so a short file can be told from a whole one
/// before SQLite touches it. The vault and the quick front both ask here.
public enum DatabaseFileSize {
    /// False when the file at `path` is shorter than its header says, or is
    /// not a whole number of pages, while its write-ahead log is empty; true
    /// otherwise (including when the header does not record a size, as SQLite
    /// versions before 3.7.0 did not).
    ///
    /// A short file beside a log that holds pages is not damage: a checkpoint
    /// copies pages from the log into the file, page 1 (with the new size)
    /// first, and one that is running in another process, or was stopped by
    /// a full disk, leaves the file short while the log still holds every
    /// page past its end. SQLite reads those from the log, and the next
    /// checkpoint finishes the copy.
    public static func isWhole(atPath path: String) -> Bool {
        if lengthMatchesHeader(path) != false { return true }
        if (SecureFile.size(of: path + "-wal") ?? 0) > 0 { return true }
        // A checkpoint may have finished, and emptied the log, between the two looks.
        return lengthMatchesHeader(path) != false
    }

    /// Nil when the header says nothing about the size or cannot be read
    /// (SQLite then decides); otherwise whether the length matches.
    static func lengthMatchesHeader(_ path: String) -> Bool? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        var info = stat()
        guard pread(fd, &header, header.count, 0) == header.count, fstat(fd, &info) == 0,
            let expected = expectedLength(header: header)
        else { return nil }
        let pageSize = pageSize(header)
        return Int64(info.st_size) >= expected && Int64(info.st_size) % pageSize == 0
    }

    /// The length the header promises: its page count times its page size,
    /// when the count is valid (its "version valid for" field equals the
    /// change counter; https://sqlite.org/fileformat.html, §1.3).
    static func expectedLength(header: [UInt8]) -> Int64? {
        guard header.count >= 100, header.starts(with: Array("SQLite format 3\u{0}".utf8)) else { return nil }
        let changeCounter = bigEndian(header, at: 24)
        let pageCount = bigEndian(header, at: 28)
        guard pageCount > 0, bigEndian(header, at: 92) == changeCounter else { return nil }
        return Int64(pageCount) * pageSize(header)
    }

    /// The page size in bytes; the value 1 stands for 65,536.
    private static func pageSize(_ header: [UInt8]) -> Int64 {
        let size = Int64(header[16]) << 8 | Int64(header[17])
        return size == 1 ? 65_536 : max(size, 512)
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

import AuthCatCore
import AuthCatEssentials
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The names of authcat's dated backups in a folder, and which of them a
/// rotation (`backup --output-dir DIR --keep N`) may delete.
///
/// A backup's name is `authcat-backup-YYYYMMDD-HHMMSS.authcat`, or
/// `authcat-backup-YYYYMMDD-HHMMSS-K.authcat` (K ≥ 2) when that second is
/// already taken, so a new backup never overwrites one. Only files with
/// exactly such a name are ever counted or deleted: anything else in the
/// folder is the user's and is left alone.
public enum BackupRotation {
    public static let prefix = "authcat-backup-"
    public static let suffix = ".authcat"

    /// Where a name sorts among backups: its time stamp, then its sequence number.
    public struct Stamp: Comparable, Hashable, Sendable {
        /// `YYYYMMDDHHMMSS` as a number, so that it orders by time.
        public var time: UInt64
        /// 1 for the plain name, K for the `-K` suffix.
        public var sequence: Int

        public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
            (lhs.time, lhs.sequence) < (rhs.time, rhs.sequence)
        }
    }

    /// The name of the `sequence`th backup made in the second of `date`, in
    /// `timeZone` (local time by default, as people read their folders).
    public static func fileName(at date: Date, sequence: Int = 1, timeZone: TimeZone = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let suffix = sequence > 1 ? "-\(sequence)" : ""
        return "\(prefix)\(formatter.string(from: date))\(suffix)\(Self.suffix)"
    }

    /// The stamp of an authcat backup name, nil for any other name.
    public static func stamp(of name: String) -> Stamp? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts[0].count == 8, parts[1].count == 6,
            parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
            let time = UInt64(parts[0] + parts[1])
        else { return nil }
        var sequence = 1
        if parts.count == 3 {
            // "-2" and up, without leading zeros, so that each backup has one name.
            guard let number = Int(parts[2]), number >= 2, String(number) == parts[2] else { return nil }
            sequence = number
        }
        return Stamp(time: time, sequence: sequence)
    }

    /// The backups among `names` to delete so that `keep` remain, oldest
    /// first; `newest` (the backup just written and verified) is never among them.
    /// - Precondition: `keep` is at least 1.
    public static func expired(among names: [String], keep: Int, newest: String) -> [String] {
        let backups = names.compactMap { name in stamp(of: name).map { (name, $0) } }
            .filter { $0.0 != newest }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        // The newest backup takes one of the `keep` places.
        let others = max(keep, 1) - (names.contains(newest) ? 1 : 0)
        return backups.dropLast(max(others, 0)).map(\.0)
    }

    /// Deletes the regular files in `folder` that `expired` names, and
    /// returns their names. A name that is a folder, a link or anything but
    /// a regular file is skipped, never followed; so is another user's file,
    /// which is not a backup of yours: planted in a shared folder with later
    /// dates, such files would otherwise take the places `keep` leaves and
    /// make the rotation delete your real backups.
    /// - Throws: `BackupRotationError` when the folder cannot be listed or a file cannot be deleted;
    ///   the files deleted before the failure stay deleted (they were beyond `keep`).
    public static func prune(folder: String, keep: Int, newest: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw BackupRotationError.cannotList(folder)
        }
        var deleted: [String] = []
        for name in expired(among: names.filter { isOwnRegularFile("\(folder)/\($0)") }, keep: keep, newest: newest) {
            guard unlink("\(folder)/\(name)") == 0 else {
                throw BackupRotationError.cannotDelete("\(folder)/\(name)", reason: String(cString: strerror(errno)))
            }
            deleted.append(name)
        }
        return deleted
    }

    private static func isOwnRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid()
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

import AuthCatCore
import AuthCatEssentials

/// What a format parser read from a file: accounts, entries it could not
/// use, and notes about the file as a whole. Parsing never touches the vault.
public struct ParsedImport: Sendable {
    public var format: ImportFormat
    public var entries: [ImportEntry] = []
    /// Invalid and unsupported entries, in file order.
    public var rejections: [ImportRejection] = []
    /// Remarks about the file that are not about one entry, such as a missing Google batch.
    public var warnings: [String] = []
    /// Synced preferences, from authcat backups only.
    public var preferences: [String: String] = [:]

    public init(format: ImportFormat) {
        self.format = format
    }

    /// Number of entries the file held, usable or not.
    public var entryCount: Int { entries.count + rejections.count }

    /// The most entries one file may hold: ten times the largest vault
    /// anyone keeps. Each entry read keeps an account or a rejection with
    /// its message, many times the few bytes a broken entry takes in a file,
    /// so without a bound a file of empty entries would take gigabytes.
    public static let maximumEntries = 100_000

    /// Reads one entry with `body`, recording it, or its rejection when
    /// `body` throws an `EntryProblem` (or any error a user may see).
    /// - Throws: `ImportError.malformed` beyond `maximumEntries`.
    mutating func read(_ position: EntryPosition, label: String?, _ body: () throws -> ImportEntry) throws {
        try checkRoom(forEntries: 1)
        do {
            let entry = try body()
            entries.append(entry)
            if let leftover = entry.draft.secretLeftover {
                warnings.append("\(position)\(label.map { " (\(TerminalText.sanitized($0)))" } ?? ""): \(leftover)")
            }
        } catch let problem as EntryProblem {
            rejections.append(ImportRejection(position: position, label: label, reason: problem.rejectionReason))
        } catch let error as UserFacingError {
            rejections.append(ImportRejection(position: position, label: label, reason: .invalid(error.description)))
        } catch {
            rejections.append(
                ImportRejection(position: position, label: label, reason: .invalid("it could not be read")))
        }
    }

    /// Records an entry that could not be read at all, such as a migration URI that does not decode.
    mutating func reject(_ position: EntryPosition, label: String?, reason: ImportRejection.Reason) throws {
        try checkRoom(forEntries: 1)
        rejections.append(ImportRejection(position: position, label: label, reason: reason))
    }

    /// Refuses at once a list of `count` entries that would take this import
    /// past `maximumEntries`, before any of them is read: a hostile file gets
    /// the same error as from `read`, without the work of reading the
    /// entries that fit first.
    /// - Throws: `ImportError.malformed`.
    func checkRoom(forEntries count: Int) throws {
        guard entryCount + count <= Self.maximumEntries else {
            throw ImportError.malformed(
                format, "it holds more than \(Self.maximumEntries) entries, the most authcat reads from one file")
        }
    }
}

extension EntryProblem {
    var rejectionReason: ImportRejection.Reason {
        switch self {
        case .invalid(let text): .invalid(text)
        case .unsupported(let text): .unsupported(text)
        }
    }
}

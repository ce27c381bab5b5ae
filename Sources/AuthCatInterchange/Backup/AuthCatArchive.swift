import AuthCatCore
import AuthCatEssentials
import Foundation

/// The JSON document inside an authcat backup, and the whole of
/// `authcat export --format json` (see docs/FORMAT.md §4).
///
/// Times are whole milliseconds since 1970; secrets are unpadded uppercase
/// Base32. Unknown keys are ignored, so later versions can add fields.
public struct AuthCatArchive: Codable, Equatable, Sendable {
    public static let formatName = "authcat"
    public static let currentVersion = 1

    public enum Kind: String, Codable, Sendable {
        case backup, export
    }

    public var format = AuthCatArchive.formatName
    public var version = AuthCatArchive.currentVersion
    public var kind: Kind
    public var createdAt: Int64
    /// The vault the archive was made from.
    public var vaultID: String?
    /// Live accounts, in display order.
    public var accounts: [ArchivedAccount]
    /// Synced preferences (backups only).
    public var preferences: [String: String]?
    /// The vault's history, newest first (backups made with `--with-history` only).
    public var history: [ArchivedHistoryEntry]?

    public init(
        kind: Kind, createdAt: Date, vaultID: String?, accounts: [ArchivedAccount],
        preferences: [String: String]? = nil, history: [ArchivedHistoryEntry]? = nil
    ) {
        self.kind = kind
        self.createdAt = createdAt.unixMilliseconds
        self.vaultID = vaultID
        self.accounts = accounts
        self.preferences = preferences
        self.history = history
    }

    /// Stable JSON: keys sorted, so the same vault gives the same bytes.
    public func encoded(pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads an archive, checking its format name and version.
    /// - Throws: `BackupError.invalidContent` naming the first problem, never a value.
    public static func decode(_ data: Data) throws -> AuthCatArchive {
        let archive: AuthCatArchive
        guard JSONNesting.isWithinBound(data) else {
            throw BackupError.invalidContent("it nests more than \(JSONNesting.maximumDepth) levels deep")
        }
        do {
            archive = try JSONDecoder().decode(AuthCatArchive.self, from: data)
        } catch let error as DecodingError {
            throw BackupError.invalidContent(DecodingProblem.describe(error))
        } catch {
            throw BackupError.invalidContent("it is not JSON")
        }
        guard archive.format == formatName else { throw BackupError.invalidContent("it is not an authcat archive") }
        guard archive.version <= currentVersion else {
            throw BackupError.invalidContent(
                "its version \(archive.version) is newer than this authcat understands; upgrade authcat")
        }
        return archive
    }
}

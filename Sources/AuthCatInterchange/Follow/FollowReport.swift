import AuthCatCore
import Foundation

/// What one look at a followed file did, for `follow now` and `follow add`.
/// It names accounts by label and fields by name, never a secret.
public struct FollowReport: Sendable {
    public enum Status: String, Codable, Sendable {
        /// The content is the one last applied: nothing was read further.
        case unchanged
        /// The content was new and is applied (perhaps changing nothing).
        case applied
        /// The file could not be read, opened or parsed: nothing changed.
        case failed
        /// The kept password no longer opens the file and none could be asked: nothing changed.
        case passwordNeeded = "password_needed"
    }

    /// One account changed to follow its entry.
    public struct Update: Equatable, Sendable {
        public var label: String
        /// The fields changed, in `HistoryChange`'s names.
        public var fields: [String]
        /// The fields that had been edited here and that the file changed too: the file's value won.
        public var replacedLocalEdits: [String]
    }

    public var name: String
    public var status: Status
    public var added: [String] = []
    public var updated: [Update] = []
    public var removed: [String] = []
    /// Accounts that were in the vault already, with the same name and secret, and are now followed.
    public var adopted: [String] = []
    /// Entries whose account was removed here: it stays removed until restored.
    public var keptRemoved: [String] = []
    /// Entries that were not applied, with the reason.
    public var rejections: [ImportRejection] = []
    /// Remarks about the file as a whole (a removal held back, a secret with extra bits).
    public var warnings: [String] = []
    /// Why nothing was applied, for `failed` and `passwordNeeded`.
    public var problem: String?

    public init(name: String, status: Status, problem: String? = nil) {
        self.name = name
        self.status = status
        self.problem = problem
    }

    /// Whether the vault's accounts changed.
    public var changedAccounts: Bool {
        !added.isEmpty || !updated.isEmpty || !removed.isEmpty
    }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension VaultLocation {
    /// `notice` in the vault folder: one line that needs the user's
    /// attention, shown as a warning before any command but the `sync`
    /// commands (which say it themselves). AuthCatSync writes it while sync
    /// has a problem and removes it once resolved (docs/FORMAT.md §6).
    ///
    /// Here because both programs need its name: while it exists, the quick
    /// front hands every command line to `authcat-cli`, which prints it. One
    /// `access()` is all it costs the front.
    public var noticeFileURL: URL { folder.appendingPathComponent("notice") }
}

internal import CKeyutils

#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The vault key of an unlocked, passphrase-protected vault, kept for a while
/// in the kernel's keyring of this user (`authcat unlock`).
///
/// The user keyring, not a session keyring: every process of the user reaches
/// it, so a shell, another terminal, a background push, `sync watch` and cron
/// all find the key, while other users (root aside) cannot read it. The
/// kernel deletes the key when its timeout runs out; `authcat lock` and a
/// change of passphrase delete it at once. Format in docs/FORMAT.md §2.1.
public enum VaultKeyring {
    /// An unlocked vault key and when the kernel will forget it.
    public struct Entry {
        public let key: SecretBytes
        public let expiresAt: Date
    }

    /// The longest `authcat unlock --for` allowed: 30 days.
    public static let longestDuration = 30 * 24 * 3600

    /// Keeps `key` for `seconds`, replacing an earlier entry of the same vault.
    public static func store(_ key: SecretBytes, vaultID: String, seconds: Int, now: Date) throws {
        guard seconds > 0, seconds <= longestDuration else { throw VaultKeyringError.durationOutOfRange(seconds) }
        let expiresAt = Int64(now.timeIntervalSince1970) + Int64(seconds)
        var payload = Array(magic.utf8) + withUnsafeBytes(of: expiresAt.bigEndian, Array.init)
        key.withUnsafeBytes { payload.append(contentsOf: $0) }
        defer { Sodium.wipe(&payload) }
        // Made in this process's own keyring, which ends with the process, and
        // linked into the user keyring only once it has its timeout: killed at
        // any moment, authcat never leaves a key that outlives its time.
        let id = add_key("user", description(vaultID), payload, payload.count, KEY_SPEC_PROCESS_KEYRING)
        guard id >= 0 else { throw VaultKeyringError.unavailable(String(cString: strerror(errno))) }
        // Unlinked from the process keyring whatever happens; if that fails the
        // link goes when the process ends, so there is nothing to report.
        defer { _ = keyctl_unlink(id, KEY_SPEC_PROCESS_KEYRING) }
        guard keyctl_setperm(id, permissions) == 0, keyctl_set_timeout(id, UInt32(seconds)) == 0 else {
            throw invalidating(id)
        }
        forget(vaultID: vaultID)
        guard keyctl_link(id, KEY_SPEC_USER_KEYRING) == 0 else { throw invalidating(id) }
    }

    /// Deletes the half-made key `id`; the error that says why it was given up.
    private static func invalidating(_ id: key_serial_t) -> VaultKeyringError {
        let reason = String(cString: strerror(errno))
        // Reported already by the error returned; a key that cannot be
        // invalidated is in the process keyring only, which ends with the process.
        _ = keyctl_invalidate(id)
        return .unavailable(reason)
    }

    /// The key kept for `vaultID`, or nil when there is none (locked,
    /// expired, or no keyring on this system).
    public static func entry(vaultID: String) -> Entry? {
        let id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", description(vaultID), 0)
        guard id > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: payloadSize + 1)
        defer { Sodium.wipe(&buffer) }
        let length = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
                keyctl_read(key_serial_t(id), $0, pointer.count)
            }
        }
        guard length == payloadSize, buffer.starts(with: Array(magic.utf8)) else { return nil }
        let seconds = buffer[magic.utf8.count..<magic.utf8.count + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return Entry(
            key: SecretBytes(buffer[(magic.utf8.count + 8)..<payloadSize]),
            expiresAt: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// Deletes the key kept for `vaultID`; returns whether there was one.
    @discardableResult
    public static func forget(vaultID: String) -> Bool {
        let id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", description(vaultID), 0)
        guard id > 0 else { return false }
        return keyctl_invalidate(key_serial_t(id)) == 0
    }

    static func description(_ vaultID: String) -> String {
        "authcat:vault-key:\(vaultID)"
    }

    /// Format tag of the payload: the tag, the expiry (8 bytes, big-endian
    /// seconds since 1970), then the 32-byte vault key.
    private static let magic = "authcat-unlocked-v1\u{0}"
    private static var payloadSize: Int { magic.utf8.count + 8 + AEAD.keySize }

    /// Possessor: everything; the same user: view, read, search (a process
    /// whose session keyring does not link the user keyring still finds it).
    private static let permissions = key_perm_t(KEY_POS_ALL) | key_perm_t(KEY_USR_VIEW | KEY_USR_READ | KEY_USR_SEARCH)
}

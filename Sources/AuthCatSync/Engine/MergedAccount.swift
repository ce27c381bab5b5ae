import AuthCatCore
import AuthCatEssentials

/// An account as the merge decided it should be, before it is written.
struct MergedAccount {
    var account: Account
    /// The secret to store, when it is new or changed; nil keeps the stored one.
    var secret: SecretBytes?
    var deleted: Bool
    /// The PIN to store with `secret` (Yandex, mOTP); it changes only with the secret.
    var pin: SecretBytes?
}

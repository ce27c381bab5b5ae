import AuthCatCore
import AuthCatEssentials
import Foundation

/// The three-way merge of one followed account: its entry as last applied
/// (`before`), as the file has it now, and the account as it is here. A
/// field the file changed takes the file's value; one it left alone keeps
/// what is here, edited or not. An HOTP counter only moves forward: the
/// phone and this vault each use codes.
struct FieldMerge {
    /// The change to make here; nil when nothing is to change.
    private(set) var edit: AccountEdit?
    /// The fields the edit changes.
    private(set) var fields: [AccountField] = []
    /// The fields among them that had been edited here: the file's value replaced it.
    private(set) var replacedHere: [AccountField] = []

    init(
        before: FollowSnapshot, file: AccountDraft, here account: Account, secret: SecretBytes, pin: SecretBytes?
    ) throws {
        let now = FollowSnapshot(file)
        var hereSnapshot = FollowSnapshot(
            AccountDraft(
                issuer: account.issuer, name: account.name, otp: account.otp, tags: account.tags,
                note: account.note, secret: secret, pin: pin))
        var edit = AccountEdit()
        var otp = account.otp
        func take<Value: Equatable>(
            _ field: AccountField, _ path: WritableKeyPath<FollowSnapshot, Value>, _ set: (Value) -> Void
        ) {
            guard now[keyPath: path] != before[keyPath: path], hereSnapshot[keyPath: path] != now[keyPath: path]
            else { return }
            if hereSnapshot[keyPath: path] != before[keyPath: path], !replacedHere.contains(field) {
                replacedHere.append(field)
            }
            if !fields.contains(field) { fields.append(field) }
            hereSnapshot[keyPath: path] = now[keyPath: path]
            set(now[keyPath: path])
        }
        take(.issuer, \.issuer) { edit.issuer = $0 }
        take(.name, \.name) { edit.name = $0 }
        take(.kind, \.otp.kind) { otp.kind = $0 }
        take(.algorithm, \.otp.algorithm) { otp.algorithm = $0 }
        take(.digits, \.otp.digits) { otp.digits = $0 }
        take(.period, \.otp.period) { otp.period = $0 }
        take(.tags, \.tags) { edit.tags = $0 }
        take(.note, \.note) { edit.note = $0 }
        take(.secret, \.secret) { edit.secret = SecretBytes($0) }
        take(.secret, \.pin) { edit.pin = $0.map { SecretBytes($0) } }
        if file.otp.kind == .hotp, file.otp.counter > otp.counter {
            otp.counter = file.otp.counter
            fields.append(.counter)
        }
        if otp != account.otp { edit.otp = otp }
        self.edit = fields.isEmpty ? nil : edit
    }
}

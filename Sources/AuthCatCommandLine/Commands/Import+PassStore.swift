import AuthCatEssentials
import AuthCatInterchange
import Foundation

extension AuthCat.Import {
    /// The folder FILE names, when it is one: a password store is the one
    /// format read from a folder.
    /// - Throws: `ImportError` for a folder that is not a store, or with another `--format`.
    func passStore() throws -> String? {
        var status = stat()
        guard file != "-", stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        if let format, format != .pass {
            throw ImportError.malformed(format, "\(file) is a folder; only a password store (--format pass) is one")
        }
        guard format == .pass || PassStore.isMarked(file) else {
            throw ImportError.malformed(
                .pass, "\(file) has no .gpg-id (pass) or .age-recipients (gopass); give --format pass to read it anyway"
            )
        }
        return file
    }

    /// The store's entries, each decrypted by the user's gpg or age.
    func readStore(_ folder: String, in invocation: Invocation) throws -> ParsedImport {
        let store = try PassStore(folder: folder)
        let decryption = UserDecryption(invocation: invocation)
        return try PassStoreFormat.parse(store, decrypt: decryption.decrypt)
    }
}

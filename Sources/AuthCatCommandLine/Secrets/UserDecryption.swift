import AuthCatEssentials
import AuthCatInterchange
import Foundation

/// The user's own decryption programs, run on the entries of their password
/// store: gpg for `.gpg` files, age for gopass's `.age` files. The
/// ciphertext goes in on standard input and the plain text comes back on
/// standard output into locked memory; nothing secret is on a command line.
/// gpg's agent asks for the key's passphrase itself (pinentry) and keeps it
/// for the next entries; age asks on the terminal when its identity file
/// has a passphrase.
struct UserDecryption {
    /// The environment the programs run with: the invocation's (`GNUPGHOME`, `PATH`…).
    var environment: [String: String]

    /// With the invocation's environment, and `GPG_TTY` naming its terminal
    /// when unset, as pass sets it: gpg reads the ciphertext from a pipe and
    /// cannot tell pinentry which terminal to ask on.
    init(invocation: Invocation) {
        environment = invocation.environment
        if environment["GPG_TTY"] == nil, let terminal = invocation.terminalPath { environment["GPG_TTY"] = terminal }
    }

    /// The variable that names age's identity file; gopass's own is the default.
    static let ageIdentityVariable = "AUTHCAT_AGE_IDENTITY_FILE"

    /// The plain text of `file`.
    /// - Throws: `PassStore.DecryptionFailure` when the program could not decrypt
    ///   it; `Unavailable` when the program is missing or the user cancelled.
    func decrypt(_ file: PassStore.File) throws -> SecretBytes {
        let program = try self.program(for: file.encryption)
        var finished: ChildProcess.Finished
        do {
            finished = try program.run(input: Array(file.contents), outputLimit: PassStore.maximumFileSize + 1)
        } catch {
            throw Unavailable.failed(program.name, (error as? ChildProcess.StartFailure)?.reason ?? "\(error)")
        }
        // Wiped where it is: a copy (`var output = finished.output`) would be wiped instead.
        defer { Wipe.bytes(&finished.output) }
        if let failure = ChildProcess.failure(finished.status) {
            // A cancelled passphrase dialog would come back for every entry: stop at the first.
            if finished.message.lowercased().contains("cancel") { throw Unavailable.cancelled(program.name) }
            let reason = finished.message.isEmpty ? failure : finished.message
            throw PassStore.DecryptionFailure(reason: "\(program.name) could not decrypt it (\(reason))")
        }
        guard finished.output.count <= PassStore.maximumFileSize else {
            throw PassStore.DecryptionFailure(reason: "it decrypts to more than 1 MiB, too large for an entry")
        }
        return SecretBytes(finished.output)
    }

    /// The program that decrypts `encryption`, with its arguments.
    private func program(for encryption: PassStore.Encryption) throws -> ChildProcess {
        switch encryption {
        case .gpg:
            guard let gpg = ChildProcess.installed("gpg", environment: environment) else {
                throw Unavailable.missing("gpg", package: "gnupg")
            }
            return ChildProcess(
                executable: gpg, arguments: ["--quiet", "--batch", "--decrypt"], environment: environment)
        case .age:
            guard let age = ChildProcess.installed("age", environment: environment) else {
                throw Unavailable.missing("age", package: "age")
            }
            return ChildProcess(
                executable: age, arguments: ["--decrypt", "--identity", try ageIdentity()], environment: environment)
        }
    }

    /// `AUTHCAT_AGE_IDENTITY_FILE`, else gopass's identities file.
    private func ageIdentity() throws -> String {
        if let path = environment[Self.ageIdentityVariable], !path.isEmpty { return path }
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(environment["HOME"] ?? "")/.config"
        let gopass = "\(config)/gopass/age/identities"
        guard access(gopass, R_OK) == 0 else { throw Unavailable.noAgeIdentity }
        return gopass
    }

    /// Why no entry of the store can be decrypted: the import stops, nothing imported.
    enum Unavailable: UserFacingError, Equatable {
        case missing(String, package: String)
        case failed(String, String)
        case cancelled(String)
        case noAgeIdentity

        var description: String {
            switch self {
            case .missing(let name, let package):
                "decrypting the password store needs \(name) (Debian package \(package)), which is not installed; "
                    + "nothing was imported"
            case .failed(let name, let reason): "\(name) could not be started (\(reason)); nothing was imported"
            case .cancelled(let name): "\(name)'s passphrase was not given; nothing was imported"
            case .noAgeIdentity:
                "the store has .age entries: set \(UserDecryption.ageIdentityVariable) to your age identity file; "
                    + "nothing was imported"
            }
        }
    }
}

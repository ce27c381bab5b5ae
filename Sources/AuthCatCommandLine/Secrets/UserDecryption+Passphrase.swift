import AuthCatEssentials
import AuthCatInterchange
import Foundation

/// Exports sealed with a passphrase in OpenPGP (Proton Pass's `.pgp`),
/// opened by the user's own gpg. The passphrase's line and then the message
/// go in on gpg's standard input (`--passphrase-fd 0` reads the line alone,
/// byte by byte, and the message follows), never on its command line; the
/// plain bytes come back on its standard output; gpg's agent keeps no copy
/// of the passphrase (`--no-symkey-cache`). The input is handed over in one
/// pipe's room (`SpawnParts.largestPipe`, 1 MiB): a larger export is
/// refused with the gpg command that opens it.
extension UserDecryption {
    /// The most a sealed export may decrypt to: as much as an import file may hold.
    static let sealedExportLimit = 64 << 20

    /// The plain bytes of the sealed export `data` of `format`; the caller wipes them.
    /// - Throws: `ImportError.wrongPassword` when the passphrase does not open
    ///   it, `.malformed` when gpg cannot read it, `.encryptedUnsupported`
    ///   without gpg.
    func open(sealed data: Data, passphrase: SecretBytes, format: ImportFormat) throws -> Data {
        guard let gpg = ChildProcess.installed("gpg", environment: environment) else {
            throw ImportError.encryptedUnsupported(
                format, hint: "opening it needs gpg (Debian package gnupg), which is not installed")
        }
        guard data.count + passphrase.count < SpawnParts.largestPipe else {
            throw ImportError.malformed(
                format,
                "it is larger than \(SpawnParts.largestPipe >> 20) MiB, more than authcat hands gpg; "
                    + "decrypt it first: gpg --decrypt FILE.pgp > FILE.zip")
        }
        let program = ChildProcess(
            executable: gpg,
            arguments: [
                "--batch", "--quiet", "--no-symkey-cache", "--pinentry-mode", "loopback", "--passphrase-fd", "0",
                "--decrypt",
            ], environment: environment)
        // Built in place, so that no intermediate copy of the passphrase is left unwiped.
        var input: [UInt8] = []
        input.reserveCapacity(passphrase.count + 1 + data.count)
        passphrase.withUnsafeBytes { input.append(contentsOf: $0) }
        input.append(0x0a)
        input.append(contentsOf: data)
        defer { Wipe.bytes(&input) }
        var finished: ChildProcess.Finished
        do {
            finished = try program.run(input: input, outputLimit: Self.sealedExportLimit + 1)
        } catch {
            let reason = (error as? ChildProcess.StartFailure)?.reason ?? "\(type(of: error))"
            throw ImportError.malformed(format, "gpg could not be started (\(reason))")
        }
        // Wiped where it is: a copy (`var output = finished.output`) would be wiped instead.
        defer { Wipe.bytes(&finished.output) }
        if let failure = ChildProcess.failure(finished.status) {
            if finished.message.contains("Bad session key") { throw ImportError.wrongPassword(format) }
            let reason = finished.message.isEmpty ? failure : finished.message
            throw ImportError.malformed(format, "gpg could not decrypt it (\(reason))")
        }
        guard finished.output.count <= Self.sealedExportLimit else {
            throw ImportError.malformed(format, "it decrypts to more than \(Self.sealedExportLimit >> 20) MiB")
        }
        return Data(finished.output)
    }
}

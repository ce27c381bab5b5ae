import AuthCatCore
import AuthCatEssentials
import Foundation

/// A secret read from a file the user named (`AUTHCAT_*_PASSPHRASE_FILE`,
/// `AUTHCAT_*_PASSWORD_FILE`, `--recovery-key-file`): its first line, read
/// under the path rules of every input (`InputPath`). A regular file that
/// others can read gets a warning as it is read, as ssh gives for a key:
/// the same rule `doctor` checks (`SecretFileMode`).
enum SecretFile {
    /// The first line of the file at `path`, without its line break, read and trimmed in locked memory.
    ///
    /// - Parameters:
    ///   - what: the file, for a failed read ("the AUTHCAT_PASSPHRASE_FILE file").
    ///   - source: the file, for an empty line ("AUTHCAT_PASSPHRASE_FILE (PATH)").
    ///   - unreadable: the error when the file cannot be opened, from the system's reason.
    static func firstLine(
        _ path: String, what: String, source: String, limit: Int, unreadable: (_ reason: String) -> Error,
        in invocation: Invocation
    ) throws -> SecretBytes {
        let fd = try InputPath.open(path, standard: invocation.standardDescriptors)
        guard fd >= 0 else { throw unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        warnIfExposed(fd, path: path, in: invocation)
        let line = try FileDescriptorReader.readSecret(
            fd, limit: limit, what: what, keep: FileDescriptorReader.firstLine)
        guard line.count > 0 else { throw InputError.emptyPassphrase(source: source) }
        return line
    }

    /// Warns when the open file `fd`, read as `path`, breaks `SecretFileMode`; the warning names the file, never its contents.
    static func warnIfExposed(_ fd: Int32, path: String, in invocation: Invocation) {
        var info = stat()
        guard fstat(fd, &info) == 0, let exposure = SecretFileMode.exposure(info) else { return }
        invocation.output.warning(SecretFileMode.warning(path, exposure))
    }
}

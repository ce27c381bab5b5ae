import Foundation

/// Reading what was piped into authcat, never more than a limit, so that a
/// stray megabyte on standard input fails at once instead of filling memory.
enum StandardInput {
    /// All of standard input, up to `limit` bytes.
    ///
    /// The caller wipes the returned bytes once it has decoded them.
    /// - Throws: `InputError.tooLong` as soon as more than `limit` bytes arrive.
    static func read(limit: Int, what: String) throws -> [UInt8] {
        try FileDescriptorReader.readAll(Invocation.current.standardInput, limit: limit, what: what)
    }
}

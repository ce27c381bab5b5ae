import Foundation

/// What `posix_spawn` needs from every caller (the detached launcher, the
/// clipboard tools): C strings for argv and envp, the invocation's
/// environment, and the descriptors a child must not inherit.
enum SpawnParts {
    /// `strings` as a NULL-terminated list of C strings, freed after `body`.
    static func withCStrings<Result>(_ strings: [String],
                                     _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        let list = strings.map { strdup($0) } + [nil]
        defer { list.forEach { free($0) } }
        return body(list)
    }

    /// The invocation's environment as `NAME=value`: what a child sees, for
    /// a command line run in process as for one run as a program.
    static var environment: [String] {
        Invocation.current.environment.map { "\($0.key)=\($0.value)" }
    }

    /// This process's open descriptors, from /proc.
    static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }
}

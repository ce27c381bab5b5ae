#if canImport(Glibc)
    import Glibc
#endif

/// The one rule for paths that name a descriptor of this process, for input
/// and output paths alike.
public enum DescriptorPath {
    /// `/proc/PID/fd/N` (what `/dev/fd/N`, `/dev/stdin`, `/dev/stdout` and
    /// `/proc/self/fd/N` lead to), or a thread's `/proc/PID/task/TID/fd/N`,
    /// names descriptor N of this process: the number, given the folder with
    /// its links resolved and the name in it; nil for any other path.
    /// Following that "link" would reach the file behind the descriptor and
    /// replace it, or reopen it at offset 0; the descriptor itself is what the
    /// shell set up.
    public static func number(folder: String, name: String) -> Int32? {
        let process = "/proc/\(getpid())"
        let isOwnFolder =
            folder == "\(process)/fd"
            || (folder.hasPrefix("\(process)/task/") && folder.hasSuffix("/fd"))
        guard isOwnFolder, !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int32(name)
    }
}

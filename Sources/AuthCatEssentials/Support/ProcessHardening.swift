internal import CProcessControl

#if canImport(FoundationEssentials)
    import Glibc
#else
    import Foundation
#endif

/// Keeps the keys in a process's memory out of core dumps.
///
/// A crash of a process holding the vault key would otherwise leave it in a
/// core file (or in whatever `core_pattern` pipes the dump to, such as
/// systemd-coredump's store). Both programs call `apply()` first thing, before
/// any secret is read: `RLIMIT_CORE` 0 stops the kernel writing a core file,
/// and "not dumpable" stops core-dump helpers too, and also keeps debuggers
/// of the same user (`ptrace`) and other processes out of `/proc/PID/mem`.
/// A process still reads its own `/proc/self`. Both settings are
/// per process: a program authcat runs starts dumpable again (`exec` resets
/// it), though it inherits the core limit of 0.
public enum ProcessHardening {
    /// Applies both settings; returns whether both took. Neither can fail
    /// for a process lowering its own limits, and there is nothing better to
    /// do if one did, so the result is for tests.
    @discardableResult
    public static func apply() -> Bool {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        let limited = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) == 0
        let undumpable = authcat_prctl_set_dumpable(0) == 0
        return limited && undumpable
    }

    /// Whether the kernel would dump this process's memory (`PR_GET_DUMPABLE`).
    public static var isDumpable: Bool {
        authcat_prctl_get_dumpable() != 0
    }
}

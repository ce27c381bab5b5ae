/// The environment the tests start authcat's programs with: nothing from the
/// machine running the tests but a fixed `PATH` and `LANG`, and the home
/// folder the test chose.
public enum ProgramEnvironment {
    /// `AUTHCAT_TEST_CHEAPEST_KDF=1`: in the tests' build (`scripts/test`), a
    /// new passphrase gets the cheapest key derivation, as in the tests'
    /// in-process runs; other builds ignore it. The default limits are tested
    /// on their own (docs/ARCHITECTURE.md, "Tests"); the programs' hashing
    /// cost a fifth of the tests' CPU (docs/PERFORMANCE.md).
    public static func clean(home: String) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "AUTHCAT_TEST_CHEAPEST_KDF": "1"]
    }
}

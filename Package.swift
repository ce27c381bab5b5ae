// swift-tools-version:6.1
import PackageDescription

/// Libraries searched as one group: the static libraries of Foundation depend
/// on one another in cycles, which a one-pass linker resolves only that way.
func searchedAsOneGroup(_ libraries: [String]) -> [String] {
    ["-Xlinker", "--start-group"] + libraries.flatMap { ["-Xlinker", "-l\($0)"] } + ["-Xlinker", "--end-group"]
}

/// Flags for the quick front, a static executable.
let staticExecutableFlags =
    ["-static-executable"]
    + searchedAsOneGroup([
        "FoundationEssentials", "_FoundationCollections", "_FoundationCShims", "swiftSynchronization", "swiftCore",
        "stdc++", "m",
    ])

/// Flags for authcat-cli in the release configuration: the Swift runtime and
/// Foundation linked in, as `--static-swift-stdlib` does, also in the tests'
/// unoptimized release build (scripts/test). The tests start it hundreds of
/// times, and each start of a program linked to the shared libraries spent
/// half its CPU in the dynamic loader (docs/PERFORMANCE.md). The static
/// libraries are named because modules compiled against the shared ones do
/// not ask for them. Not in debug builds, which stay free of warnings:
/// FoundationEssentials' static library brings glibc's link-time warning
/// about `mktemp` (as every release build has printed).
let staticSwiftFlags =
    ["-static-stdlib"]
    + searchedAsOneGroup([
        "FoundationNetworking", "_CFURLSessionInterface", "FoundationInternationalization", "_FoundationICU",
        "Foundation", "CoreFoundation", "FoundationEssentials", "_FoundationCollections", "_FoundationCShims",
        "swiftSynchronization", "swiftDispatch", "dispatch", "BlocksRuntime", "swiftCore", "stdc++", "m",
    ])

/// The functions a start of the front runs, and the variables it touches,
/// laid out together by lld (Sources/authcat/startup-order.txt, made by
/// scripts/startup-order), so that a start faults in fewer of its pages
/// (docs/PERFORMANCE.md). Names the list has that the program no longer has
/// are skipped without a warning.
let startupOrderFlags = [
    "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/authcat/startup-order.txt",
    "-Xlinker", "--no-warn-symbol-ordering",
]

/// For the code the quick front runs (AuthCatEssentials, AuthCatFront, authcat):
/// concrete generic types such as `[String: String]` are made through their
/// metadata accessors, with the conformances their parameters need passed in,
/// rather than from a mangled name, which the runtime decodes by searching every
/// protocol conformance record of the binary for those conformances (about
/// 150,000 instructions each time; it removes three of the seven searches of an `authcat
/// code`: docs/PERFORMANCE.md).
let directMetadataAccess: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
]

/// For the targets linked into authcat-cli that import FoundationNetworking, directly or
/// not: their objects do not ask the linker for libcurl, so that authcat-cli does not
/// load it at start; `CLibcurlOnDemand` defines the functions FoundationNetworking calls
/// and loads libcurl on the first (docs/ARCHITECTURE.md).
let libcurlOnDemand: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-autolink-library", "-Xfrontend", "curl"])
]

// authcat is for Linux: it uses Glibc, /proc and the kernel keyring
// (keyutils), and its front is a static executable. No other platform is claimed.
let package = Package(
    name: "authcat",
    products: [
        .executable(name: "authcat", targets: ["authcat"]),
        .executable(name: "authcat-cli", targets: ["authcat-cli"]),
        .library(name: "AuthCatEssentials", targets: ["AuthCatEssentials"]),
        .library(name: "AuthCatCore", targets: ["AuthCatCore"]),
        .library(name: "AuthCatInterchange", targets: ["AuthCatInterchange"]),
        .library(name: "AuthCatSync", targets: ["AuthCatSync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // No HTTP package: the S3 remote sends its requests with FoundationNetworking's
        // URLSession (libcurl underneath), which ships with the Swift toolchain.
        // async-http-client cost half of a clean build (swift-nio, swift-nio-ssl with a
        // second BoringSSL, nio-http2, ...) for a few small requests.
    ],
    targets: [
        // C libraries from Debian, each behind a module map, and each imported
        // (`internal import`) by one wrapper file of the library that uses it.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZBar", providers: [.apt(["libzbar-dev"])]),
        // ZIP exports (1Password, Proton Pass); opened at run time like libzbar.
        .systemLibrary(name: "CArchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CKeyutils", pkgConfig: "libkeyutils", providers: [.apt(["libkeyutils-dev"])]),
        // Argon2id with any parallelism (libsodium's is fixed at 1), for other apps' exports.
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        // glibc's prctl(2), variadic in C, behind fixed-argument inline wrappers.
        .systemLibrary(name: "CProcessControl"),
        // SQLite's sqlite3_config(3), variadic in C, behind a fixed-argument inline wrapper.
        .systemLibrary(name: "CSQLiteConfig"),
        // libcurl's easy interface, variadic in C, behind fixed-argument inline wrappers,
        // for the network remotes' HTTP transport. Not linked by name: authcat-cli
        // loads libcurl on first use (CLibcurlOnDemand), the tests and the
        // benchmarks link it (AuthCatTestSupport, authcat-bench).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // For the static front: C library functions a static program cannot use, failing
        // at once, and the command line handed to the Swift runtime (see the files).
        .target(name: "CStaticStubs"),
        // libcurl's functions that FoundationNetworking calls, loading libcurl on the
        // first call, so that authcat-cli maps it only for a network remote (see the file).
        .target(name: "CLibcurlOnDemand", linkerSettings: [.linkedLibrary("dl")]),

        // What the quick front and the core share: OTP, crypto, the account
        // model, the key file and its unlocked copy in the kernel keyring, and
        // the one vault reader (SQLite's C interface, `VaultReader`); no GRDB
        // and only FoundationEssentials, so that the front stays small.
        .target(
            name: "AuthCatEssentials",
            dependencies: [
                "CSodium", "CNettle", "CKeyutils", "CProcessControl", "CSQLiteConfig",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ], swiftSettings: directMetadataAccess),
        .target(
            name: "AuthCatCore",
            dependencies: ["AuthCatEssentials", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "AuthCatInterchange",
            dependencies: [
                "AuthCatCore", "AuthCatEssentials", "CQREncode", "CZBar", "CPNG", "CArgon2", "CArchive",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        .target(
            name: "AuthCatSync",
            dependencies: [
                "AuthCatCore", "AuthCatEssentials", "CCurl",
                .product(name: "GRDB", package: "GRDB.swift"),
            ], swiftSettings: libcurlOnDemand),
        // Test doubles: a clock set by hand, a remote in memory that can be
        // made to fail, the cheapest KDF. Only test targets depend on it.
        .target(
            name: "AuthCatTesting", dependencies: ["AuthCatCore", "AuthCatEssentials", "AuthCatSync"],
            path: "Tests/AuthCatTesting"),
        .executableTarget(
            name: "authcat-bench",
            dependencies: ["AuthCatCore", "AuthCatEssentials", "AuthCatSync"],
            linkerSettings: [.linkedLibrary("curl")]),
        // What the quick front answers, and how: a library so that its
        // decisions are unit-tested (AuthCatFrontTests).
        // It reaches SQLite only through AuthCatEssentials' `VaultReader`.
        .target(name: "AuthCatFront", dependencies: ["AuthCatEssentials"], swiftSettings: directMetadataAccess),
        // The quick front: answers a plain `code QUERY`, `list` and `list --json` itself and
        // hands every other command line to `authcat-cli`. A static executable,
        // so starting it costs no dynamic loading (docs/PERFORMANCE.md, and
        // docs/SECURITY.md for what that gives up).
        .executableTarget(
            name: "authcat",
            dependencies: ["AuthCatFront", "CStaticStubs"], exclude: ["startup-order.txt"],
            swiftSettings: directMetadataAccess,
            linkerSettings: [.unsafeFlags(staticExecutableFlags + startupOrderFlags, .when(platforms: [.linux]))]),
        // The command line as a library: every command, run by
        // `CommandRunner.run(_ invocation:)`, which returns the exit status, so
        // that tests run most command lines in process.
        .target(
            name: "AuthCatCommandLine",
            dependencies: [
                "AuthCatCore", "AuthCatEssentials", "AuthCatInterchange", "AuthCatSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], swiftSettings: libcurlOnDemand),
        // The full program: `main` around AuthCatCommandLine, with libcurl loaded on
        // first use (CLibcurlOnDemand) and, in a release build, the Swift runtime linked in.
        .executableTarget(
            name: "authcat-cli", dependencies: ["AuthCatCommandLine", "AuthCatEssentials", "CLibcurlOnDemand"],
            swiftSettings: libcurlOnDemand,
            linkerSettings: [.unsafeFlags(staticSwiftFlags, .when(configuration: .release))]),

        // What several test targets share, a folder per concern: servers on loopback
        // (moto_server, WebDAV, hostile ones), processes and users, temporary folders and
        // free ports; a seeded random generator. What one test target alone uses is in
        // its own Helpers/ folder.
        .target(
            name: "AuthCatTestSupport", path: "Tests/AuthCatTestSupport", linkerSettings: [.linkedLibrary("curl")]),
        // Tests mirror the libraries: one test target per library.
        .testTarget(
            name: "AuthCatEssentialsTests",
            // AuthCatCore writes the vaults that VaultReaderTests read.
            dependencies: [
                "AuthCatEssentials", "AuthCatCore", "AuthCatTesting", "AuthCatTestSupport",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            resources: [.copy("Vectors")]),
        .testTarget(
            name: "AuthCatFrontTests",
            dependencies: [
                "AuthCatFront", "AuthCatCore", "AuthCatEssentials", "AuthCatTesting", "AuthCatTestSupport",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "AuthCatCoreTests",
            dependencies: ["AuthCatCore", "AuthCatEssentials", "AuthCatTesting", "AuthCatTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "AuthCatInterchangeTests",
            dependencies: [
                "AuthCatInterchange", "AuthCatCore", "AuthCatEssentials", "AuthCatTesting", "AuthCatTestSupport",
            ], resources: [.copy("Fixtures")]),
        // GRDB to damage the sync store between two of the engine's steps.
        .testTarget(
            name: "AuthCatSyncTests",
            dependencies: [
                "AuthCatSync", "AuthCatCore", "AuthCatEssentials", "AuthCatTesting", "AuthCatTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Vectors")]),
        // Runs command lines through AuthCatCommandLine in process, and the built
        // `authcat` and `authcat-cli` as processes where processes are the
        // point; it does not depend on the executables, which would link the
        // front's static-executable flags into the tests. `swift test` builds
        // every product anyway.
        .testTarget(
            name: "AuthCatCLITests",
            dependencies: [
                "AuthCatCommandLine", "AuthCatCore", "AuthCatEssentials", "AuthCatInterchange", "AuthCatTesting",
                "AuthCatTestSupport",
            ]),
        // The fault suite (issue 8): kills, concurrent writers, a full disk and a
        // damaged remote, against the built programs run as processes (so, like
        // AuthCatCLITests, no dependency on the executables). It links GRDB for
        // SQLite's integrity check, AuthCatSync to reach remote objects on a
        // folder or S3, and AuthCatEssentials to compute expected codes.
        .testTarget(
            name: "AuthCatFaultTests",
            dependencies: [
                "AuthCatEssentials", "AuthCatSync", "AuthCatTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

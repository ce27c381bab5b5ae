// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "authcat",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "authcat", targets: ["authcat"]),
        .library(name: "AuthCatCore", targets: ["AuthCatCore"]),
        .library(name: "AuthCatInterchange", targets: ["AuthCatInterchange"]),
        .library(name: "AuthCatSync", targets: ["AuthCatSync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // C libraries from Debian, each behind a module map.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZBar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),

        .target(
            name: "AuthCatCore",
            dependencies: [
                "CSodium",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .target(
            name: "AuthCatInterchange",
            dependencies: [
                "AuthCatCore", "CQREncode", "CZBar", "CPNG",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "AuthCatSync",
            dependencies: [
                "AuthCatCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        .executableTarget(
            name: "authcat-bench",
            dependencies: ["AuthCatCore", "AuthCatSync"]),
        .executableTarget(
            name: "authcat",
            dependencies: [
                "AuthCatCore", "AuthCatInterchange", "AuthCatSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "AuthCatCoreTests", dependencies: ["AuthCatCore"], resources: [.copy("Vectors"), .copy("Fixtures")]),
        .testTarget(name: "AuthCatInterchangeTests", dependencies: ["AuthCatInterchange"], resources: [.copy("Fixtures")]),
        .testTarget(name: "AuthCatSyncTests", dependencies: ["AuthCatSync"], resources: [.copy("Vectors")]),
        .testTarget(name: "AuthCatCLITests", dependencies: ["authcat"]),
    ],
    swiftLanguageModes: [.v5]
)

import Foundation
import XCTest

/// Each library reaches a C library through one wrapper file, which imports
/// its module (`internal import`), checks every return code and throws typed
/// errors; the rest of the library calls the wrapper. This reads the
/// `import` lines of every source file, so a second file that imports one
/// fails here until this list, and the wrapper's design, say why.
final class CModuleWrapperTests: XCTestCase {
    /// The one file of each library that imports each C module (or SQLite's C interface).
    private let wrappers: [String: Set<String>] = [
        "CSodium": ["AuthCatEssentials/Crypto/Sodium.swift"],
        "CNettle": ["AuthCatEssentials/Crypto/Nettle.swift"],
        "CKeyutils": ["AuthCatEssentials/VaultReading/VaultKeyring.swift"],
        "CProcessControl": ["AuthCatEssentials/Support/ProcessHardening.swift"],
        // Two wrappers of one interface for two jobs that share no code: the
        // vault's reader, and other apps' databases opened in memory from their bytes.
        "GRDBSQLite": [
            "AuthCatEssentials/VaultReading/VaultReader.swift", "AuthCatEssentials/Support/SQLiteSnapshot.swift",
        ],
        "CPNG": ["AuthCatInterchange/QR/GreyImage.swift"],
        "CQREncode": ["AuthCatInterchange/QR/QRCode.swift"],
        "CZBar": ["AuthCatInterchange/QR/QRScanner.swift"],
    ]

    private var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    }

    func testEachCModuleIsImportedByItsWrapperAlone() throws {
        var importers: [String: Set<String>] = [:]
        for (file, module, isInternal) in try cImports() {
            importers[module, default: []].insert(file)
            XCTAssertTrue(isInternal, "\(file) imports \(module) without `internal`: its types would leak into the API")
        }
        XCTAssertEqual(importers, wrappers)
    }

    /// (file under Sources/, module, whether the import is `internal`) for every C module imported.
    private func cImports() throws -> [(String, String, Bool)] {
        let modules = Set(wrappers.keys)
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        var found: [(String, String, Bool)] = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let importIndex = words.firstIndex(of: "import"), importIndex + 1 < words.count,
                    modules.contains(words[importIndex + 1])
                else { continue }
                found.append((file, words[importIndex + 1], words.prefix(importIndex).contains("internal")))
            }
        }
        XCTAssertFalse(found.isEmpty, "no source files under \(sources.path)")
        return found
    }
}

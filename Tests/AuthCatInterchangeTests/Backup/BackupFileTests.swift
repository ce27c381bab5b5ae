import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatInterchange

final class BackupFileTests: XCTestCase {
    private var key: SecretBytes!
    private var kdf: KDFParameters!

    override func setUpWithError() throws {
        key = try SecretBytes.random(count: 32)
        kdf = try KDFParameters.minimumForTesting()
    }

    private func open(_ data: Data) throws -> Data {
        try BackupFile.open(data, key: { _ in self.key })
    }

    func testRoundTripAcrossSeveralChunks() throws {
        for size in [0, 1, BackupFile.chunkSize - 1, BackupFile.chunkSize, 3 * BackupFile.chunkSize + 17] {
            let plaintext = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) })
            let sealed = try BackupFile.seal(plaintext, key: key, kdf: kdf)
            XCTAssertEqual(try open(sealed), plaintext, "size \(size)")
            let chunks = max(1, (size + BackupFile.chunkSize - 1) / BackupFile.chunkSize)
            XCTAssertEqual(
                sealed.count, BackupHeader.size + size + chunks * (4 + SecretStream.overhead), "size \(size)")
        }
    }

    func testTruncationAnywhereIsDetected() throws {
        let sealed = try BackupFile.seal(Data(repeating: 7, count: 2 * BackupFile.chunkSize + 5), key: key, kdf: kdf)
        let firstChunkEnd = BackupHeader.size + 4 + BackupFile.chunkSize + SecretStream.overhead
        let secondChunkEnd = firstChunkEnd + 4 + BackupFile.chunkSize + SecretStream.overhead
        for length in [
            BackupHeader.size - 1, BackupHeader.size, BackupHeader.size + 2, firstChunkEnd, firstChunkEnd + 10,
            secondChunkEnd, sealed.count - 1,
        ] {
            XCTAssertThrowsError(try open(sealed.prefix(length)), "cut at \(length)") { error in
                XCTAssertEqual(error as? BackupError, .truncated, "cut at \(length)")
            }
        }
    }

    func testEveryAlteredByteIsDetected() throws {
        let sealed = try BackupFile.seal(Data(repeating: 1, count: 100), key: key, kdf: kdf)
        for index in 0..<sealed.count {
            var altered = sealed
            altered[index] ^= 0x40
            XCTAssertThrowsError(try open(altered), "byte \(index)")
        }
        XCTAssertThrowsError(try open(sealed + Data([0, 0, 0, 17]) + Data(count: 17))) {
            XCTAssertEqual($0 as? BackupError, .trailingData)
        }
    }

    func testReorderedChunksAndAWrongKeyAreRefused() throws {
        let sealed = try BackupFile.seal(Data(repeating: 2, count: BackupFile.chunkSize + 10), key: key, kdf: kdf)
        let header = sealed.prefix(BackupHeader.size)
        let chunkLength = 4 + BackupFile.chunkSize + SecretStream.overhead
        let first = sealed.dropFirst(BackupHeader.size).prefix(chunkLength)
        let second = sealed.dropFirst(BackupHeader.size + chunkLength)
        XCTAssertThrowsError(try open(header + second + first)) {
            XCTAssertEqual($0 as? BackupError, .wrongPassphraseOrAltered)
        }
        XCTAssertThrowsError(try open(header + first)) { XCTAssertEqual($0 as? BackupError, .truncated) }
        let otherKey = try SecretBytes.random(count: 32)
        XCTAssertThrowsError(try BackupFile.open(sealed, key: { _ in otherKey })) {
            XCTAssertEqual($0 as? BackupError, .wrongPassphraseOrAltered)
        }
    }

    func testHeaderRoundTripAndRejections() throws {
        let header = BackupHeader(kdf: kdf, streamHeader: Data(repeating: 9, count: 24))
        let bytes = header.encoded()
        XCTAssertEqual(bytes.count, BackupHeader.size)
        XCTAssertEqual(bytes.prefix(8), Data("AUTHCATB".utf8))
        XCTAssertEqual(try BackupHeader(decoding: bytes), header)
        var newer = bytes
        newer[9] = 2
        XCTAssertThrowsError(try BackupHeader(decoding: newer)) { XCTAssertEqual($0 as? BackupError, .newerVersion(2)) }
        var otherKDF = bytes
        otherKDF[10] = 1
        XCTAssertThrowsError(try BackupHeader(decoding: otherKDF))
        XCTAssertThrowsError(try BackupHeader(decoding: Data("not a backup at all".utf8))) {
            XCTAssertEqual($0 as? BackupError, .notABackup)
        }
    }

    func testHostileKDFLimitsAreRefusedBeforeThePasswordIsAsked() throws {
        let context = ImportContext(password: {
            XCTFail("a password was asked for")
            throw ImportError.passwordRequired
        })
        var huge = kdf!
        huge.memLimit = 12 << 30
        XCTAssertThrowsError(try context.key(forBackupWith: huge)) {
            XCTAssertEqual(
                "\($0)", "the backup asks for 12 GiB of memory for its key derivation; authcat allows at most 1 GiB")
        }
        huge = kdf!
        huge.opsLimit = UInt64(UInt32.max)
        XCTAssertThrowsError(try context.key(forBackupWith: huge)) {
            XCTAssertEqual(
                "\($0)", "the backup asks for 4294967295 passes for its key derivation; authcat allows at most 16")
        }
        XCTAssertNoThrow(try kdf.checkLimits())
        XCTAssertNoThrow(try KDFParameters.moderate().checkLimits())
        XCTAssertNoThrow(try KDFParameters(opsLimit: 4, memLimit: 1 << 30).checkLimits(), "backup --kdf sensitive")
    }
}

import Foundation

/// A ZIP archive of empty files (stored, so no checksum or compression to
/// compute), for archives too large to keep as fixtures: thousands of entries.
enum EmptyFilesZIP {
    static func archive(_ paths: [String]) -> Data {
        var files = Data()
        var directory = Data()
        for path in paths {
            let name = Data(path.utf8)
            let offset = UInt32(files.count)
            files += le32(0x0403_4b50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0)
            files += le32(0) + le32(0) + le32(0) + le16(UInt16(name.count)) + le16(0) + name
            directory += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0)
            directory += le32(0) + le32(0) + le32(0) + le16(UInt16(name.count)) + le16(0) + le16(0)
            directory += le16(0) + le16(0) + le32(0o100644 << 16) + le32(offset) + name
        }
        let count = UInt16(min(paths.count, 0xffff))
        let end =
            le32(0x0605_4b50) + le16(0) + le16(0) + le16(count) + le16(count) + le32(UInt32(directory.count))
            + le32(UInt32(files.count)) + le16(0)
        return files + directory + end
    }

    private static func le16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    private static func le32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
}

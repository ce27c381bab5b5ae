import Foundation

/// Reads the listing of rclone's `operations/list`: `{"list": [{"Path", "Size", "ModTime", "IsDir", …}]}`,
/// each path relative to the remote's folder.
enum RcloneListing {
    struct Failure: Error {
        var reason: String
    }

    /// A listing of `RemoteObject.maximumListed` entries of about 150 bytes each fits.
    static let maximumBytes = 32 * 1024 * 1024

    private struct Entry: Decodable {
        var path: String
        var size: Int
        var modified: String?
        var isFolder: Bool?

        enum CodingKeys: String, CodingKey {
            case path = "Path"
            case size = "Size"
            case modified = "ModTime"
            case isFolder = "IsDir"
        }
    }

    private struct Reply: Decodable {
        var list: [Entry]
    }

    /// The objects in `data` whose names start with `prefix`.
    static func objects(_ data: Data, prefix: String) throws -> [RemoteObject] {
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode(Reply.self, from: data).list
        } catch {
            throw Failure(reason: "it is not the JSON list rclone writes")
        }
        guard entries.count <= RemoteObject.maximumListed else {
            throw Failure(reason: "it holds more than \(RemoteObject.maximumListed) entries")
        }
        var objects: [RemoteObject] = []
        for entry in entries where entry.isFolder != true {
            let name = entry.path
            // A path that climbs out (`..`), starts at the root, or goes deeper than the format's names is not ours.
            guard name.hasPrefix(prefix), RemoteObjectName.isValid(name),
                name.split(separator: "/").count <= RemoteObjectName.maximumDepth
            else { continue }
            // rclone lists no ETag everywhere; the time of the last write and the size tell a rewrite.
            let version = entry.modified.map { "\($0)/\(entry.size)" }
            objects.append(RemoteObject(name: name, size: max(0, entry.size), version: version))
        }
        return objects.sorted { $0.name < $1.name }
    }
}

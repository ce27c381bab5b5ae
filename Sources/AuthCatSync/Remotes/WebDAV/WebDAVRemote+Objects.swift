import Foundation

/// The `Remote` operations, each a few WebDAV requests.
extension WebDAVRemote {
    /// Walks the folders below the base with one `PROPFIND` each, within the format's bounds.
    ///
    /// Only what the format can hold is looked into: folders whose names are
    /// valid object names and less than `RemoteObjectName.maximumDepth` deep,
    /// at most `maximumFoldersListed` of them and `RemoteObject.maximumListed`
    /// entries in all. An entry whose href is outside the base folder (`..`,
    /// `%2e%2e`, another path) is ignored, and never requested.
    public func list(prefix: String) async throws -> [RemoteObject] {
        try RemoteObjectName.validatePrefix(prefix)
        var objects: [RemoteObject] = []
        var pending = [""]
        var visited: Set<String> = []
        var listed = 0
        while let folder = pending.popLast() {
            guard visited.insert(folder).inserted else { continue }
            guard visited.count <= RemoteObjectName.maximumFoldersListed else {
                throw RemoteError.protocolError(
                    location: displayLocation, status: 207,
                    detail: "the listing holds more than \(RemoteObjectName.maximumFoldersListed) folders")
            }
            guard let entries = try await listFolder(folder) else {
                // The base folder missing means the remote is gone; a sub-folder may have just been pruned.
                if folder.isEmpty { throw RemoteError.containerMissing(location: displayLocation) }
                continue
            }
            listed += entries.count
            guard listed <= RemoteObject.maximumListed else {
                throw RemoteError.protocolError(
                    location: displayLocation, status: 207,
                    detail: "the listing holds more than \(RemoteObject.maximumListed) entries")
            }
            for entry in entries where entry.name != folder && Self.isDirectlyIn(folder, entry.name) {
                // Foreign files (a desktop client's, a probe left by a kill) and anything deeper or stranger
                // than the format's names are not ours.
                guard RemoteObjectName.isValid(entry.name) else { continue }
                let depth = entry.name.split(separator: "/").count
                if entry.isFolder {
                    if depth < RemoteObjectName.maximumDepth, Self.folder(entry.name, mayHold: prefix) {
                        pending.append(entry.name)
                    }
                } else if entry.name.hasPrefix(prefix), depth <= RemoteObjectName.maximumDepth {
                    objects.append(RemoteObject(name: entry.name, size: entry.size, version: entry.version))
                }
            }
        }
        return objects.sorted { $0.name < $1.name }
    }

    /// Whether `name` is an entry of `folder` itself (a `Depth: 1` listing), not of a folder below or elsewhere.
    static func isDirectlyIn(_ folder: String, _ name: String) -> Bool {
        let start = folder.isEmpty ? name[...] : name.hasPrefix(folder + "/") ? name.dropFirst(folder.count + 1) : nil
        guard let rest = start else { return false }
        return !rest.isEmpty && !rest.contains("/")
    }

    public func get(_ name: String) async throws -> Data? {
        try RemoteObjectName.validate(name)
        let response = try await send(
            .GET, url: configuration.url(for: name), maximumBytes: RemoteObject.maximumSize, object: name)
        switch response.status {
        case 200: return response.body
        case 404, 410: return nil
        default: throw failure(response, doing: "read \(name)")
        }
    }

    public func put(_ name: String, data: Data) async throws {
        try RemoteObjectName.validate(name)
        let response = try await putMakingFolders(name, headers: [], data: data)
        guard (200..<300).contains(response.status) else {
            throw failure(response, doing: "write \(name)", writing: true)
        }
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try RemoteObjectName.validate(name)
        if try await createOnlyIsEnforced() {
            let response = try await putMakingFolders(name, headers: [("if-none-match", "*")], data: data)
            switch response.status {
            case 200..<300: return true
            case 412: return false
            default:
                await removeFailedCreate(name, response: response)
                throw failure(response, doing: "create \(name)", writing: true)
            }
        }
        // The server ignores If-None-Match: look first, then write; racing writers can both pass the look.
        let head = try await send(.HEAD, url: configuration.url(for: name))
        switch head.status {
        case 200..<300: return false
        case 404, 410: break
        default: throw failure(head, doing: "check \(name)")
        }
        let response = try await putMakingFolders(name, headers: [], data: data)
        guard (200..<300).contains(response.status) else {
            await removeFailedCreate(name, response: response)
            throw failure(response, doing: "create \(name)", writing: true)
        }
        return true
    }

    /// After a create the server failed (a full disk: 507, or 500 from lighttpd), removes
    /// whatever part of the object it may have kept, so that the next sync's create-only
    /// put is not refused by a truncated copy. The name is new and only this device
    /// writes it, so nothing else is removed; a failure here changes nothing.
    private func removeFailedCreate(_ name: String, response: Response) async {
        guard (500..<600).contains(response.status) else { return }
        _ = try? await send(.DELETE, url: configuration.url(for: name))
    }

    public func delete(_ name: String) async throws {
        try RemoteObjectName.validate(name)
        let response = try await send(.DELETE, url: configuration.url(for: name))
        guard (200..<300).contains(response.status) || response.status == 404 || response.status == 410 else {
            throw failure(response, doing: "delete \(name)")
        }
        try await pruneEmptyFolders(above: name)
    }

    /// Whether a folder (a name without the trailing `/`) can hold names that start with `prefix`.
    static func folder(_ folder: String, mayHold prefix: String) -> Bool {
        let asPrefix = folder + "/"
        return asPrefix.hasPrefix(prefix) || prefix.hasPrefix(asPrefix)
    }

    /// A PUT; when the server says a parent folder is missing (409, or 404 on some servers), makes it and tries once more.
    private func putMakingFolders(
        _ name: String, headers: [(name: String, value: String)], data: Data
    ) async throws -> Response {
        let url = configuration.url(for: name)
        let parent = Self.parent(of: name)
        if !parent.isEmpty, !knownFolders.withLock({ $0.contains(parent) }) {
            try await makeFolder(parent)
        }
        var response = try await send(.PUT, url: url, headers: headers, body: data)
        if response.status == 409 || response.status == 404, !parent.isEmpty {
            // Made earlier in this run but removed since (pruned by a delete, or by another tool).
            knownFolders.withLock { $0 = [] }
            try await makeFolder(parent)
            response = try await send(.PUT, url: url, headers: headers, body: data)
        }
        return response
    }

    /// Makes `folder` (relative to the base; "" for the base) and every missing folder above it.
    func makeFolder(_ folder: String) async throws {
        if knownFolders.withLock({ $0.contains(folder) }) { return }
        let response = try await send(.MKCOL, url: configuration.url(for: folder) + (folder.isEmpty ? "" : "/"))
        switch response.status {
        case 200..<300, 405:
            // 405: MKCOL is not allowed where something exists already, which is all that is asked.
            break
        case 409 where !folder.isEmpty || configuration.path.split(separator: "/").count > 1:
            // A parent is missing: make it, then this one.
            if folder.isEmpty {
                try await makeBaseParents()
            } else {
                try await makeFolder(Self.parent(of: folder))
            }
            let again = try await send(.MKCOL, url: configuration.url(for: folder) + (folder.isEmpty ? "" : "/"))
            guard (200..<300).contains(again.status) || again.status == 405 else {
                throw failure(again, doing: "create the folder \(folder.isEmpty ? configuration.path : folder)")
            }
        default:
            throw failure(response, doing: "create the folder \(folder.isEmpty ? configuration.path : folder)")
        }
        knownFolders.withLock { _ = $0.insert(folder) }
    }

    /// The folders above the base, top down (a NAS share that lacks the `authcat/apps` above the vault's folder).
    private func makeBaseParents() async throws {
        let parts = configuration.path.split(separator: "/").dropLast()
        var path = ""
        for part in parts {
            path += "/" + part
            let response = try await send(.MKCOL, url: configuration.origin + path + "/")
            guard (200..<300).contains(response.status) || response.status == 405 else {
                throw failure(response, doing: "create the folder \(path)")
            }
        }
    }

    /// Removes the folders between `name` and the base that are now empty, deepest first.
    private func pruneEmptyFolders(above name: String) async throws {
        var folder = Self.parent(of: name)
        while !folder.isEmpty {
            guard let entries = try await listFolder(folder) else { return }
            guard entries.allSatisfy({ $0.name == folder }) else { return }
            let response = try await send(.DELETE, url: configuration.url(for: folder) + "/")
            guard (200..<300).contains(response.status) || response.status == 404 else { return }
            knownFolders.withLock { _ = $0.remove(folder) }
            folder = Self.parent(of: folder)
        }
    }

    static func parent(of name: String) -> String {
        guard let slash = name.lastIndex(of: "/") else { return "" }
        return String(name[..<slash])
    }

    /// The entries of one folder (itself included), or nil if it does not exist.
    func listFolder(_ folder: String) async throws -> [WebDAVListing.Entry]? {
        let url = configuration.url(for: folder) + (folder.isEmpty ? "" : "/")
        let response = try await send(
            .PROPFIND, url: url, headers: [("depth", "1"), ("content-type", "application/xml; charset=utf-8")],
            body: WebDAVListing.request, maximumBytes: WebDAVListing.maximumBytes)
        switch response.status {
        case 207: break
        case 404, 410: return nil
        default: throw failure(response, doing: "list \(folder.isEmpty ? configuration.path : folder)")
        }
        do {
            return try WebDAVListing(response.body, deadline: response.deadline).entries.compactMap { entry in
                configuration.name(ofHref: entry.href).map { name in
                    WebDAVListing.Entry(
                        href: entry.href, name: name, isFolder: entry.isFolder, size: entry.size,
                        version: entry.version)
                }
            }
        } catch let failure as S3XMLReader.Failure {
            throw RemoteError.protocolError(
                location: displayLocation, status: 207, detail: "the listing cannot be read: \(failure)")
        }
    }
}

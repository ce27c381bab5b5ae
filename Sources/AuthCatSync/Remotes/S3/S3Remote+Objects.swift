import Foundation

/// The `Remote` operations, each a few S3 requests.
extension S3Remote {
    public func list(prefix: String) async throws -> [RemoteObject] {
        try RemoteObjectName.validatePrefix(prefix)
        let root = configuration.prefix.isEmpty ? "" : configuration.prefix + "/"
        var objects: [RemoteObject] = []
        var token: String?
        var seenTokens: Set<String> = []
        var listed = 0
        repeat {
            let page = try await listPage(prefix: root + prefix, token: token, pageSize: listPageSize)
            // Each page is bounded; the pages are not, as long as the server sends new tokens.
            listed += page.entries.count
            guard listed <= RemoteObject.maximumListed else {
                throw RemoteError.protocolError(
                    location: displayLocation, status: 200,
                    detail: "the listing holds more than \(RemoteObject.maximumListed) objects")
            }
            for entry in page.entries where entry.key.hasPrefix(root) {
                let name = String(entry.key.dropFirst(root.count))
                // Foreign keys in the bucket (other tools, folder markers) are not ours.
                if RemoteObjectName.isValid(name), name.hasPrefix(prefix) {
                    objects.append(RemoteObject(name: name, size: entry.size, version: entry.etag))
                }
            }
            token = page.nextContinuationToken
            if let token, !seenTokens.insert(token).inserted {
                throw RemoteError.protocolError(
                    location: displayLocation, status: 200, detail: "the listing repeats a continuation token")
            }
        } while token != nil
        return objects.sorted { $0.name < $1.name }
    }

    public func get(_ name: String) async throws -> Data? {
        try RemoteObjectName.validate(name)
        let bound = ReplyBound(maximumBytes: RemoteObject.maximumSize, object: name)
        let response = try await send(.GET, key: configuration.key(for: name), bound: bound)
        switch response.status {
        case 200: return response.body
        case 404 where response.errorCode != "NoSuchBucket": return nil
        default: throw failure(response, doing: "read \(name)")
        }
    }

    public func put(_ name: String, data: Data) async throws {
        try RemoteObjectName.validate(name)
        let response = try await send(.PUT, key: configuration.key(for: name), body: data)
        guard response.status == 200 else { throw failure(response, doing: "write \(name)") }
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try RemoteObjectName.validate(name)
        let key = configuration.key(for: name)
        if usesConditionalWrites, let created = try await conditionalPut(key: key, name: name, data: data) {
            return created
        }
        // No conditional writes: look first, then write; racing writers can both pass the look.
        let head = try await send(.HEAD, key: key)
        switch head.status {
        case 200: return false
        case 404: break
        default: throw failure(head, doing: "check \(name)")
        }
        try await put(name, data: data)
        return true
    }

    public func delete(_ name: String) async throws {
        try RemoteObjectName.validate(name)
        let response = try await send(.DELETE, key: configuration.key(for: name))
        switch response.status {
        case 200, 204: return
        case 404 where response.errorCode != "NoSuchBucket": return
        default: throw failure(response, doing: "delete \(name)")
        }
    }

    /// A PUT with `If-None-Match: *`.
    ///
    /// - Returns: whether it created the object, or `nil` if the server does
    ///   not implement the condition (it is then not used again).
    private func conditionalPut(key: String, name: String, data: Data) async throws -> Bool? {
        for attempt in 1...3 {
            let response = try await send(.PUT, key: key, headers: [("if-none-match", "*")], body: data)
            switch response.status {
            case 200: return true
            case 412: return false
            case 501:
                markConditionalWritesUnsupported()
                return nil
            case 409 where attempt < 3:
                // S3 answers 409 while another conditional write of the key is in flight; it settles quickly.
                try await Task.sleep(nanoseconds: UInt64(attempt) * 100_000_000)
            default: throw failure(response, doing: "create \(name)")
            }
        }
        return nil
    }

    /// One ListObjectsV2 request.
    func listPage(prefix: String, token: String?, pageSize: Int?) async throws -> S3ListPage {
        var query = [(name: "list-type", value: "2"), (name: "prefix", value: prefix)]
        if let token { query.append((name: "continuation-token", value: token)) }
        // Always said, so that a page's size, and the reader's bounds, hold whatever the server's default.
        query.append((name: "max-keys", value: String(min(pageSize ?? S3ListPage.maximumKeys, S3ListPage.maximumKeys))))
        let response = try await send(
            .GET, key: nil, query: query, bound: ReplyBound(maximumBytes: S3ListPage.maximumBytes))
        guard response.status == 200 else { throw failure(response, doing: "list objects") }
        do {
            return try S3ListPage(response.body, deadline: response.deadline)
        } catch let failure as S3XMLReader.Failure {
            throw RemoteError.protocolError(
                location: displayLocation, status: 200, detail: "the listing cannot be read: \(failure)")
        }
    }
}

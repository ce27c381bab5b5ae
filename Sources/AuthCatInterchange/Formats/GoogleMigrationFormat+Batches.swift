extension GoogleMigrationFormat {
    /// Which QR codes of each multi-code export were seen, to report missing ones.
    struct BatchTracker {
        private var sizes: [Int32: Int32] = [:]
        private var seen: [Int32: Set<Int32>] = [:]
        private var order: [Int32] = []
        /// The most exports followed: one file is one export or a few, and
        /// each followed export may cost a warning.
        static let maximumBatches = 100

        mutating func record(_ payload: GoogleMigrationPayload) {
            // A single-code export or one without batch information cannot be incomplete.
            guard payload.batchSize > 1 else { return }
            guard sizes[payload.batchID] != nil || order.count < Self.maximumBatches else { return }
            if sizes[payload.batchID] == nil { order.append(payload.batchID) }
            sizes[payload.batchID] = max(sizes[payload.batchID] ?? 0, payload.batchSize)
            seen[payload.batchID, default: []].insert(payload.batchIndex)
        }

        /// One sentence per export that lacks codes.
        var warnings: [String] {
            order.compactMap { id in
                guard let size = sizes[id] else { return nil }
                // Cap the listing: a hostile payload could claim a huge batch size.
                let missing = (0..<min(size, 1000)).filter { !(seen[id] ?? []).contains($0) }
                guard !missing.isEmpty else { return nil }
                let numbers = missing.prefix(20).map { String($0 + 1) }.joined(separator: ", ")
                return "the Google Authenticator export was \(size) QR codes, but code\(missing.count == 1 ? "" : "s") "
                    + "\(numbers)\(missing.count > 20 ? ", …" : "") \(missing.count == 1 ? "is" : "are") missing; "
                    + "import \(missing.count == 1 ? "it" : "them") too (accounts already imported are skipped)"
            }
        }
    }
}

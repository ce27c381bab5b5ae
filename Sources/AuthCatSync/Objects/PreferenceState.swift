/// One synced preference as a batch or snapshot carries it; a nil value
/// means the preference was removed (a tombstone).
struct PreferenceState: Codable, Equatable {
    var key: String
    var value: String?
    var clock: HybridTimestamp
}

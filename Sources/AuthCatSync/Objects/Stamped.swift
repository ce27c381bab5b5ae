/// A field value with the time of the change that set it.
struct Stamped<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
    var clock: HybridTimestamp
}

/// An optional field of a `--json` document, written as `null` when absent.
///
/// Synthesized `Encodable` leaves an absent optional's key out; authcat's
/// documents write every key (docs/JSON.md), so that scripts can rely on the
/// shape. Marking the field is all a document needs: no `encode(to:)` that
/// lists every key again.
@propertyWrapper
public struct NullWhenAbsent<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullWhenAbsent: Equatable where Value: Equatable {}

extension NullWhenAbsent: Decodable where Value: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A document read back takes a missing key as null, as it would a plain optional.
    public func decode<Value: Codable & Sendable>(
        _ type: NullWhenAbsent<Value>.Type, forKey key: Key
    ) throws -> NullWhenAbsent<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenAbsent(wrappedValue: nil)
    }
}

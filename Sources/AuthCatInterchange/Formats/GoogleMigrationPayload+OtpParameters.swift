import Foundation
import SwiftProtobuf

extension GoogleMigrationPayload {
    /// One account of a migration payload (`MigrationPayload.OtpParameters`).
    public struct OtpParameters: Sendable {
        /// The raw secret bytes (not Base32).
        public var secret = Data()
        /// Often `Issuer:account`, sometimes just the account.
        public var name = ""
        public var issuer = ""
        public var algorithm = Algorithm.unspecified
        public var digits = DigitCount.unspecified
        public var type = OtpType.unspecified
        public var counter: Int64 = 0

        public var unknownFields = UnknownStorage()

        public init() {}
    }
}

extension GoogleMigrationPayload.OtpParameters: Message, _MessageImplementationBase, _ProtoNameProviding {
    public static let protoMessageName = GoogleMigrationPayload.protoMessageName + ".OtpParameters"
    public static let _protobuf_nameMap = _NameMap(
        bytecode: "\0\u{1}secret\0\u{1}name\0\u{1}issuer\0\u{1}algorithm\0\u{1}digits\0\u{1}type\0\u{1}counter\0")

    public mutating func decodeMessage<D: Decoder>(decoder: inout D) throws {
        while let fieldNumber = try decoder.nextFieldNumber() {
            switch fieldNumber {
            case 1: try decoder.decodeSingularBytesField(value: &secret)
            case 2: try decoder.decodeSingularStringField(value: &name)
            case 3: try decoder.decodeSingularStringField(value: &issuer)
            case 4: try decoder.decodeSingularEnumField(value: &algorithm)
            case 5: try decoder.decodeSingularEnumField(value: &digits)
            case 6: try decoder.decodeSingularEnumField(value: &type)
            case 7: try decoder.decodeSingularInt64Field(value: &counter)
            default: break
            }
        }
    }

    public func traverse<V: Visitor>(visitor: inout V) throws {
        if !secret.isEmpty { try visitor.visitSingularBytesField(value: secret, fieldNumber: 1) }
        if !name.isEmpty { try visitor.visitSingularStringField(value: name, fieldNumber: 2) }
        if !issuer.isEmpty { try visitor.visitSingularStringField(value: issuer, fieldNumber: 3) }
        if algorithm != .unspecified { try visitor.visitSingularEnumField(value: algorithm, fieldNumber: 4) }
        if digits != .unspecified { try visitor.visitSingularEnumField(value: digits, fieldNumber: 5) }
        if type != .unspecified { try visitor.visitSingularEnumField(value: type, fieldNumber: 6) }
        if counter != 0 { try visitor.visitSingularInt64Field(value: counter, fieldNumber: 7) }
        try unknownFields.traverse(visitor: &visitor)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.secret == rhs.secret && lhs.name == rhs.name && lhs.issuer == rhs.issuer && lhs.algorithm == rhs.algorithm
            && lhs.digits == rhs.digits && lhs.type == rhs.type && lhs.counter == rhs.counter
            && lhs.unknownFields == rhs.unknownFields
    }
}

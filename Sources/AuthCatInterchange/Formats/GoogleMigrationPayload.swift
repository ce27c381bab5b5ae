import SwiftProtobuf

/// The protobuf message inside Google Authenticator's
/// `otpauth-migration://offline?data=…` export (base64 of its binary form).
///
/// Written by hand in the shape `protoc-gen-swift` generates, from this
/// description of the format:
///
/// ```proto
/// syntax = "proto3";
///
/// message MigrationPayload {
///   enum Algorithm {
///     ALGORITHM_UNSPECIFIED = 0;
///     ALGORITHM_SHA1 = 1;
///     ALGORITHM_SHA256 = 2;
///     ALGORITHM_SHA512 = 3;
///     ALGORITHM_MD5 = 4;
///   }
///   enum DigitCount {
///     DIGIT_COUNT_UNSPECIFIED = 0;
///     DIGIT_COUNT_SIX = 1;
///     DIGIT_COUNT_EIGHT = 2;
///   }
///   enum OtpType {
///     OTP_TYPE_UNSPECIFIED = 0;
///     OTP_TYPE_HOTP = 1;
///     OTP_TYPE_TOTP = 2;
///   }
///   message OtpParameters {
///     bytes secret = 1;
///     string name = 2;
///     string issuer = 3;
///     Algorithm algorithm = 4;
///     DigitCount digits = 5;
///     OtpType type = 6;
///     int64 counter = 7;
///   }
///   repeated OtpParameters otp_parameters = 1;
///   int32 version = 2;
///   int32 batch_size = 3;
///   int32 batch_index = 4;
///   int32 batch_id = 5;
/// }
/// ```
public struct GoogleMigrationPayload: Sendable {
    public var otpParameters: [OtpParameters] = []
    public var version: Int32 = 0
    /// How many QR codes the export was split into.
    public var batchSize: Int32 = 0
    /// Which of them this is, from 0.
    public var batchIndex: Int32 = 0
    /// The same for every QR code of one export.
    public var batchID: Int32 = 0

    public var unknownFields = UnknownStorage()

    public init() {}
}

extension GoogleMigrationPayload: Message, _MessageImplementationBase, _ProtoNameProviding {
    public static let protoMessageName = "MigrationPayload"
    public static let _protobuf_nameMap = _NameMap(
        bytecode: "\0\u{3}otp_parameters\0\u{1}version\0\u{3}batch_size\0\u{3}batch_index\0\u{3}batch_id\0")

    public mutating func decodeMessage<D: Decoder>(decoder: inout D) throws {
        while let fieldNumber = try decoder.nextFieldNumber() {
            switch fieldNumber {
            case 1: try decoder.decodeRepeatedMessageField(value: &otpParameters)
            case 2: try decoder.decodeSingularInt32Field(value: &version)
            case 3: try decoder.decodeSingularInt32Field(value: &batchSize)
            case 4: try decoder.decodeSingularInt32Field(value: &batchIndex)
            case 5: try decoder.decodeSingularInt32Field(value: &batchID)
            default: break
            }
        }
    }

    public func traverse<V: Visitor>(visitor: inout V) throws {
        if !otpParameters.isEmpty { try visitor.visitRepeatedMessageField(value: otpParameters, fieldNumber: 1) }
        if version != 0 { try visitor.visitSingularInt32Field(value: version, fieldNumber: 2) }
        if batchSize != 0 { try visitor.visitSingularInt32Field(value: batchSize, fieldNumber: 3) }
        if batchIndex != 0 { try visitor.visitSingularInt32Field(value: batchIndex, fieldNumber: 4) }
        if batchID != 0 { try visitor.visitSingularInt32Field(value: batchID, fieldNumber: 5) }
        try unknownFields.traverse(visitor: &visitor)
    }

    public static func == (lhs: GoogleMigrationPayload, rhs: GoogleMigrationPayload) -> Bool {
        lhs.otpParameters == rhs.otpParameters && lhs.version == rhs.version && lhs.batchSize == rhs.batchSize
            && lhs.batchIndex == rhs.batchIndex && lhs.batchID == rhs.batchID && lhs.unknownFields == rhs.unknownFields
    }
}

import SwiftProtobuf

extension GoogleMigrationPayload {
    /// `MigrationPayload.Algorithm`.
    public enum Algorithm: Enum, CaseIterable, Sendable {
        public typealias RawValue = Int
        case unspecified, sha1, sha256, sha512, md5
        case UNRECOGNIZED(Int)

        public init() { self = .unspecified }

        public init?(rawValue: Int) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .sha1
            case 2: self = .sha256
            case 3: self = .sha512
            case 4: self = .md5
            default: self = .UNRECOGNIZED(rawValue)
            }
        }

        public var rawValue: Int {
            switch self {
            case .unspecified: 0
            case .sha1: 1
            case .sha256: 2
            case .sha512: 3
            case .md5: 4
            case .UNRECOGNIZED(let value): value
            }
        }

        public static let allCases: [Algorithm] = [.unspecified, .sha1, .sha256, .sha512, .md5]
    }

    /// `MigrationPayload.DigitCount`.
    public enum DigitCount: Enum, CaseIterable, Sendable {
        public typealias RawValue = Int
        case unspecified, six, eight
        case UNRECOGNIZED(Int)

        public init() { self = .unspecified }

        public init?(rawValue: Int) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .six
            case 2: self = .eight
            default: self = .UNRECOGNIZED(rawValue)
            }
        }

        public var rawValue: Int {
            switch self {
            case .unspecified: 0
            case .six: 1
            case .eight: 2
            case .UNRECOGNIZED(let value): value
            }
        }

        public static let allCases: [DigitCount] = [.unspecified, .six, .eight]
    }

    /// `MigrationPayload.OtpType`.
    public enum OtpType: Enum, CaseIterable, Sendable {
        public typealias RawValue = Int
        case unspecified, hotp, totp
        case UNRECOGNIZED(Int)

        public init() { self = .unspecified }

        public init?(rawValue: Int) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .hotp
            case 2: self = .totp
            default: self = .UNRECOGNIZED(rawValue)
            }
        }

        public var rawValue: Int {
            switch self {
            case .unspecified: 0
            case .hotp: 1
            case .totp: 2
            case .UNRECOGNIZED(let value): value
            }
        }

        public static let allCases: [OtpType] = [.unspecified, .hotp, .totp]
    }
}

extension GoogleMigrationPayload.Algorithm: _ProtoNameProviding {
    public static let _protobuf_nameMap = _NameMap(
        bytecode:
            "\0\u{2}\0ALGORITHM_UNSPECIFIED\0\u{1}ALGORITHM_SHA1\0\u{1}ALGORITHM_SHA256\0\u{1}ALGORITHM_SHA512\0\u{1}ALGORITHM_MD5\0"
    )
}

extension GoogleMigrationPayload.DigitCount: _ProtoNameProviding {
    public static let _protobuf_nameMap = _NameMap(
        bytecode: "\0\u{2}\0DIGIT_COUNT_UNSPECIFIED\0\u{1}DIGIT_COUNT_SIX\0\u{1}DIGIT_COUNT_EIGHT\0")
}

extension GoogleMigrationPayload.OtpType: _ProtoNameProviding {
    public static let _protobuf_nameMap = _NameMap(
        bytecode: "\0\u{2}\0OTP_TYPE_UNSPECIFIED\0\u{1}OTP_TYPE_HOTP\0\u{1}OTP_TYPE_TOTP\0")
}

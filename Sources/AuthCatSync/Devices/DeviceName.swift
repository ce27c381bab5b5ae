import Foundation

/// The rules for a device's name: what a person may choose, what another
/// device's batch may carry, and how a name taken by another device is made
/// unique.
///
/// A name is 1 to `maximumLength` characters, with no control or format
/// characters (no line breaks, no escapes a terminal would obey, no
/// direction overrides), no space at either end, and does not look like a
/// device id (16 hex digits), which would name another device.
public enum DeviceName {
    /// The longest name, in characters (`Character`s, as people count them).
    public static let maximumLength = 64
    /// The name a device takes when its host's name is unusable.
    static let fallback = "device"

    /// `text` as a device name, or `DeviceDirectory.NamingError.invalidName` saying why not.
    public static func validated(_ text: String) throws -> String {
        if let problem = problem(with: text) { throw DeviceDirectory.NamingError.invalidName(problem) }
        return text
    }

    /// Why `text` is not a device name, or nil when it is one.
    static func problem(with text: String) -> String? {
        if text.isEmpty { return "a device name cannot be empty" }
        if text.count > maximumLength { return "a device name has at most \(maximumLength) characters" }
        if text.unicodeScalars.contains(where: isRefused) {
            return "a device name cannot hold control characters (line breaks, tabs, escapes)"
        }
        if text.first?.isWhitespace == true || text.last?.isWhitespace == true {
            return "a device name cannot start or end with a space"
        }
        if RemoteLayout.isDeviceID(text.lowercased()) {
            return "a device name cannot look like a device id (16 hex digits)"
        }
        return nil
    }

    /// A usable name made from a host name or a name another device's batch
    /// carried: refused characters become `?`, spaces at the ends go, and it
    /// is cut to the bound; `fallback` when nothing is left.
    public static func sanitized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.map { isRefused($0) ? "?" : $0 })
        var name = String(String(scalars).prefix(maximumLength)).trimmingCharacters(in: .whitespaces)
        if RemoteLayout.isDeviceID(name.lowercased()) { name = "device-" + name }
        return name.isEmpty ? fallback : name
    }

    /// `name`, or the first of `name-2`, `name-3`… that no name in `taken`
    /// uses, cut so that it stays within the bound.
    public static func unique(_ name: String, avoiding taken: Set<String>) -> String {
        guard taken.contains(name) else { return name }
        var number = 2
        while true {
            let suffix = "-\(number)"
            let candidate = String(name.prefix(maximumLength - suffix.count)) + suffix
            if !taken.contains(candidate) { return candidate }
            number += 1
        }
    }

    /// Control (Cc), format (Cf: direction overrides, zero-width joiners) and
    /// line or paragraph separators.
    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: true
        default: false
        }
    }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Data {
    /// The UTF-8 bytes of `text`.
    ///
    /// `Data(text.utf8)` asks the Swift runtime, the first time, whether a
    /// string's UTF-8 view is `ContiguousBytes`: a search through every
    /// protocol conformance of the program, about 150,000 instructions in the
    /// quick front, whose whole `code` runs about 3 million. Copying from the
    /// string's own buffer asks nothing.
    public init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { Data(buffer: $0) }
    }
}

/// Why one entry of an import file cannot become an account. Parsers throw
/// it while reading an entry; `ParsedImport.read` turns it into a rejection.
enum EntryProblem: Error, Equatable {
    /// The entry is malformed: a missing field, a wrong type, a bad secret.
    case invalid(String)
    /// The entry is well formed but of a kind authcat cannot use (mOTP, Yandex).
    case unsupported(String)
}

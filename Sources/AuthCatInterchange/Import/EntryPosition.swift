/// Where an entry sits in an import file, so a user can find it without the
/// message quoting its contents.
public struct EntryPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 1-based number of the entry among all entries of the file, in file order.
    public let number: Int
    /// "entry 3", "line 7" or "line 2, account 4".
    public let description: String

    public init(number: Int, description: String) {
        self.number = number
        self.description = description
    }

    /// The `number`th entry of a list.
    public static func entry(_ number: Int) -> EntryPosition {
        EntryPosition(number: number, description: "entry \(number)")
    }

    /// An entry that is a whole line of a text file.
    public static func line(_ line: Int, entry number: Int) -> EntryPosition {
        EntryPosition(number: number, description: "line \(line)")
    }

    public static func < (lhs: EntryPosition, rhs: EntryPosition) -> Bool {
        lhs.number < rhs.number
    }
}

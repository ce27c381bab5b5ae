internal import GRDBSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A SQLite database another app wrote (Google Authenticator's, Microsoft
/// Authenticator's), opened from its bytes in memory, read-only: nothing is
/// written to disk (the file holds plain secrets) and nothing the file says
/// can write anywhere. The file may be hostile, so it is read within
/// bounds: only real tables are read (never a view, whose query could run
/// forever), no text or blob longer than `maximumLength` is made (a
/// generated column could ask for gigabytes), and at most the rows asked for.
///
/// With `VaultReader`, the other file of the library that calls SQLite's C
/// interface: this one for other apps' databases, that one for the vault.
public final class SQLiteSnapshot {
    /// A value of one column of a row.
    public enum Value: Equatable, Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)

        public var text: String? {
            if case .text(let text) = self { return text }
            return nil
        }

        public var integer: Int64? {
            if case .integer(let value) = self { return value }
            return nil
        }
    }

    /// Why the bytes could not be read as a database; one clause.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The longest text or blob a query may make: far more than any account's field.
    public static let maximumLength: Int32 = 1 << 20

    private let handle: OpaquePointer
    private let buffer: UnsafeMutableRawBufferPointer

    /// Whether `data` starts with SQLite's file header.
    public static func looksLike(_ data: Data) -> Bool {
        data.starts(with: Array("SQLite format 3\0".utf8))
    }

    /// Opens `data` as a database.
    /// - Throws: `Failure`.
    public init(_ data: Data) throws {
        guard Self.looksLike(data) else { throw Failure(description: "it is not a SQLite database") }
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_MEMORY
        guard sqlite3_open_v2(":memory:", &opened, flags, nil) == SQLITE_OK, let opened else {
            sqlite3_close(opened)
            throw Failure(description: "SQLite could not open a database in memory")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 8)
        buffer.copyBytes(from: data)
        // A database in WAL mode says so at bytes 18 and 19 (2, 2), which an
        // in-memory database cannot honour; its pages read the same as 1, 1
        // (a rollback journal). Its -wal file, if any, is not part of the bytes.
        if buffer.count > 19 { (buffer[18], buffer[19]) = (min(buffer[18], 1), min(buffer[19], 1)) }
        let status = sqlite3_deserialize(
            opened, "main", buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(data.count),
            Int64(data.count), UInt32(SQLITE_DESERIALIZE_READONLY))
        guard status == SQLITE_OK else {
            sqlite3_close(opened)
            Self.release(buffer)
            throw Failure(description: "SQLite could not read it")
        }
        sqlite3_limit(opened, SQLITE_LIMIT_LENGTH, Self.maximumLength)
        handle = opened
        self.buffer = buffer
    }

    deinit {
        sqlite3_close(handle)
        Self.release(buffer)
    }

    /// The file's bytes wiped: they hold secrets.
    private static func release(_ buffer: UnsafeMutableRawBufferPointer) {
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        buffer.deallocate()
    }

    /// The tables' names (views and other objects left out).
    public func tableNames() throws -> Set<String> {
        Set(try query("SELECT name FROM sqlite_master WHERE type = 'table' LIMIT 1000").compactMap { $0.first?.text })
    }

    /// The column names of `table`, which must be one of `tableNames()`.
    public func columnNames(of table: String) throws -> Set<String> {
        Set(
            try query("SELECT name FROM pragma_table_info(\(Self.quoted(table))) LIMIT 1000").compactMap {
                $0.first?.text
            })
    }

    /// Up to `limit` rows of `columns` of the table `table`, in `rowid` order;
    /// a column the table lacks reads as null.
    /// - Throws: `Failure` when `table` is not a table, when there are more
    ///   than `limit` rows, or when SQLite fails (a damaged file).
    public func rows(of table: String, columns: [String], limit: Int) throws -> [[Value]] {
        guard try tableNames().contains(table) else { throw Failure(description: "it has no table '\(table)'") }
        let present = try columnNames(of: table)
        let selected = columns.map { present.contains($0) ? Self.identifier($0) : "NULL" }.joined(separator: ", ")
        let rows = try query("SELECT \(selected) FROM \(Self.identifier(table)) LIMIT \(limit + 1)")
        guard rows.count <= limit else {
            throw Failure(description: "its table '\(table)' has more than \(limit) rows")
        }
        return rows
    }

    private func query(_ sql: String) throws -> [[Value]] {
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else {
            sqlite3_finalize(prepared)
            throw Failure(description: "it is damaged or not a database of the expected app")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[Value]] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                rows.append((0..<sqlite3_column_count(statement)).map { Self.value(statement, $0) })
            case SQLITE_DONE:
                return rows
            default:
                throw Failure(description: "it is damaged (SQLite could not read it through)")
            }
        }
    }

    private static func value(_ statement: OpaquePointer, _ column: Int32) -> Value {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let bytes = sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(statement, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, column))))
        default:
            return .null
        }
    }

    /// `name` as an SQL identifier.
    private static func identifier(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// `text` as an SQL string literal.
    private static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }
}

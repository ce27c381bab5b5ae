import Foundation

/// An Android app's shared preferences file (`shared_prefs/NAME.xml`), the
/// form FreeOTP, Authy and Battle.net keep their
/// accounts in: `<map>` holding `<string name="…">text</string>` and
/// `<int|long|boolean|float name="…" value="…"/>` (and `<set>`s of strings,
/// kept with no value), in file order.
///
/// A view of `BoundedXML`: elements nest at most three deep (a `<set>`'s
/// strings in `<map>`) and number at most `maximumElements`.
struct SharedPreferencesXML {
    struct Item: Equatable {
        /// `string`, `int`, `long`, `boolean`, `float` or `set`.
        var kind: String
        var name: String
        /// A `<string>`'s text or the `value` attribute.
        var value: String
    }

    /// The items, in file order.
    let items: [Item]

    /// Far more than the preferences of any authenticator with `ParsedImport.maximumEntries` accounts.
    static let maximumElements = 2 * ParsedImport.maximumEntries + 16

    /// `maximumElements` of a few kilobytes each at most.
    static let limits = BoundedXML.Limits(maximumBytes: 64 << 20, maximumDepth: 3, maximumElements: maximumElements)

    /// Why a file is not a shared preferences file; one clause.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notXML(BoundedXML.Failure)
        case notAMap

        var description: String {
            switch self {
            case .notXML(let failure): failure.description
            case .notAMap: "it is not Android shared preferences (no <map> of named values)"
            }
        }
    }

    /// Reads `data`.
    /// - Throws: `Failure`.
    init(_ data: Data) throws {
        let map: BoundedXML.Element
        do {
            map = try BoundedXML(data, limits: Self.limits).root
        } catch let failure as BoundedXML.Failure {
            throw Failure.notXML(failure)
        }
        guard map.name == "map" else { throw Failure.notAMap }
        items = map.children.map { item in
            let value = item.name == "string" ? item.text : item.attributes["value"] ?? ""
            return Item(kind: item.name, name: item.attributes["name"] ?? "", value: value)
        }
    }

    /// Reads `data` as the preferences of an app of `format`.
    /// - Throws: `ImportError.malformed` naming `format`.
    static func read(_ data: Data, format: ImportFormat) throws -> SharedPreferencesXML {
        do {
            return try SharedPreferencesXML(data)
        } catch let failure as Failure {
            throw ImportError.malformed(format, failure.description)
        }
    }

    /// The value of the first item called `name`.
    func value(_ name: String) -> String? {
        items.first { $0.name == name }?.value
    }
}

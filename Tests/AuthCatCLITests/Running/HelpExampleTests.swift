import ArgumentParser
import XCTest

@testable import AuthCatCommandLine

/// ArgumentParser reflows a command's discussion to the terminal's width; an
/// example cut in two there does not run when copied. Every example of every
/// command stays whole on its line at 80 columns (issue 33 §18).
final class HelpExampleTests: XCTestCase {
    func testEveryExampleStaysOnItsLineAtEightyColumns() {
        let commands = Self.commands(under: AuthCat.self)
        XCTAssertGreaterThan(commands.count, 20, "the whole command tree")
        var examples = 0
        for command in commands {
            let help = AuthCat.helpMessage(for: command, columns: 80)
            for example in Self.examples(in: command.configuration.discussion) {
                examples += 1
                XCTAssertTrue(help.contains("\n" + example + "\n"), "\(command): '\(example)' is wrapped:\n\(help)")
            }
        }
        XCTAssertGreaterThan(examples, 40)
    }

    private static func commands(under command: ParsableCommand.Type) -> [ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap { commands(under: $0) }
    }

    /// The indented lines after "Examples:", up to the next blank line.
    private static func examples(in discussion: String) -> [String] {
        let lines = discussion.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "Examples:") else { return [] }
        return Array(lines[(start + 1)...].prefix { $0.hasPrefix("  ") })
    }
}

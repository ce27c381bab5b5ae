import ArgumentParser
import Foundation
import XCTest

@testable import AuthCatCommandLine

/// authcat words two usage errors itself, from what it knows: a value an
/// option does not take (`ArgumentChoice`) and an error of its own commands.
/// These tests hold that knowledge to what ArgumentParser does, so that a
/// change upstream fails here instead of changing a message silently.
final class ArgumentChoiceTests: AuthCatTestCase {
    /// Every option ArgumentParser lists values for (`--experimental-dump-help`,
    /// its structured description of the command tree) is an `ArgumentChoice`
    /// of its command, with the same values and the value name the refusal shows.
    func testTheChoicesAreTheOptionsArgumentParserListsValuesFor() throws {
        let dump = try authcat.run(["--experimental-dump-help"], withHome: false)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let tree = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let listed = Self.optionsWithValues(try XCTUnwrap(tree["command"] as? [String: Any]), path: [])
        XCTAssertFalse(listed.isEmpty, "ArgumentParser's description no longer lists the values of options")
        XCTAssertEqual(listed, Self.declaredChoices(of: AuthCat.self, path: []))
    }

    /// ArgumentParser refuses each value a choice refuses, and the line is authcat's.
    func testAValueAnOptionDoesNotTakeIsRefusedInAuthcatsWords() throws {
        for (path, choice) in Self.choiceCommands(of: AuthCat.self, path: []) {
            let arguments = path + [choice.option, "nosuch"]
            XCTAssertThrowsError(try AuthCat.parseAsRoot(arguments), "ArgumentParser took \(arguments)")
            let result = try authcat.run(arguments, stdin: Data("\(Self.otherSecret)\n".utf8))
            let values = choice.values.map { "'\($0)'" }
            let list = values.dropLast().joined(separator: ", ") + " or " + values[values.count - 1]
            let command = (["authcat"] + path).joined(separator: " ")
            XCTAssertEqual(result.status, ExitCode.validationFailure.rawValue, "\(arguments)")
            XCTAssertEqual(
                result.stderr,
                "authcat: the value 'nosuch' is invalid for '\(choice.option) <\(choice.option.dropFirst(2))>': "
                    + "give one of \(list) (see '\(command) --help')\n")
        }
    }

    /// A value given with `=`, in any case the type reads, is taken or refused as ArgumentParser does.
    func testAChoiceReadsValuesAsArgumentParserDoes() throws {
        XCTAssertNil(ArgumentChoice.refusal(in: ["add", "x", "--type=HOTP", "--algorithm", "SHA256"]))
        XCTAssertNotNil(try? AuthCat.parseAsRoot(["add", "x", "--type=HOTP", "--algorithm", "SHA256"]))
        XCTAssertEqual(
            ArgumentChoice.refusal(in: ["add", "x", "--algorithm=md5"]),
            "the value 'md5' is invalid for '--algorithm <algorithm>': give one of 'sha1', 'sha256' or 'sha512'")
        XCTAssertNil(ArgumentChoice.refusal(in: ["add", "--", "--type", "sms"]), "after --, a word is no option")
        XCTAssertNil(
            ArgumentChoice.refusal(in: ["export", "--format", "--stdout"]), "a missing value is ArgumentParser's")
        XCTAssertThrowsError(try AuthCat.parseAsRoot(["export", "--format", "--stdout"]))
        XCTAssertNotNil(ArgumentChoice.refusal(in: ["export", "--format=-x"]))
        XCTAssertNil(ArgumentChoice.refusal(in: ["code", "--type", "sms"]), "code has no --type")
    }

    /// Only authcat's commands that do work report their errors through
    /// `ErrorReport`; `CommandRunner` knows them as `InvokedCommand`s.
    func testEveryCommandWithoutSubcommandsIsAnInvokedCommand() {
        func leaves(_ command: ParsableCommand.Type) -> [ParsableCommand.Type] {
            let subcommands = command.configuration.subcommands
            return subcommands.isEmpty ? [command] : subcommands.flatMap(leaves)
        }
        for command in leaves(AuthCat.self) {
            XCTAssertTrue(command is InvokedCommand.Type, "\(command) is not an InvokedCommand")
        }
    }

    /// "add --type=totp,hotp,…" for each option of the description with values.
    private static func optionsWithValues(_ command: [String: Any], path: [String]) -> Set<String> {
        let arguments = command["arguments"] as? [[String: Any]] ?? []
        var found = Set(
            arguments.compactMap { argument -> String? in
                guard let values = argument["allValues"] as? [String], !values.isEmpty,
                    let preferred = argument["preferredName"] as? [String: Any],
                    let option = preferred["name"] as? String, argument["valueName"] as? String == option
                else { return nil }
                return (path + ["--\(option)=" + values.joined(separator: ",")]).joined(separator: " ")
            })
        for subcommand in command["subcommands"] as? [[String: Any]] ?? [] {
            found.formUnion(optionsWithValues(subcommand, path: path + [subcommand["commandName"] as? String ?? "?"]))
        }
        return found
    }

    private static func declaredChoices(of command: ParsableCommand.Type, path: [String]) -> Set<String> {
        Set(
            choiceCommands(of: command, path: path).map { path, choice in
                (path + ["\(choice.option)=" + choice.values.joined(separator: ",")]).joined(separator: " ")
            })
    }

    private static func choiceCommands(
        of command: ParsableCommand.Type, path: [String]
    ) -> [(path: [String], choice: ArgumentChoice)] {
        let own = (command as? OffersChoices.Type)?.choices.map { (path, $0) } ?? []
        return own
            + command.configuration.subcommands.flatMap { subcommand in
                choiceCommands(of: subcommand, path: path + [subcommand._commandName])
            }
    }
}

import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

extension AuthCat {
    /// `authcat-cli clipboard-clear`: internal, not for users. The detached
    /// process `code --copy` starts to take the code off the clipboard when it
    /// expires (see `ClipboardClearer`); it reads its request on standard input.
    struct ClipboardClear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clipboard-clear",
            abstract: "Internal: clears a copied code from the clipboard when it expires.",
            shouldDisplay: false)

        func run() throws {
            // The request is a few hundred bytes plus the earlier clipboard content.
            var input = try StandardInput.read(limit: DetachedLauncher.maximumInput, what: "the request")
            defer { Wipe.bytes(&input) }
            guard let request = try? JSONDecoder().decode(ClipboardClearer.Request.self, from: Data(input)) else {
                throw ExitCode.failure
            }
            ClipboardClearer.run(request)
        }
    }
}

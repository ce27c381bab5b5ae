import Foundation

// Everything authcat creates is for its user alone, whatever the shell's umask.
umask(0o077)
// The completion scripts are swift-argument-parser's with authcat's account
// completion added (CompletionScript), so they are answered before parsing.
if let shell = CompletionScript.requestedShell(in: Array(CommandLine.arguments.dropFirst())) {
    do {
        print(try CompletionScript.script(for: shell))
        exit(EXIT_SUCCESS)
    } catch {
        Output.error("\(error)", status: EXIT_FAILURE)
        exit(EXIT_FAILURE)
    }
}
// `authcat` (the quick front executable) answers a plain `code QUERY`, `list`
// and `list --json` itself and hands every other command line to this program, unchanged.
await CommandRunner.run()

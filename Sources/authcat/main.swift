import Foundation

// Everything authcat creates is for its user alone, whatever the shell's umask.
umask(0o077)
// Kept lean: `authcat code` is measured as a whole process, so nothing runs
// here that every command does not need, and its plain form skips ArgumentParser.
FastCodePath.runIfPlain(Array(CommandLine.arguments.dropFirst()))
await CommandRunner.run()

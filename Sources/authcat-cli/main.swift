import Foundation

// Everything authcat creates is for its user alone, whatever the shell's umask.
umask(0o077)
// `authcat` (the quick front executable) runs the plain `code QUERY` itself
// and hands every other command line to this program, unchanged.
await CommandRunner.run()

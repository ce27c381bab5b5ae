import AuthCatCommandLine
import AuthCatEssentials
import Foundation

// No core file, and no dump by any other means, of a process that may hold
// the vault key, a passphrase or the sync master key: set before anything is read.
ProcessHardening.apply()
// Everything authcat creates is for its user alone, whatever the shell's umask.
umask(0o077)
// `authcat` (the quick front executable) answers a plain `code QUERY`, `list`
// and `list --json` itself and hands every other command line to this program, unchanged.
exit(await CommandRunner.run(.ofThisProcess()))

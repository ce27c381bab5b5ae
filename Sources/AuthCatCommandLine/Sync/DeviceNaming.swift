import ArgumentParser
import AuthCatSync

/// A device named on the command line (by id, id prefix or name) or a name
/// chosen for this one is part of the command line: a word that names no
/// device or several, or a name that cannot be taken, is a usage error (exit
/// 64), reported before anything changed.
enum DeviceNaming {
    static func asUsage<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as DeviceDirectory.NamingError where error != .noDevices {
            throw ValidationError(error.description)
        }
    }

    /// The one device `word` names in `directory` (`DeviceDirectory.resolve`), else a usage error.
    static func resolve(_ word: String, in directory: DeviceDirectory) throws -> DeviceDirectory.Device {
        do {
            return try directory.resolve(word)
        } catch let error as DeviceDirectory.NamingError {
            throw ValidationError(error.description)
        }
    }

    /// `name` if the naming rules take it (`DeviceName.validated`), else a usage error.
    static func validated(_ name: String) throws -> String {
        do {
            return try DeviceName.validated(name)
        } catch let error as DeviceDirectory.NamingError {
            throw ValidationError(error.description)
        }
    }
}

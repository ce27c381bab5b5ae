import Foundation

/// A C library opened at run time with `dlopen`, for the libraries authcat
/// uses only in some commands (libzbar for `import --qr`, libarchive for ZIP
/// exports): linked, each would be loaded at every start of authcat-cli. The
/// handle is never closed; each user keeps one per process.
struct DynamicLibrary: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    /// What `function` throws when a name is missing: the user's error for a missing library.
    private let unavailable: any Error & Sendable

    /// Opens the library file `path` (a soname, such as `libzbar.so.0`).
    /// - Throws: `unavailable` when it cannot be opened.
    init(_ path: String, unavailable: any Error & Sendable) throws {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { throw unavailable }
        self.handle = handle
        self.unavailable = unavailable
    }

    /// The C function `name`, as the function type `T` the caller declares.
    func function<T>(_ name: String) throws -> T {
        guard let address = dlsym(handle, name) else { throw unavailable }
        return unsafeBitCast(address, to: T.self)
    }
}

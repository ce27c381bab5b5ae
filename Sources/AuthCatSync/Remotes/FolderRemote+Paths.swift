import Foundation

extension FolderRemote {
    /// The file that holds the object `name` (already validated).
    func path(of name: String) -> String {
        rootPath == "/" ? "/" + name : rootPath + "/" + name
    }

    /// Throws `containerMissing` unless the root folder exists.
    func requireRoot() throws {
        guard try FolderFileSystem.isDirectory(rootPath) else {
            throw RemoteError.containerMissing(location: displayLocation)
        }
    }

    /// Creates the folders between the root and object `name`.
    ///
    /// - Returns: the folder that holds the object's file.
    func makeParentFolders(of name: String) throws -> String {
        var folder = rootPath
        for component in name.split(separator: "/").dropLast() {
            let parent = folder
            folder = folder == "/" ? "/" + component : folder + "/" + component
            if try FolderFileSystem.makeDirectory(folder) {
                try FolderFileSystem.syncDirectory(parent)
            }
        }
        return folder
    }

    /// Adds the objects under the folder `relative` (`""` for the root) whose names start with `prefix`.
    func collect(relative: String, prefix: String, into found: inout [RemoteObject]) throws {
        let folder = relative.isEmpty ? rootPath : path(of: relative)
        for entry in try FolderFileSystem.entries(of: folder) {
            let name = relative.isEmpty ? entry.name : relative + "/" + entry.name
            guard RemoteObjectName.isValid(name) else { continue }
            if entry.isDirectory, (name + "/").hasPrefix(prefix) || prefix.hasPrefix(name + "/") {
                try collect(relative: name, prefix: prefix, into: &found)
            } else if entry.isRegularFile, name.hasPrefix(prefix) {
                found.append(RemoteObject(name: name, size: entry.size, version: entry.version))
            }
        }
    }
}

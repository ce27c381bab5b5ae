import Foundation

/// A certificate authority made for one test with `openssl`, and a server
/// certificate it signed for 127.0.0.1: what a NAS with its own CA looks like.
public struct TestCertificateAuthority {
    /// The CA's certificate (PEM): what a user names to trust the server.
    public let certificateFile: String
    /// The server's certificate followed by its key (PEM), as lighttpd's `ssl.pemfile` takes it.
    public let serverPEMFile: String

    public init(folder: String) throws {
        certificateFile = folder + "/ca.pem"
        serverPEMFile = folder + "/server.pem"
        let caKey = folder + "/ca.key"
        let serverKey = folder + "/server.key"
        let request = folder + "/server.csr"
        let serverCertificate = folder + "/server.crt"
        let extensions = folder + "/server.ext"
        try "subjectAltName = IP:127.0.0.1\nbasicConstraints = CA:FALSE\n".write(
            toFile: extensions, atomically: true, encoding: .utf8)
        try Self.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", certificateFile, "-days", "2",
            "-subj", "/CN=authcat test CA",
        ])
        try Self.openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", serverKey, "-out", request, "-subj", "/CN=127.0.0.1",
        ])
        try Self.openssl([
            "x509", "-req", "-in", request, "-CA", certificateFile, "-CAkey", caKey, "-CAcreateserial", "-out",
            serverCertificate, "-days", "2", "-extfile", extensions,
        ])
        let pem =
            try String(contentsOfFile: serverCertificate, encoding: .utf8)
            + String(contentsOfFile: serverKey, encoding: .utf8)
        try pem.write(toFile: serverPEMFile, atomically: true, encoding: .utf8)
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try WebDAVServer.find("openssl", package: "openssl"))
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw WebDAVServer.StartError(
                description: "openssl \(arguments.first ?? "") failed: \(String(decoding: said, as: UTF8.self))")
        }
    }
}

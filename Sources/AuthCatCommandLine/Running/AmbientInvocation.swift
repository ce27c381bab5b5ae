import AuthCatCore
import AuthCatEssentials

// What the sync files (Sync/, Commands/Sync*) still read ambiently, until
// they take the invocation from `InvokedCommand.run(in:)` like every other
// command (issue 18 §3). No other file may use it; the file goes when they do.

extension Invocation {
    /// The invocation being run; outside `CommandRunner.run`, this process's own.
    @TaskLocal public static var current = Invocation.ofThisProcess()
}

extension Output {
    static func print(_ text: String, terminator: String = "\n") {
        Invocation.current.output.print(text, terminator: terminator)
    }
    static func warning(_ message: String) { Invocation.current.output.warning(message) }
    static func note(_ message: String) { Invocation.current.output.note(message) }
    static func aside(_ text: String) { Invocation.current.output.aside(text) }
    static func error(_ message: String, status: Int32) { Invocation.current.output.error(message, status: status) }
    static func flushStandardOutput() { Invocation.current.output.flushStandardOutput() }
    static var diagnosticsAsJSON: Bool { Invocation.current.output.diagnosticsAsJSON }
}

extension Terminal {
    static var standardInputIsTerminal: Bool { Invocation.current.terminal.standardInputIsTerminal }
    static var standardOutputIsTerminal: Bool { Invocation.current.terminal.standardOutputIsTerminal }
    static func readHidden(prompt: String, limit: Int, what: String, hint: String) throws -> SecretBytes {
        try Invocation.current.terminal.readHidden(prompt: prompt, limit: limit, what: what, hint: hint)
    }
    static func confirm(_ question: String, hint: String) throws -> Bool {
        try Invocation.current.terminal.confirm(question, hint: hint)
    }
}

enum StandardInput {
    static func read(limit: Int, what: String) throws -> [UInt8] {
        try Invocation.current.readStandardInput(limit: limit, what: what)
    }
}

extension VaultOptions {
    var access: VaultAccess { access(in: Invocation.current) }
    var environment: [String: String] { Invocation.current.environment }
    func location() throws -> VaultLocation { try location(in: Invocation.current) }
    func openExistingVault() throws -> Vault? { try openExistingVault(in: Invocation.current) }
    func openVault() throws -> Vault { try openVault(in: Invocation.current) }
    func openOrCreateVault() throws -> Vault { try openOrCreateVault(in: Invocation.current) }
}

extension PassphraseSource {
    static func withoutPrompt(environment: [String: String]) -> @Sendable () throws -> SecretBytes {
        var invocation = Invocation.current
        invocation.environment = environment
        return withoutPrompt(in: invocation)
    }
}

extension SyncSecretInput {
    static func newPassphrase(environment: [String: String]) throws -> SecretBytes {
        var invocation = Invocation.current
        invocation.environment = environment
        return try newPassphrase(in: invocation)
    }
    static func passphrase(environment: [String: String]) throws -> SecretBytes {
        var invocation = Invocation.current
        invocation.environment = environment
        return try passphrase(in: invocation)
    }
    static func recoveryKey(file: String?) throws -> SecretBytes {
        try recoveryKey(file: file, in: Invocation.current)
    }
}

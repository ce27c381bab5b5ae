import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension SyncService {
    /// The service for the vault at the options' location, with remotes made
    /// from the invocation's environment and home folder, and its clock.
    /// Throws `VaultStoreError.noVault` when there is no vault.
    static func open(_ options: VaultOptions, in invocation: Invocation) throws -> SyncService {
        try commandLine(try options.openVault(in: invocation), in: invocation)
    }

    /// The service for `vault`, each job's remote bounded by the deadline the environment or `vault` sets.
    static func commandLine(_ vault: Vault, in invocation: Invocation) throws -> SyncService {
        let deadline = try SyncDeadline.seconds(environment: invocation.environment, vault: vault)
        return SyncService(vault: vault, remotes: remotes(in: invocation, deadline: deadline), clock: invocation.clock)
    }

    /// Remotes made from a location URL; S3 credentials come from the
    /// environment or ~/.aws/credentials, a WebDAV password from
    /// `WebDAVPasswordInput`. Without HOME in the invocation's environment,
    /// home is the user's from the password database. Everything one job does
    /// through its remote ends within `deadline` seconds (`DeadlineRemote`).
    static func remotes(in invocation: Invocation, deadline: Int) -> Remotes {
        let environment = invocation.environment
        let password = WebDAVPasswordInput.source(in: invocation)
        return .byLocation { url, createOnlyEnforced in
            let remote = try await makeRemote(
                location: url, environment: environment, homeDirectory: home(environment),
                password: password, createOnlyEnforced: createOnlyEnforced)
            return DeadlineRemote(remote, seconds: deadline)
        }
    }

    static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? ""
    }

    /// Says on standard error why a sync command waits (the jobs' `whenBusy`).
    static func sayWaiting(_ output: Output) {
        output.note("waiting for another sync of this vault to finish")
    }
}

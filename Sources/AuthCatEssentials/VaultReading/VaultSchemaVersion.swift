/// The schema migrations a vault database has when it is current, in order.
///
/// The core's migrator defines them (and a test keeps this list equal to
/// it); the quick front reads a vault only when it finds exactly these, and
/// leaves any other vault to the full program, which migrates or refuses it.
public enum VaultSchemaVersion {
    public static let migrations = ["v1-accounts-history", "v2-pin-kinds"]
}

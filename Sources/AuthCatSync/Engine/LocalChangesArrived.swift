/// Thrown inside an import transaction when the vault got local changes after
/// they were last stamped: the import is rolled back, they are stamped, and
/// the import is tried again, so an incoming value never silently overwrites
/// a local change it has not been compared with.
struct LocalChangesArrived: Error {}

import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// The name this device's batches carry: the one chosen when it joined
    /// or renamed it, else (a state from before names were chosen) the
    /// vault's own device name.
    func deviceName(_ state: SyncStore.StateRecord) -> String {
        state.deviceName ?? vault.identity.deviceName
    }

    /// Whether this device was renamed since its newest batch: a sync then
    /// writes a batch even when nothing else changed, so that the others
    /// learn it. A device that has written nothing yet (it has just
    /// joined) announces its name at once, so that the others can name it,
    /// and revoke it by that name, before it has changed anything.
    func nameToAnnounce(_ state: SyncStore.StateRecord) -> Bool {
        state.deviceName != nil && state.deviceName != state.announcedName
    }

    /// Keeps this device's name unique among the devices of the remote vault,
    /// once this sync has read their newest names (docs/FORMAT.md §5.9.1).
    ///
    /// A name another device already carries is taken with the first free
    /// suffix (`vm-2`) before it goes out: the device that joins (or
    /// renames) later yields. Two devices that sent one name at the same
    /// moment both see the clash afterwards; the one with the larger id yields.
    func settleName(_ run: SyncEngine.Run) throws {
        let state = try SyncStore.requiredState(store)
        let name = deviceName(state)
        let others = try DeviceDirectory.read(from: store, state: state, vaultDeviceName: name).devices.filter {
            !$0.isThisDevice
        }
        // A name too like another's to tell apart clashes as the same name would.
        let clashing = others.filter { $0.name.map { DeviceName.isConfusable($0, with: name) } == true }
        guard !clashing.isEmpty else { return }
        let announced = state.deviceName == nil || state.announcedName == name
        if announced, clashing.allSatisfy({ $0.id > state.deviceID }) { return }
        let unique = DeviceName.unique(name, avoiding: Set(others.compactMap(\.name)))
        try store.updateState { $0.deviceName = unique }
        run.report.deviceRenamed = DeviceRename(from: name, to: unique)
    }
}

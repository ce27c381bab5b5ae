/// What one listing of the whole remote says, sorted by meaning, as seen
/// from one key epoch (docs/FORMAT.md §5.9): the batches, snapshots and
/// markers of that epoch only (epoch 0's under the vault folder, a later
/// epoch's under its `e-<epoch>` folder, named here by their §5.1 meaning),
/// with the manifest and the deletion marker, which belong to no epoch.
/// Another epoch's objects are not there: a device never reads them as its own.
struct RemoteListing {
    /// The objects of one device in one vault.
    struct DeviceObjects: Equatable {
        var batches: Set<Int64> = []
        var snapshots: Set<Int64> = []

        /// The highest sequence number among its batches and snapshots.
        var newest: Int64 { max(batches.max() ?? 0, snapshots.max() ?? 0) }
    }

    var manifests: Set<String> = []
    var deletedMarkers: Set<String> = []
    /// "Disabled everywhere" markers: vault id to generation to object name.
    var disabledMarkers: [String: [Int64: String]] = [:]
    /// Vault id to device id to that device's objects.
    var devices: [String: [String: DeviceObjects]] = [:]
    /// Every object name of ours, by vault id (markers outside the vault folder excluded).
    var names: [String: [String]] = [:]
    /// The listed size of every object of ours, by name.
    var sizes: [String: Int] = [:]
    /// The listed version of every object of ours whose remote gives one, by name.
    var versions: [String: String] = [:]

    init(_ objects: [RemoteObject], epoch: Int64 = 0) {
        for object in objects {
            guard let name = Self.meaning(of: object.name, inEpoch: epoch) else { continue }
            sizes[object.name] = object.size
            versions[object.name] = object.version
            switch name {
            case .manifest(let vault):
                manifests.insert(vault)
            case .deletedMarker(let vault):
                deletedMarkers.insert(vault)
                continue
            case .disabledMarker(let vault, let generation):
                disabledMarkers[vault, default: [:]][generation] = object.name
            case .batch(let vault, let device, let sequence):
                devices[vault, default: [:]][device, default: DeviceObjects()].batches.insert(sequence)
            case .snapshot(let vault, let device, let sequence):
                devices[vault, default: [:]][device, default: DeviceObjects()].snapshots.insert(sequence)
            }
            names[vaultID(of: name), default: []].append(object.name)
        }
    }

    /// What `name` means to a device at `epoch`, or nil when it is not of that epoch.
    private static func meaning(of name: String, inEpoch epoch: Int64) -> RemoteLayout.Name? {
        if let epochName = EpochLayout.parse(name) {
            guard case .epochObject(_, let objectEpoch, let inner) = epochName, objectEpoch == epoch, epoch > 0 else {
                return nil
            }
            return inner
        }
        guard let plain = RemoteLayout.parse(name) else { return nil }
        switch plain {
        case .manifest, .deletedMarker: return plain
        case .batch, .snapshot, .disabledMarker: return epoch == 0 ? plain : nil
        }
    }

    /// Whether anything of this vault's folder is on the remote.
    func hasObjects(of vault: String) -> Bool {
        !(names[vault] ?? []).isEmpty
    }

    /// The newest "disabled everywhere" marker name of `vault`, if any: a
    /// name only, believed once it opens (`MarkerCheck`).
    func newestDisabledMarker(of vault: String) -> (generation: Int64, name: String)? {
        guard let newest = disabledMarkers[vault]?.max(by: { $0.key < $1.key }) else { return nil }
        return (newest.key, newest.value)
    }

    private func vaultID(of name: RemoteLayout.Name) -> String {
        switch name {
        case .manifest(let vault), .disabledMarker(let vault, _), .deletedMarker(let vault): vault
        case .batch(let vault, _, _), .snapshot(let vault, _, _): vault
        }
    }
}

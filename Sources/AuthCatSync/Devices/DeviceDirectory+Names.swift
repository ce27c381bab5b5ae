/// How devices are shown and told apart by name: by the rules of
/// `DeviceName`, which the directory itself (a value every layer passes)
/// does not need.
extension DeviceDirectory.Device {
    /// How errors and lists name it: `laptop (3d7352bf6db19a6e)`.
    public var label: String { "\(displayName) (\(id))" }

    /// Its name as shown, with anything that would not show written out
    /// as its code point (`DeviceName.escaped`: a name from another
    /// device, or kept by an older authcat, may hold it), or what lists
    /// show before its first batch tells it.
    public var displayName: String { name.map(DeviceName.escaped) ?? Self.unnamed }
}

extension DeviceDirectory {
    /// The other device already named `name`, or a name too like it to
    /// tell apart (`DeviceName.isConfusable`), if any (this device is not counted).
    public func otherDevice(named name: String) -> Device? {
        devices.first { !$0.isThisDevice && $0.name.map { DeviceName.isConfusable($0, with: name) } == true }
    }
}

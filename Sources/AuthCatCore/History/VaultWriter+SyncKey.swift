extension VaultWriter {
    /// Records that the sync key was rotated to `epoch`, revoking `revoked`
    /// (sync device ids and their names then): one transaction, one change
    /// for the rotation and one for each device revoked.
    public func recordSyncKeyRotation(epoch: Int64, revoked: [DeviceReference]) throws {
        try recordHistory(HistoryChange(entity: .syncKey, recordID: String(epoch), kind: .rotate, fields: []))
        for device in revoked {
            try recordHistory(
                HistoryChange(entity: .device, recordID: device.id, kind: .revoke, fields: [], label: device.name))
        }
    }
}

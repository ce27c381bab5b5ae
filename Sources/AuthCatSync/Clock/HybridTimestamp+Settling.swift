extension HybridTimestamp {
    /// The stamp of a change the merge makes on its own to settle a label
    /// clash: the change it supersedes, `self`, with a writer sorting right
    /// after `self`'s device.
    ///
    /// It depends only on `self`, so every device that settles the same clash
    /// stamps it alike (equal stamps never carry different values: `variant`
    /// tells apart values that may differ). It sorts after `self` yet before
    /// every change made by a device that had seen `self` (those have a
    /// higher logical count), so a user's later change wins over the
    /// settlement wherever it was made, even when the clash is settled long
    /// after. No real device id contains `+`, so it never equals a real stamp.
    func settling(variant: String = "") -> HybridTimestamp {
        HybridTimestamp(wall: wall, logical: logical, device: "\(device)+clash\(variant)")
    }
}

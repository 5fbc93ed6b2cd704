import Atomics
import Synchronization

/// One reader thread's view of a `SnapshotPublisher`: a strong reference to the snapshot it is
/// using, re-loaded only when the publisher's version moved. Not `Sendable`: one per thread.
public struct SnapshotReader {
    let publisher: SnapshotPublisher
    public private(set) var snapshot: MatcherSnapshot
    private var seenVersion: Int

    init(_ publisher: SnapshotPublisher) {
        self.publisher = publisher
        seenVersion = publisher.publishedVersion
        snapshot = publisher.load()
    }

    /// The snapshot to match the next event with: the newest one published before this call began
    /// (or a newer one). One acquiring load of an integer when nothing changed.
    @inline(__always)
    public mutating func current() -> MatcherSnapshot {
        let v = publisher.publishedVersion
        if v != seenVersion {
            // Version first, snapshot second: the snapshot is at least as new as `v`.
            seenVersion = v
            snapshot = publisher.load()
        }
        return snapshot
    }

    /// Whether the snapshot `current()` last returned is still the newest: one acquiring load, no
    /// reference counting. A replay loop checks this per event and calls `current()` only when it
    /// fails, so readers never write a shared cache line (not even a retain count).
    @inline(__always)
    public func isCurrent() -> Bool { publisher.publishedVersion == seenVersion }
}

import Atomics
import Synchronization

/// The mutex comparison's reader, the textbook way: per event, take the lock, retain the current
/// snapshot, let go of the lock, use it, release it. (It keeps the snapshot it last opened so a replay
/// loop re-opens the matcher only when the set changed, exactly as `SnapshotReader` does; the two
/// differ only in the per-event check: lock + retain + release here, one atomic load there.)
public struct MutexReader {
    let publisher: MutexPublisher
    public private(set) var snapshot: MatcherSnapshot

    init(_ publisher: MutexPublisher) {
        self.publisher = publisher
        snapshot = publisher.load()
    }

    public mutating func current() -> MatcherSnapshot {
        snapshot = publisher.load()
        return snapshot
    }

    /// Takes the current snapshot under the lock (retaining it) and checks it is the one in use.
    @inline(__always)
    public func isCurrent() -> Bool {
        let newest = publisher.load()
        return newest === snapshot
    }
}

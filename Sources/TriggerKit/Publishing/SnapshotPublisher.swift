import Atomics
import Synchronization

/// One published, immutable trigger set with its matcher; `version` tags every result taken from it.
public final class MatcherSnapshot: AtomicReference, Sendable {
    public let matcher: any Matcher
    public let version: Int

    public init(matcher: any Matcher, version: Int) {
        self.matcher = matcher
        self.version = version
    }
}

/// Publishes trigger-set snapshots to reader threads without locks (docs/semantics.md, "Delivery", rule 9).
///
/// The snapshot lives in a `ManagedAtomic` (swift-atomics: lock-free, and its double-word CAS makes
/// load-then-retain safe, so no snapshot is freed while a reader is taking it). That load costs two
/// CAS on a shared cache line, so readers do not take it per event: each `SnapshotReader` keeps its
/// own strong reference and re-loads only when the `version` counter, bumped after every store,
/// has moved. Readers never wait for the writer; old snapshots are freed by ARC when the last
/// reader holding one moves on.
public final class SnapshotPublisher: Sendable {
    private let current: ManagedAtomic<MatcherSnapshot>
    private let version: Atomic<Int>

    public init(_ matcher: any Matcher) {
        current = ManagedAtomic(MatcherSnapshot(matcher: matcher, version: 0))
        version = Atomic(0)
    }

    /// Replaces the published snapshot atomically; returns the new version. One writer at a time.
    @discardableResult
    public func publish(_ matcher: any Matcher) -> Int {
        // Relaxed: only the single writer reads the version to compute the next one.
        let next = version.load(ordering: .relaxed) + 1
        // Releasing: the snapshot's fields (built before this line) are visible to any thread
        // that acquires this reference.
        current.store(MatcherSnapshot(matcher: matcher, version: next), ordering: .releasing)
        // Releasing: a reader that acquires this version also sees the store above, so it never
        // observes the new number together with the old snapshot and then stops reloading.
        version.store(next, ordering: .releasing)
        return next
    }

    /// The newest snapshot, taken the slow way (two CAS); readers use `makeReader()` instead.
    public func load() -> MatcherSnapshot {
        // Acquiring: pairs with the releasing store in `publish`, so the snapshot is fully built.
        current.load(ordering: .acquiring)
    }

    /// The published version number (acquiring, pairs with the releasing store in `publish`).
    public var publishedVersion: Int { version.load(ordering: .acquiring) }

    /// A per-thread reader with its own cached snapshot. Not shareable across threads.
    public func makeReader() -> SnapshotReader { SnapshotReader(self) }
}

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

/// The comparison: the same publication behind a `Mutex`. Readers take the lock, retain the
/// snapshot, and let go before matching.
public final class MutexPublisher: Sendable {
    private let state: Mutex<MatcherSnapshot>

    public init(_ matcher: any Matcher) { state = Mutex(MatcherSnapshot(matcher: matcher, version: 0)) }

    @discardableResult
    public func publish(_ matcher: any Matcher) -> Int {
        state.withLock { current in
            current = MatcherSnapshot(matcher: matcher, version: current.version + 1)
            return current.version
        }
    }

    public func load() -> MatcherSnapshot { state.withLock { $0 } }

    /// A per-thread reader caching the snapshot, as `SnapshotReader` does, but checking under the lock.
    public func makeReader() -> MutexReader { MutexReader(self) }
}

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

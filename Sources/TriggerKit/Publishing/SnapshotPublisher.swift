import Atomics
import Synchronization

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

import Atomics
import Synchronization

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

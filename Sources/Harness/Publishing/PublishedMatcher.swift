import Foundation
import Synchronization
import TriggerKit

/// The matcher a row's reader threads share, held as its publication mode says: plain, in a lock-free
/// snapshot cell, or behind a mutex; the writer thread publishes new ones into it.
final class PublishedMatcher: Sendable {
    let publication: Publication
    /// The matcher readers use directly under `.none`.
    let plain: any Matcher
    let lockFree: SnapshotPublisher
    let mutex: MutexPublisher

    init(publication: Publication, matcher: any Matcher) {
        self.publication = publication
        plain = matcher
        lockFree = SnapshotPublisher(matcher)
        mutex = MutexPublisher(matcher)
    }

    func publish(_ matcher: any Matcher) {
        switch publication {
        case .none: break
        case .lockFree: lockFree.publish(matcher)
        case .mutex: mutex.publish(matcher)
        }
    }

    func makeReader() -> Reader {
        Reader(publication: publication, lockFree: lockFree.makeReader(), mutex: mutex.makeReader())
    }

    /// One reader thread's handle. A struct with both readers (not an enum), so checking mutates in
    /// place and never copies, i.e. never retains, the cached snapshot.
    struct Reader {
        let publication: Publication
        var lockFree: SnapshotReader
        var mutex: MutexReader

        /// The snapshot for the next event (reloaded only if a newer one was published).
        @inline(__always)
        mutating func current() -> MatcherSnapshot {
            publication == .mutex ? mutex.current() : lockFree.current()
        }

        /// Whether the snapshot last returned is still the newest (per event: one atomic load, or a lock round trip).
        @inline(__always)
        func isCurrent() -> Bool {
            publication == .mutex ? mutex.isCurrent() : lockFree.isCurrent()
        }
    }
}

import Foundation
import Synchronization
import TriggerKit

/// Where reader threads get their matcher from, per publication mode.
final class ReaderSource: Sendable {
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

    func makeReader() -> SourceReader {
        SourceReader(publication: publication, lockFree: lockFree.makeReader(), mutex: mutex.makeReader())
    }
}

/// One reader thread's handle on a `ReaderSource`. A struct with both readers (not an enum), so
/// checking mutates in place and never copies, i.e. never retains, the cached snapshot.
struct SourceReader {
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

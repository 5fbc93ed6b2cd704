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

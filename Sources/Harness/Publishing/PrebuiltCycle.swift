import Synchronization
import TriggerKit

/// The matchers a `--prebuilt-sets` writer publishes in turn.
final class PrebuiltCycle: Sendable {
    let built: [any Matcher]
    private let position = Atomic<Int>(0)

    init(_ built: [any Matcher]) { self.built = built }

    func next() -> any Matcher {
        // Relaxed: a round-robin position; the matchers were built before the writer thread started.
        built[position.add(1, ordering: .relaxed).oldValue % built.count]
    }
}

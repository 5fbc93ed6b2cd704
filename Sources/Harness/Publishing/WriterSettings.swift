/// What a publication row's writer publishes every `everyMs` milliseconds (docs/harness.md).
package struct WriterSettings: Sendable, Equatable {
    package enum Mode: Sendable, Equatable {
        /// A freshly built matcher of the whole set each time.
        case rebuild
        /// The next of 4 matchers built before the run: what switching snapshots costs readers, apart
        /// from the CPU the writer's builds take from them.
        case prebuilt
        /// The snapshot after the next `BenchDeltas` delta of this many triggers.
        case deltas(triggers: Int)
    }

    package var everyMs: Int
    package var mode: Mode

    package init(everyMs: Int, mode: Mode = .rebuild) {
        self.everyMs = everyMs
        self.mode = mode
    }

    package var deltaTriggers: Int? {
        if case .deltas(let n) = mode { return n }
        return nil
    }
}

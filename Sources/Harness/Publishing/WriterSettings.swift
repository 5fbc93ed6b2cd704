/// What a publication row's writer publishes every `everyMs` milliseconds (docs/harness.md).
public struct WriterSettings: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        /// A freshly built matcher of the whole set each time.
        case rebuild
        /// The next of 4 matchers built before the run: what switching snapshots costs readers, apart
        /// from the CPU the writer's builds take from them.
        case prebuilt
        /// The snapshot after the next `BenchDeltas` delta of this many triggers.
        case deltas(triggers: Int)
    }

    public var everyMs: Int
    public var mode: Mode

    public init(everyMs: Int, mode: Mode = .rebuild) {
        self.everyMs = everyMs
        self.mode = mode
    }

    public var deltaTriggers: Int? {
        if case .deltas(let n) = mode { return n }
        return nil
    }
}

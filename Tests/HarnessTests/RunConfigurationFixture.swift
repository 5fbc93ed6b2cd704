import Harness
import TriggerKit
import Workload

extension RunConfiguration {
    /// A run small enough for a unit test: `events` events each for warm-up, the allocation pass and
    /// `reference` (unless given apart), no single-event latency or cold pass, one repetition unless
    /// told, and passes of one replay with no warm-up before each (TimedPassTests times those).
    static func small(_ spec: WorkloadSpec, strategies: [String] = StrategyRegistry.names, events: Int,
                      referenceEvents: Int? = nil, repetitions: Int = 1) -> RunConfiguration {
        small(.generated(spec), strategies: strategies, events: events, referenceEvents: referenceEvents, repetitions: repetitions)
    }

    static func small(_ input: InputSource, strategies: [String] = StrategyRegistry.names, events: Int,
                      referenceEvents: Int? = nil, repetitions: Int = 1) -> RunConfiguration {
        var c = RunConfiguration(input: input)
        c.strategies = try! strategies.map(RunStrategy.builtIn)
        c.repetitions = repetitions
        c.warmupEvents = events
        c.allocationEvents = events
        c.referenceEvents = referenceEvents ?? events
        c.latencyEvents = 0
        c.coldEvents = 0
        c.passSeconds = 0
        c.warmupSeconds = 0
        return c
    }
}

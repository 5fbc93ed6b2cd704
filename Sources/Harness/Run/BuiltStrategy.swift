import TriggerKit

/// One strategy built for a run, with what is measured once per strategy rather than per row: the
/// build, what the matcher and a scratch hold, allocations per event, single-event latency, and its
/// matches over the reference prefix.
struct BuiltStrategy {
    let strategy: StrategyRegistry.Strategy
    let matcher: any Matcher
    /// Events its rows replay (`reference` replays only the prefix).
    let count: Int
    let memory: MemoryFigures
    let latency: EventLatency?
    /// Its matches over the first `referenceEvents` events, for the cross-check.
    let prefix: MatchChecksum
    /// The scratches the prefix and latency passes used: a foreign matcher's ABI faults are counted in them.
    let untimedScratches: [MatchScratch]
    /// jemalloc's process gauges right after the build.
    let gaugesAfterBuild: AllocatorStats.Gauges

    var name: String { strategy.name }

    /// `progress` is told each pass as it starts: the periodic "(working)" line names the pass under way.
    init(_ strategy: StrategyRegistry.Strategy, input: LoadedInput, configuration: RunConfiguration, clock: CycleClock,
         progress: ProgressLine = ProgressLine(enabled: false)) throws {
        self.strategy = strategy
        let events = input.events
        let referenceEvents = min(configuration.referenceEvents, events.count)
        progress.status("building \(strategy.name): checking that its matcher fits the memory left")
        try BuildRoom.check(strategy, set: input.set, file: input.workload.data?.corpus.path)
        progress.status("building \(strategy.name) for \(input.set.triggers.count) triggers")
        let heldBefore = AllocatorStats.threadNetBytes()
        let buildStart = Clock.now()
        let matcher = try strategy.make(input.set, input.vocabulary)
        var buildSeconds = Clock.seconds(since: buildStart)
        var matcherBytes = AllocatorStats.threadNetBytes() - heldBefore
        let host = (matcher as? HostBuildShare)?.hostShare
        if let host {
            buildSeconds = max(0, buildSeconds - host.seconds)
            matcherBytes -= host.bytes
        }
        gaugesAfterBuild = AllocatorStats.gauges()
        self.matcher = matcher
        count = strategy.name == ReferenceMatcher.strategyName ? referenceEvents : events.count
        let scratchBefore = AllocatorStats.threadNetBytes()
        let latencyScratch = matcher.makeScratch(for: events)
        let scratchBytes = AllocatorStats.threadNetBytes() - scratchBefore
        let latencyCount = min(configuration.latencyEvents, count)
        if latencyCount > 0 { progress.status("\(strategy.name): timing \(latencyCount) single events") }
        latency = latencyCount == 0 ? nil : events.withView { view in
            EventLatency.measure(matcher, view: view, scratch: latencyScratch, count: latencyCount, clock: clock) { done in
                progress.update("\(strategy.name): timing single events", done, latencyCount)
            }
        }
        progress.status("\(strategy.name): matching the first \(referenceEvents) events for the cross-check")
        let prefixScratch = matcher.makeScratch(for: events)
        prefix = events.withView { ReplayLoop.checksum(matcher, $0, 0..<referenceEvents, prefixScratch) }
        untimedScratches = [prefixScratch, latencyScratch]
        // A plugin that breaks its ABI is refused before anything else is measured of it.
        try (matcher as? any ForeignMatcher)?.checkEntryPoints(name: strategy.name, prefix: prefix, untimedScratches: untimedScratches,
                                                               events: events, referenceEvents: configuration.referenceEvents)
        progress.status("\(strategy.name): counting allocations per event")
        let allocations = Self.measureAllocations(matcher, events, count: min(configuration.allocationEvents, count))
        memory = MemoryFigures(allocationsPerEvent: allocations.count, bytesPerEvent: allocations.bytes, buildSeconds: buildSeconds,
                               matcherBytes: matcherBytes, scratchBytes: scratchBytes, hostBuildSeconds: host?.seconds, hostBytes: host?.bytes)
    }

    /// Exact allocations and bytes per event in steady state: a warm pass, then a counted pass over the
    /// same events with the thread cache flushed around it (docs/measuring.md).
    static func measureAllocations(_ m: some Matcher, _ events: EventColumns, count: Int) -> (count: Double, bytes: Double) {
        guard count > 0 else { return (0, 0) }
        let scratch = m.makeScratch(for: events)
        return events.withView { view in
            ReplayLoop.matchOnly(m, view, 0..<count, scratch)
            let counted = AllocatorStats.counting { ReplayLoop.matchOnly(m, view, 0..<count, scratch) }
            return (Double(counted.requests) / Double(count), Double(counted.bytes) / Double(count))
        }
    }
}

import Foundation
import Histogram
import TriggerKit
import Workload

/// A delta writer's first state, kept for the run: each repetition's writer restarts from it (on the
/// writer thread, one at a time; `restarted()` only reads it).
final class WriterTemplate: @unchecked Sendable {
    let writer: any TriggerSetWriter
    init(_ writer: any TriggerSetWriter) { self.writer = writer }
}

/// Builds the workload once and replays it through every requested strategy and thread count.
public final class Runner {
    public let configuration: RunConfiguration
    let progress: ProgressLine

    public init(_ configuration: RunConfiguration) {
        self.configuration = configuration
        progress = ProgressLine(enabled: configuration.showProgress, prefix: configuration.progressPrefix)
    }

    public func run() throws -> RunReport {
        var noise = RunMetadata.Noise.read()
        for warning in noise.warnings(cores: ProcessInfo.processInfo.activeProcessorCount) { progress.note("warning: \(warning)") }
        let clock = CycleClock.calibrate()
        let input = try RunInput.load(configuration, progress: progress)
        let set = input.set, vocabulary = input.vocabulary, events = input.events
        let strategies = try configuration.strategies.map(StrategyRegistry.option)
            + (configuration.plugins.isEmpty ? [] : { let json = input.corpusJSON(); return configuration.plugins.map { $0.strategy(corpusJSON: json) } }())
        let afterGeneration = AllocatorStats.gauges()
        var afterBuild: [String: AllocatorStats.Gauges] = [:]
        var results: [StrategyResult] = []
        let referenceEvents = min(configuration.referenceEvents, events.count)
        var prefixChecksums: [String: MatchChecksum] = [:]
        var measurements: [Measurement] = []
        for strategy in strategies {
            let name = strategy.name
            let heldBefore = AllocatorStats.threadNetBytes()
            let buildStart = Clock.now()
            let matcher = try strategy.make(set, vocabulary)
            let buildSeconds = Clock.seconds(since: buildStart)
            let matcherBytes = AllocatorStats.threadNetBytes() - heldBefore
            afterBuild[name] = AllocatorStats.gauges()
            let count = name == ReferenceMatcher.strategyName ? referenceEvents : events.count
            let scratchBefore = AllocatorStats.threadNetBytes()
            let latencyScratch = matcher.makeScratch(for: events)
            let scratchBytes = AllocatorStats.threadNetBytes() - scratchBefore
            let latencyCount = min(configuration.latencyEvents, count)
            let latency = latencyCount == 0 ? nil : events.withView { view in
                EventLatency.measure(matcher, view: view, scratch: latencyScratch, count: latencyCount, clock: clock)
            }
            // Every strategy's matches over the reference prefix, for the cross-check.
            let prefixScratch = matcher.makeScratch(for: events)
            prefixChecksums[name] = events.withView { view in
                Self.checksum(matcher, view, 0..<referenceEvents, prefixScratch)
            }
            try checkPlugin(matcher, name: name, events: events, prefix: prefixChecksums[name]!, scratches: [prefixScratch, latencyScratch])
            let allocations = measureAllocations(matcher, events, count: min(configuration.allocationEvents, count))
            for publication in configuration.publications {
                for threads in configuration.threads {
                    let m = try prepare(matcher, strategy: strategy, events: events, count: count, threads: threads,
                                        publication: publication, set: set, vocabulary: vocabulary)
                    m.allocations = allocations
                    m.buildSeconds = buildSeconds
                    m.matcherBytes = matcherBytes
                    m.scratchBytes = scratchBytes
                    // Single events are timed on one thread without publication: only that row shows them.
                    if threads == 1, publication == .none { m.latency = latency }
                    measurements.append(m)
                }
            }
        }
        for repetition in 0..<configuration.repetitions {
            for m in measurements {
                repeatOnce(m, repetition: repetition)
                if let failure = m.writer?.failed {
                    throw InputError(file: m.strategy, path: "", reason: "building a matcher to publish failed: \(failure)")
                }
            }
        }
        for m in measurements { results.append(try finish(m)) }
        if !configuration.plugins.isEmpty, prefixChecksums[ReferenceMatcher.strategyName] == nil {
            // A plugin is always checked against the oracle, even when no built-in row would catch it.
            progress.note("checking the plugins against reference over the first \(referenceEvents) events")
            let oracle = ReferenceMatcher(set)
            prefixChecksums[ReferenceMatcher.strategyName] = events.withView { view in
                Self.checksum(oracle, view, 0..<referenceEvents, oracle.makeScratch(for: events))
            }
        }
        try verify(results, prefixChecksums: prefixChecksums, referenceEvents: referenceEvents)
        Self.addRatios(&results)
        progress.note("")
        noise.loadAfter = RunMetadata.Noise.loadAverage()
        let git = RunMetadata.gitState()
        let run = RunMetadata(
            timestamp: RunMetadata.timestamp(), commit: git.commit, dirty: git.dirty, label: configuration.label,
            host: RunMetadata.hostName(), command: CommandLine.arguments, settings: configuration.settings(events: events.count), noise: noise)
        return RunReport(
            build: BuildInfo.configuration, environment: .current(), workload: input.workload, results: results,
            run: run, jemalloc: .init(afterGeneration: afterGeneration, afterBuild: afterBuild, end: AllocatorStats.gauges()))
    }

    /// What the writer publishes: a freshly built matcher each time, (`prebuiltSets`) the next of 4 built
    /// before the run, or (`deltaTriggers`) the snapshot after the next `BenchDeltas` delta, from a writer
    /// made on the writer thread for each repetition; always a different object from the one readers hold.
    func builder(_ strategy: StrategyRegistry.Strategy, _ set: TriggerSet, _ vocabulary: Vocabulary, template: WriterTemplate?) throws -> @Sendable () throws -> WriterStep {
        let make = strategy.make
        if let template, let n = configuration.deltaTriggers {
            return {
                let writer = template.writer.restarted()
                var deltas = BenchDeltas(set, triggers: n)
                // One delta untimed and unpublished: the writer's first interning copies the table it
                // shares with the events, a cost of starting, not of a delta.
                try writer.apply(deltas.next())
                return WriterStep(next: { try writer.apply(deltas.next()) }, rebuilds: { writer.rebuilds })
            }
        }
        guard configuration.prebuiltSets else {
            return {
                var count = 0
                return WriterStep(next: { count += 1; return try make(set, vocabulary) }, rebuilds: { count })
            }
        }
        let cycle = PrebuiltCycle(try (0..<4).map { _ in try make(set, vocabulary) })
        return { WriterStep(next: { cycle.next() }, rebuilds: { 0 }) }
    }

    /// Order-independent checksum of the matches over `range` (untimed).
    static func checksum(_ m: some Matcher, _ view: EventView, _ range: Range<Int>, _ scratch: MatchScratch) -> MatchChecksum {
        var sum = MatchChecksum()
        for i in range {
            m.match(i, in: view, scratch: scratch)
            sum.add(matchesOf: i, in: scratch)
        }
        return sum
    }

    /// Exact allocations and bytes per event in steady state: a warm pass, then a counted pass over the
    /// same events with the thread cache flushed around it (docs/measuring.md).
    func measureAllocations(_ m: some Matcher, _ events: EventColumns, count: Int) -> (count: Double, bytes: Double) {
        guard count > 0 else { return (0, 0) }
        let scratch = m.makeScratch(for: events)
        return events.withView { view in
            for i in 0..<count { m.match(i, in: view, scratch: scratch) }
            let counted = AllocatorStats.counting {
                for i in 0..<count { m.match(i, in: view, scratch: scratch) }
            }
            return (Double(counted.requests) / Double(count), Double(counted.bytes) / Double(count))
        }
    }

    /// One (strategy, publication, threads) configuration of a run: its readers, source and writer,
    /// and what its repetitions measured so far.
    final class Measurement {
        let strategy: String, publication: Publication, threads: Int, count: Int
        let workers: [ReaderWorker]
        let source: ReaderSource
        let writer: Publisher?
        let initial: any Matcher
        let label: String
        var allocations: (count: Double, bytes: Double) = (0, 0)
        var buildSeconds = 0.0
        var matcherBytes = 0, scratchBytes = 0
        var latency: EventLatency?
        var wall = 0.0, publications = 0, rebuildSeconds = 0.0, rebuildCPUSeconds = 0.0, fullRebuilds = 0
        var heapGrowth = 0
        var heapBefore: Int?
        var samples: [Double] = []
        var repetitionChecksums: Set<String> = []

        /// `writerBuild` is nil when nothing is published (publication `none`, or no `--publish-every-ms`).
        init(_ matcher: any Matcher, strategy: String, count: Int, threads: Int, publication: Publication,
             events: EventColumns, writerBuild: (@Sendable () throws -> WriterStep)?, everyMs: Int?) {
            self.strategy = strategy
            self.publication = publication
            self.threads = threads
            self.count = count
            initial = matcher
            let slices = (0..<threads).map { t in (count * t / threads)..<(count * (t + 1) / threads) }
            workers = slices.map { ReaderWorker(range: $0, matcher: matcher, events: events) }
            let source = ReaderSource(publication: publication, matcher: matcher)
            self.source = source
            writer = everyMs.flatMap { ms in writerBuild.map { Publisher(everyMs: ms, source: source, makeStep: $0) } }
            label = "\(strategy) \(publication.rawValue) ×\(threads)"
        }
    }

    /// Creates and warms a configuration's readers (untimed: memo tables, caches, branch predictors). With
    /// deltas, readers start from the writer's first snapshot, so the snapshots after it (which share its
    /// base) keep their scratches warm.
    func prepare(_ plain: any Matcher, strategy: StrategyRegistry.Strategy, events: EventColumns, count: Int, threads: Int,
                 publication: Publication, set: TriggerSet, vocabulary: Vocabulary) throws -> Measurement {
        let publishing = publication != .none && configuration.publishEveryMs != nil
        let template = publishing && configuration.deltaTriggers != nil
            ? WriterTemplate(try strategy.makeWriter(set, vocabulary, events.symbols)) : nil
        let matcher = template?.writer.matcher ?? plain
        let m = Measurement(matcher, strategy: strategy.name, count: count, threads: threads, publication: publication, events: events,
                            writerBuild: publishing ? try builder(strategy, set, vocabulary, template: template) : nil,
                            everyMs: configuration.publishEveryMs)
        let warmup = min(configuration.warmupEvents, count)
        events.withView { view in
            let scratch = matcher.makeScratch(for: events)
            for i in 0..<warmup { matcher.match(i, in: view, scratch: scratch) }
        }
        return m
    }

    /// One timed repetition of `m`. The run interleaves repetitions (every configuration's first, then every
    /// configuration's second, …), so a machine whose speed drifts over tens of seconds slows all of them
    /// alike instead of whichever configuration ran during the slow spell.
    func repeatOnce(_ m: Measurement, repetition: Int) {
        let repLabel = configuration.repetitions > 1 ? "\(m.label) #\(repetition + 1)" : m.label
        let counter = ProgressCounter()
        // Heap in use before the writer starts and after it stopped and the source went back to the
        // initial matcher: with every replaced set freed, the two are equal.
        let heapBefore = m.writer == nil ? nil : AllocatorStats.allocatedBytes()
        m.writer?.start()
        let wallStart = Clock.now()
        if m.threads == 1 {
            m.workers[0].run(source: m.source, batchSize: configuration.batchSize, counter: counter, progress: { [progress] in
                progress.update(repLabel, counter.value, m.count)
            })
        } else {
            let group = DispatchGroup()
            let source = m.source
            for w in m.workers {
                let thread = Thread { [configuration] in
                    w.run(source: source, batchSize: configuration.batchSize, counter: counter, progress: nil)
                    group.leave()
                }
                thread.stackSize = 1 << 22
                group.enter()
                thread.start()
            }
            while group.wait(timeout: .now() + 0.25) == .timedOut { progress.update(repLabel, counter.value, m.count) }
        }
        let seconds = Clock.seconds(since: wallStart)
        if let (sets, building, buildingCPU, rebuilds) = m.writer?.stop() {
            m.publications += sets
            m.fullRebuilds += rebuilds
            m.rebuildSeconds += building
            m.rebuildCPUSeconds += buildingCPU
            m.source.publish(m.initial)
            // Readers move back to the initial matcher's scratch, so one a delta snapshot needed is not
            // counted as heap the writer failed to give back.
            for w in m.workers { w.adopt(m.initial) }
            if let heapBefore {
                m.heapBefore = m.heapBefore ?? heapBefore
                m.heapGrowth += AllocatorStats.allocatedBytes() - heapBefore
            }
        }
        m.wall += seconds
        m.samples.append(seconds * 1e9 / Double(m.count))
        var sum = MatchChecksum()
        for w in m.workers { sum.merge(w.checksum) }
        m.repetitionChecksums.insert(sum.hex)
    }

    /// The result of a configuration after all its repetitions.
    func finish(_ m: Measurement) throws -> StrategyResult {
        for w in m.workers {
            let invalid = PluginMatcher.invalidResults(in: w.scratch)
            if invalid.count > 0 {
                throw ChecksumMismatch(description: "\(m.label): the plugin broke its ABI \(invalid.count) times in the timed run (first value: \(invalid.first): a trigger index outside 0..<\(m.initial.triggerSet.triggers.count), a bad count or end offset, or a batch without progress)")
            }
        }
        if m.repetitionChecksums.count > 1 {
            throw ChecksumMismatch(description: "\(m.label): repetitions of the same run produced different checksums \(m.repetitionChecksums.sorted())")
        }
        var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 100_000_000_000_000, numberOfSignificantValueDigits: .three)
        var checksum = MatchChecksum()
        var candidates = 0
        var cpu = 0.0
        for w in m.workers {
            histogram.add(w.histogram)
            checksum.merge(w.checksum)
            candidates += w.candidates
            cpu += w.cpuSeconds
        }
        let ns = { (p: Double) in Double(histogram.valueAtPercentile(p)) / 1000 }
        let deltaTriggers: Int? = m.writer == nil ? nil : configuration.deltaTriggers
        let fullRebuilds: Int? = m.writer == nil ? nil : m.fullRebuilds
        let count = m.count
        return StrategyResult(
            strategy: m.strategy, publication: m.publication, threads: m.threads, events: count, matches: checksum.matches,
            checksum: checksum.hex, eventsPerSecond: Double(count * configuration.repetitions) / m.wall,
            nsPerEvent: .init(mean: histogram.mean / 1000, p50: ns(50), p90: ns(90), p99: ns(99), p999: ns(99.9),
                              max: Double(histogram.max) / 1000),
            allocationsPerEvent: m.allocations.count, bytesPerEvent: m.allocations.bytes, jemalloc: nil,
            matchesPerEvent: Double(checksum.matches) / Double(count), candidatesPerEvent: Double(candidates) / Double(count),
            cpuSeconds: cpu, wallSeconds: m.wall, speedupVsReference: nil, ratioToFloor: nil, buildSeconds: m.buildSeconds,
            publications: m.writer == nil ? nil : m.publications,
            rebuildMsPerPublication: m.writer == nil || m.publications == 0 ? nil : m.rebuildSeconds * 1000 / Double(m.publications),
            rebuildCpuMsPerPublication: m.writer == nil || m.publications == 0 ? nil : m.rebuildCPUSeconds * 1000 / Double(m.publications),
            deltaTriggers: deltaTriggers, fullRebuilds: fullRebuilds,
            perThreadEventsPerSecond: m.threads > 1 ? m.workers.map { Double($0.range.count) / $0.wallSeconds } : nil,
            nsPerEventSamples: configuration.repetitions > 1 ? m.samples : nil, instructionsPerEvent: nil,
            heapBytesBeforePublishing: m.heapBefore, heapBytesAfterPublishing: m.heapBefore.map { $0 + m.heapGrowth },
            meanCi95: Bootstrap.interval(m.samples, statistic: Bootstrap.mean), latencyNs: m.latency,
            matcherBytes: m.matcherBytes, scratchBytes: m.scratchBytes)
    }

    /// A plugin's two entry points must agree (`match` serves the prefix and single events, `match_batch`
    /// the timed unpublished rows), and neither may break the ABI.
    func checkPlugin(_ matcher: any Matcher, name: String, events: EventColumns, prefix: MatchChecksum, scratches: [MatchScratch]) throws {
        guard let plugin = matcher as? PluginMatcher else { return }
        let batchScratch = matcher.makeScratch(for: events)
        var batched = MatchChecksum()
        let n = min(configuration.referenceEvents, events.count)
        events.withView { plugin.matchBatch(0..<n, in: $0, scratch: batchScratch, into: &batched) }
        for (entry, scratch) in zip(["match", "match", "match_batch"], scratches + [batchScratch]) {
            let invalid = PluginMatcher.invalidResults(in: scratch)
            if invalid.count > 0 {
                throw ChecksumMismatch(description: "\(name): its \(entry) broke the plugin ABI \(invalid.count) times (first: \(invalid.first), a trigger index outside 0..<\(matcher.triggerSet.triggers.count), a count outside 0...\(matcher.triggerSet.triggers.count) or, from match_batch, a bad end offset or no progress); run bench conform --plugin \(plugin.library.path)")
            }
        }
        if batched != prefix {
            throw ChecksumMismatch(description: "\(name): match and match_batch disagree over the first \(n) events (checksums \(prefix.hex) and \(batched.hex)); run bench conform --plugin \(plugin.library.path)")
        }
    }

    /// Every strategy that evaluates must report the same matches: over the reference prefix against
    /// `reference`, and over the full run against each other (every thread count and publication).
    func verify(_ results: [StrategyResult], prefixChecksums: [String: MatchChecksum], referenceEvents: Int) throws {
        let evaluating = prefixChecksums.filter { $0.key != FloorMatcher.strategyName }
        if let oracle = evaluating[ReferenceMatcher.strategyName] {
            for (name, sum) in evaluating where sum != oracle {
                let hint = name.hasPrefix(PluginLibrary.strategyPrefix) ? "run bench conform --plugin on it to see the events" : "run the differential tests to find the event"
                throw ChecksumMismatch(description: "strategy \(name) disagrees with reference over the first \(referenceEvents) events: checksum \(sum.hex) (\(sum.matches) matches) vs \(oracle.hex) (\(oracle.matches) matches); \(hint)")
            }
        }
        let full = results.filter { $0.strategy != FloorMatcher.strategyName && $0.strategy != ReferenceMatcher.strategyName }
        if let first = full.first, let other = full.first(where: { $0.checksum != first.checksum || $0.matches != first.matches }) {
            throw ChecksumMismatch(description: "\(other.strategy) (\(other.publication.rawValue), \(other.threads) threads) checksum \(other.checksum) ≠ \(first.strategy) (\(first.publication.rawValue), \(first.threads) threads) \(first.checksum)")
        }
    }
}

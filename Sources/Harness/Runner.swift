import Foundation
import Histogram
import TriggerKit
import Workload

/// What `bench run` measures (docs/harness.md).
public struct RunConfiguration: Sendable {
    public var workload: WorkloadSpec
    public var strategies: [String] = StrategyRegistry.names
    public var threads: [Int] = [1]
    public var publications: [Publication] = [.none]
    /// A writer republishes a freshly built trigger set this often while readers match (nil: never).
    public var publishEveryMs: Int?
    /// The writer cycles through 4 matchers built up front instead of building one per publication
    /// (isolates the readers' cost of switching snapshots from the writer's CPU).
    public var prebuiltSets = false
    /// `reference` is slow by design: it replays only this many events (the others are checked against
    /// it on the same prefix).
    public var referenceEvents = 50_000
    public var batchSize = 1024
    public var warmupEvents = 100_000
    /// Events in the untimed allocation-counting pass (after a warm pass over the same events).
    public var allocationEvents = 50_000
    /// Timed passes per row; each pass's mean ns/event is one sample for the gate's wall-clock tier.
    public var repetitions = 1
    public var showProgress = false

    public init(workload: WorkloadSpec) { self.workload = workload }
}

/// How readers obtain the trigger set (docs/strategies.md): a plain shared matcher, a lock-free snapshot, or a mutex.
public enum Publication: String, Sendable, CaseIterable, Codable {
    case none
    case lockFree = "lock-free"
    case mutex
}

/// Strategies disagreed: a correctness bug (exit 1, docs/semantics.md "Exit codes").
public struct ChecksumMismatch: Error, CustomStringConvertible {
    public let description: String
}

/// Builds the workload once and replays it through every requested strategy and thread count.
public final class Runner {
    public let configuration: RunConfiguration
    let progress: ProgressLine

    public init(_ configuration: RunConfiguration) {
        self.configuration = configuration
        progress = ProgressLine(enabled: configuration.showProgress)
    }

    public func run() throws -> RunReport {
        let spec = configuration.workload
        try spec.checkReplayBuffersFit(events: spec.events, file: "workload \(spec.name)")
        progress.note("generating \(spec.name): \(spec.triggers + spec.crowdedTriggers) triggers, \(spec.events) events")
        let set = try WorkloadGenerator.corpus(spec)
        let vocabulary = Vocabulary(set)
        let events = WorkloadGenerator.events(spec, vocabulary: vocabulary) { [progress] n in
            progress.update("generating events", n, spec.events)
        }
        progress.note("")
        var results: [StrategyResult] = []
        let referenceEvents = min(configuration.referenceEvents, events.count)
        var prefixChecksums: [String: MatchChecksum] = [:]
        var measurements: [Measurement] = []
        for name in configuration.strategies {
            let strategy = try StrategyRegistry.option(name)
            let buildStart = Clock.now()
            let matcher = strategy.make(set, vocabulary)
            let buildSeconds = Clock.seconds(since: buildStart)
            let count = name == ReferenceStrategy.strategyName ? referenceEvents : events.count
            // Every strategy's matches over the reference prefix, for the cross-check.
            prefixChecksums[name] = events.withView { view in
                Self.checksum(matcher, view, 0..<referenceEvents, matcher.makeScratch(for: events))
            }
            let allocations = measureAllocations(matcher, events, count: min(configuration.allocationEvents, count))
            for publication in configuration.publications {
                for threads in configuration.threads {
                    let m = prepare(matcher, strategy: name, events: events, count: count, threads: threads,
                                    publication: publication, set: set, vocabulary: vocabulary)
                    m.allocations = allocations
                    m.buildSeconds = buildSeconds
                    measurements.append(m)
                }
            }
        }
        for repetition in 0..<configuration.repetitions {
            for m in measurements { repeatOnce(m, repetition: repetition) }
        }
        for m in measurements { results.append(try finish(m)) }
        try verify(results, prefixChecksums: prefixChecksums, referenceEvents: referenceEvents)
        Self.addRatios(&results)
        progress.note("")
        return RunReport(
            build: BuildInfo.configuration, environment: .current(), workload: .init(spec, events: events.count), results: results)
    }

    /// What the writer publishes: a freshly built matcher each time, or (`prebuiltSets`) the next of 4
    /// built before the run; always a different object from the one readers hold.
    func builder(_ strategy: String, _ set: TriggerSet, _ vocabulary: Vocabulary) -> @Sendable () -> any Matcher {
        let make = StrategyRegistry.named(strategy)!.make
        guard configuration.prebuiltSets else { return { make(set, vocabulary) } }
        let cycle = PrebuiltCycle((0..<4).map { _ in make(set, vocabulary) })
        return { cycle.next() }
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
        var wall = 0.0, publications = 0, rebuildSeconds = 0.0, rebuildCPUSeconds = 0.0
        var heapGrowth = 0
        var heapBefore: Int?
        var samples: [Double] = []
        var repetitionChecksums: Set<String> = []

        /// `writerBuild` is nil when nothing is published (publication `none`, or no `--publish-every-ms`).
        init(_ matcher: any Matcher, strategy: String, count: Int, threads: Int, publication: Publication,
             events: EventColumns, writerBuild: (@Sendable () -> any Matcher)?, everyMs: Int?) {
            self.strategy = strategy
            self.publication = publication
            self.threads = threads
            self.count = count
            initial = matcher
            let slices = (0..<threads).map { t in (count * t / threads)..<(count * (t + 1) / threads) }
            workers = slices.map { ReaderWorker(range: $0, matcher: matcher, events: events) }
            let source = ReaderSource(publication: publication, matcher: matcher)
            self.source = source
            writer = everyMs.flatMap { ms in writerBuild.map { Publisher(everyMs: ms, source: source, build: $0) } }
            label = "\(strategy) \(publication.rawValue) ×\(threads)"
        }
    }

    /// Creates and warms a configuration's readers (untimed: memo tables, caches, branch predictors).
    func prepare(_ matcher: some Matcher, strategy: String, events: EventColumns, count: Int, threads: Int,
                 publication: Publication, set: TriggerSet, vocabulary: Vocabulary) -> Measurement {
        let m = Measurement(matcher, strategy: strategy, count: count, threads: threads, publication: publication, events: events,
                            writerBuild: publication == .none || configuration.publishEveryMs == nil ? nil : builder(strategy, set, vocabulary),
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
        if let (sets, building, buildingCPU) = m.writer?.stop() {
            m.publications += sets
            m.rebuildSeconds += building
            m.rebuildCPUSeconds += buildingCPU
            m.source.publish(m.initial)
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
        let count = m.count
        return StrategyResult(
            strategy: m.strategy, publication: m.publication, threads: m.threads, events: count, matches: checksum.matches,
            checksum: checksum.hex, eventsPerSecond: Double(count * configuration.repetitions) / m.wall,
            nsPerEvent: .init(mean: histogram.mean / 1000, p50: ns(50), p90: ns(90), p99: ns(99), p999: ns(99.9),
                              max: Double(histogram.max) / 1000),
            allocationsPerEvent: m.allocations.count, bytesPerEvent: m.allocations.bytes, jemalloc: AllocatorStats.gauges(),
            matchesPerEvent: Double(checksum.matches) / Double(count), candidatesPerEvent: Double(candidates) / Double(count),
            cpuSeconds: cpu, wallSeconds: m.wall, speedupVsReference: nil, ratioToFloor: nil, buildSeconds: m.buildSeconds,
            publications: m.writer == nil ? nil : m.publications,
            rebuildMsPerPublication: m.writer == nil || m.publications == 0 ? nil : m.rebuildSeconds * 1000 / Double(m.publications),
            rebuildCpuMsPerPublication: m.writer == nil || m.publications == 0 ? nil : m.rebuildCPUSeconds * 1000 / Double(m.publications),
            perThreadEventsPerSecond: m.threads > 1 ? m.workers.map { Double($0.range.count) / $0.wallSeconds } : nil,
            nsPerEventSamples: configuration.repetitions > 1 ? m.samples : nil, instructionsPerEvent: nil,
            heapBytesBeforePublishing: m.heapBefore, heapBytesAfterPublishing: m.heapBefore.map { $0 + m.heapGrowth })
    }

    /// Every strategy that evaluates must report the same matches: over the reference prefix against
    /// `reference`, and over the full run against each other (every thread count and publication).
    func verify(_ results: [StrategyResult], prefixChecksums: [String: MatchChecksum], referenceEvents: Int) throws {
        let evaluating = prefixChecksums.filter { $0.key != FloorMatcher.strategyName }
        if let oracle = evaluating[ReferenceStrategy.strategyName] {
            for (name, sum) in evaluating where sum != oracle {
                throw ChecksumMismatch(description: "strategy \(name) disagrees with reference over the first \(referenceEvents) events: checksum \(sum.hex) (\(sum.matches) matches) vs \(oracle.hex) (\(oracle.matches) matches); run the differential tests to find the event")
            }
        }
        let full = results.filter { $0.strategy != FloorMatcher.strategyName && $0.strategy != ReferenceStrategy.strategyName }
        if let first = full.first, let other = full.first(where: { $0.checksum != first.checksum || $0.matches != first.matches }) {
            throw ChecksumMismatch(description: "\(other.strategy) (\(other.publication.rawValue), \(other.threads) threads) checksum \(other.checksum) ≠ \(first.strategy) (\(first.publication.rawValue), \(first.threads) threads) \(first.checksum)")
        }
    }

    /// Speed-up versus reference and ratio to floor, comparing like with like (same threads, publication).
    static func addRatios(_ results: inout [StrategyResult]) {
        let all = results
        for k in results.indices {
            let r = results[k]
            let peer = { (name: String) in
                all.first { $0.strategy == name && $0.threads == r.threads && $0.publication == r.publication }
                    ?? all.first { $0.strategy == name }
            }
            if let ref = peer(ReferenceStrategy.strategyName) { results[k].speedupVsReference = ratio(ref, r) }
            if let floor = peer(FloorMatcher.strategyName) { results[k].ratioToFloor = ratio(r, floor) }
        }
    }

    /// `a`'s time per event over `b`'s. With repetitions, the median over repetitions of the ratio within
    /// each: repetitions are interleaved, so repetition k of both ran within seconds of each other, and a
    /// slow spell of a shared host that hits one repetition hits both sides of its ratio (the ratio of
    /// the means let one slow repetition of either side move it). Without, the ratio of the means.
    static func ratio(_ a: StrategyResult, _ b: StrategyResult) -> Double {
        MannWhitney.median(pairedRatios(a, b))
    }

    /// `a`'s ns/event over `b`'s within each repetition, when both ran the same repetitions of one run;
    /// else the one ratio of the means.
    static func pairedRatios(_ a: StrategyResult, _ b: StrategyResult) -> [Double] {
        guard let x = a.nsPerEventSamples, let y = b.nsPerEventSamples, x.count == y.count, !x.isEmpty else {
            return [a.nsPerEvent.mean / b.nsPerEvent.mean]
        }
        return zip(x, y).map { $0 / $1 }
    }
}

/// One reader thread's share of a timed run: a disjoint slice of events, its own scratch and histogram.
final class ReaderWorker: @unchecked Sendable {
    let range: Range<Int>
    let events: EventColumns
    /// Made from the configuration's initial matcher and kept for every snapshot a writer publishes: valid
    /// because the writer publishes matchers built from the same decoded set (same trigger count, regex
    /// slots and largest crowd), and a violation would show as a checksum mismatch. A writer publishing
    /// different sets would need a scratch per snapshot.
    let scratch: MatchScratch
    var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 100_000_000_000_000, numberOfSignificantValueDigits: .three)
    var checksum = MatchChecksum()
    var candidates = 0
    var cpuSeconds = 0.0
    var wallSeconds = 0.0

    init(range: Range<Int>, matcher: some Matcher, events: EventColumns) {
        self.range = range
        self.events = events
        scratch = matcher.makeScratch(for: events)
    }

    /// Replays the slice in batches; each batch's time divided by its size is one histogram sample
    /// (in picoseconds per event), since timing each event alone would cost more than matching it.
    func run(source: ReaderSource, batchSize: Int, counter: ProgressCounter, progress: (() -> Void)?) {
        let cpuStart = Clock.threadCPUSeconds()
        let wallStart = Clock.now()
        scratch.candidates = 0
        // A local checksum: a class property would pay a dynamic exclusivity check per match.
        var sum = MatchChecksum()
        events.withView { view in
            var reader = source.makeReader()
            var i = range.lowerBound
            var batches = 0
            while i < range.upperBound {
                let stop = min(i + batchSize, range.upperBound)
                let t0 = Clock.now()
                if source.publication == .none {
                    sum = replay(source.plain, view, i..<stop, sum)
                } else {
                    // Each event is matched with the newest snapshot: before every event the reader checks
                    // the version, and a published set is used from the next event on.
                    var e = i
                    while e < stop {
                        let snapshot = reader.current()
                        (e, sum) = replayWhileCurrent(snapshot.matcher, view, e, stop, reader, sum)
                    }
                }
                let t1 = Clock.now()
                _ = histogram.record((t1 &- t0) &* 1000 / UInt64(stop - i))
                i = stop
                batches += 1
                if batches & 255 == 0 {
                    counter.add(256 * batchSize)
                    progress?()
                }
            }
        }
        checksum = sum
        candidates = scratch.candidates
        cpuSeconds += Clock.threadCPUSeconds() - cpuStart
        wallSeconds = Clock.seconds(since: wallStart)
    }

    /// The publication loop: matches from `start` while the reader's snapshot stays the newest, checking
    /// before each event after the first; returns where it stopped. Opening the matcher once per call
    /// keeps reference counting (a shared cache line) out of the per-event path.
    @inline(__always)
    func replayWhileCurrent<M: Matcher>(_ matcher: M, _ view: EventView, _ start: Int, _ stop: Int, _ reader: SourceReader,
                                        _ initial: MatchChecksum) -> (Int, MatchChecksum) {
        var sum = initial
        let scratch = self.scratch
        var e = start
        repeat {
            matcher.match(e, in: view, scratch: scratch)
            sum.add(matchesOf: e, in: scratch)
            e += 1
        } while e < stop && reader.isCurrent()
        return (e, sum)
    }

    /// The inner loop, specialised per strategy (no existential dispatch per event).
    @inline(__always)
    func replay<M: Matcher>(_ matcher: M, _ view: EventView, _ range: Range<Int>, _ start: MatchChecksum) -> MatchChecksum {
        var sum = start
        let scratch = self.scratch
        for e in range {
            matcher.match(e, in: view, scratch: scratch)
            sum.add(matchesOf: e, in: scratch)
        }
        return sum
    }
}

/// Monotonic and CPU clocks.
enum Clock {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    static func seconds(since start: UInt64) -> Double { Double(now() &- start) / 1e9 }

    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

extension StrategyRegistry {
    /// The strategy a `--strategies` entry names, or an input error listing the known ones.
    static func option(_ name: String) throws -> Strategy {
        guard let strategy = named(name) else {
            throw InputError(file: "--strategies", path: name, reason: "unknown strategy; choose from \(names.joined(separator: ", "))")
        }
        return strategy
    }
}

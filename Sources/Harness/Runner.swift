import Foundation
import Histogram
import TriggerKit
import Workload

/// What `bench run` measures (SPEC §5, §5.2).
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

/// How readers obtain the trigger set (SPEC §4): a plain shared matcher, a lock-free snapshot, or a mutex.
public enum Publication: String, Sendable, CaseIterable, Codable {
    case none
    case lockFree = "lock-free"
    case mutex
}

/// Strategies disagreed: a correctness bug (SPEC §8 exit 1).
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
        for name in configuration.strategies {
            guard let strategy = StrategyRegistry.named(name) else {
                throw InputError(file: "--strategies", path: name, reason: "unknown strategy; choose from \(StrategyRegistry.names.joined(separator: ", "))")
            }
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
                    var r = try measure(matcher, strategy: name, events: events, count: count, threads: threads,
                                        publication: publication, set: set, vocabulary: vocabulary)
                    r.allocationsPerEvent = allocations.count
                    r.bytesPerEvent = allocations.bytes
                    r.buildSeconds = buildSeconds
                    results.append(r)
                }
            }
        }
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
    /// same events with the thread cache flushed around it (NOTES.md).
    func measureAllocations(_ m: some Matcher, _ events: EventColumns, count: Int) -> (count: Double, bytes: Double) {
        guard count > 0 else { return (0, 0) }
        let scratch = m.makeScratch(for: events)
        return events.withView { view in
            for i in 0..<count { m.match(i, in: view, scratch: scratch) }
            // Calibrate: what the counters themselves cost with no work between them.
            let c0 = AllocatorStats.allocationRequests(), c1 = AllocatorStats.allocationRequests()
            let overhead = c1 &- c0
            let b0 = AllocatorStats.threadAllocatedBytes()
            let r0 = AllocatorStats.allocationRequests()
            for i in 0..<count { m.match(i, in: view, scratch: scratch) }
            let r1 = AllocatorStats.allocationRequests()
            let b1 = AllocatorStats.threadAllocatedBytes()
            let requests = r1 &- r0 &- min(overhead, r1 &- r0)
            return (Double(requests) / Double(count), Double(b1 &- b0) / Double(count))
        }
    }

    func measure(_ matcher: some Matcher, strategy: String, events: EventColumns, count: Int, threads: Int,
                 publication: Publication, set: TriggerSet, vocabulary: Vocabulary) throws -> StrategyResult {
        let slices = (0..<threads).map { t in (count * t / threads)..<(count * (t + 1) / threads) }
        let workers = slices.map { ReaderWorker(range: $0, matcher: matcher, events: events) }
        let source = ReaderSource(publication: publication, matcher: matcher)
        let writer = configuration.publishEveryMs.flatMap { ms -> Publisher? in
            publication == .none ? nil : Publisher(everyMs: ms, source: source, build: builder(strategy, set, vocabulary))
        }
        let label = "\(strategy) \(publication.rawValue) ×\(threads)"
        let counter = ProgressCounter()
        let warmup = min(configuration.warmupEvents, count)
        events.withView { view in
            // Warm-up: memo tables, caches and branch predictors, untimed.
            let scratch = matcher.makeScratch(for: events)
            for i in 0..<warmup { matcher.match(i, in: view, scratch: scratch) }
        }
        var wall = 0.0, publications = 0, rebuildSeconds = 0.0
        // Heap in use before the writer starts and after it stopped: with every replaced set freed, the
        // difference is about one trigger set (the last one published, still held by the source).
        let heapBefore = writer == nil ? nil : AllocatorStats.allocatedBytes()
        var samples: [Double] = []
        var repetitionChecksums: Set<String> = []
        for repetition in 0..<configuration.repetitions {
            let repLabel = configuration.repetitions > 1 ? "\(label) #\(repetition + 1)" : label
            counter.reset()
            writer?.start()
            let wallStart = Clock.now()
            if threads == 1 {
                workers[0].run(source: source, batchSize: configuration.batchSize, counter: counter, progress: { [progress] in
                    progress.update(repLabel, counter.value, count)
                })
            } else {
                let group = DispatchGroup()
                for w in workers {
                    let thread = Thread { [configuration] in
                        w.run(source: source, batchSize: configuration.batchSize, counter: counter, progress: nil)
                        group.leave()
                    }
                    thread.stackSize = 1 << 22
                    group.enter()
                    thread.start()
                }
                while group.wait(timeout: .now() + 0.25) == .timedOut { progress.update(repLabel, counter.value, count) }
            }
            let seconds = Clock.seconds(since: wallStart)
            if let (sets, seconds) = writer?.stop() {
                publications += sets
                rebuildSeconds += seconds
            }
            wall += seconds
            samples.append(seconds * 1e9 / Double(count))
            var sum = MatchChecksum()
            for w in workers { sum.merge(w.checksum) }
            repetitionChecksums.insert(sum.hex)
        }
        let heapAfter = writer == nil ? nil : AllocatorStats.allocatedBytes()
        if repetitionChecksums.count > 1 {
            throw ChecksumMismatch(description: "\(label): repetitions of the same run produced different checksums \(repetitionChecksums.sorted())")
        }
        var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 100_000_000_000_000, numberOfSignificantValueDigits: .three)
        var checksum = MatchChecksum()
        var candidates = 0
        var cpu = 0.0
        for w in workers {
            histogram.add(w.histogram)
            checksum.merge(w.checksum)
            candidates += w.candidates
            cpu += w.cpuSeconds
        }
        let ns = { (p: Double) in Double(histogram.valueAtPercentile(p)) / 1000 }
        return StrategyResult(
            strategy: strategy, publication: publication, threads: threads, events: count, matches: checksum.matches,
            checksum: checksum.hex, eventsPerSecond: Double(count * configuration.repetitions) / wall,
            nsPerEvent: .init(mean: histogram.mean / 1000, p50: ns(50), p90: ns(90), p99: ns(99), p999: ns(99.9),
                              max: Double(histogram.max) / 1000),
            allocationsPerEvent: 0, bytesPerEvent: 0, jemalloc: AllocatorStats.gauges(),
            matchesPerEvent: Double(checksum.matches) / Double(count), candidatesPerEvent: Double(candidates) / Double(count),
            cpuSeconds: cpu, wallSeconds: wall, speedupVsReference: nil, ratioToFloor: nil, buildSeconds: 0,
            publications: writer == nil ? nil : publications,
            rebuildMsPerPublication: writer == nil || publications == 0 ? nil : rebuildSeconds * 1000 / Double(publications),
            perThreadEventsPerSecond: threads > 1 ? workers.map { Double($0.range.count) / $0.wallSeconds } : nil,
            nsPerEventSamples: configuration.repetitions > 1 ? samples : nil, instructionsPerEvent: nil,
            heapBytesBeforePublishing: heapBefore, heapBytesAfterPublishing: heapAfter)
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
            if let ref = peer(ReferenceStrategy.strategyName) { results[k].speedupVsReference = ref.nsPerEvent.mean / r.nsPerEvent.mean }
            if let floor = peer(FloorMatcher.strategyName) { results[k].ratioToFloor = r.nsPerEvent.mean / floor.nsPerEvent.mean }
        }
    }
}

/// One reader thread's share of a timed run: a disjoint slice of events, its own scratch and histogram.
final class ReaderWorker: @unchecked Sendable {
    let range: Range<Int>
    let events: EventColumns
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

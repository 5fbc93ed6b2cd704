import Foundation
import Histogram
import TriggerKit

/// One row of a run being timed: its readers, the matcher they share, its writer, and what its
/// repetitions measured so far.
final class TimedRow {
    let key: RowKey
    let built: BuiltStrategy
    let workers: [ReaderWorker]
    let source: PublishedMatcher
    let writer: WriterThread?
    /// The matcher readers start from and return to after each repetition.
    let initial: any Matcher
    private(set) var wallSeconds = 0.0
    private(set) var samples: [Double] = []
    private(set) var checksums: Set<MatchChecksum> = []
    private(set) var writerTotals = WriterThread.Report(sets: 0, buildSeconds: 0, buildCPUSeconds: 0, rebuilds: 0)
    private(set) var heapBefore: Int?
    private(set) var heapGrowth = 0
    /// Times each timed pass replays the row's events: set by the first repetition's warm-up so that a
    /// pass lasts at least the configuration's `passSeconds`, then the same for every repetition.
    private(set) var loops: Int?
    /// The untimed warm-ups before the passes, seconds in all; each pass's wall-clock seconds and its
    /// readers' involuntary context switches.
    private(set) var warmupSeconds = 0.0
    private(set) var passDurations: [Double] = []
    private(set) var passSwitches: [Int] = []
    /// Seconds per event of the warm pass made when the row was created (cold: memo tables fill), for
    /// the loop count when the configuration asks for no warm-up before each pass.
    private let firstWarmSecondsPerEvent: Double

    var count: Int { built.count }

    /// Creates and warms the row's readers (untimed: memo tables, caches, branch predictors). With
    /// deltas, readers start from the writer's first snapshot, so the snapshots after it (which share
    /// its base) keep their scratches warm.
    init(_ key: RowKey, built: BuiltStrategy, input: LoadedInput, configuration: RunConfiguration) throws {
        self.key = key
        self.built = built
        let events = input.events
        let writing = key.publication == .none ? nil : configuration.writer
        let template = try writing.flatMap { w -> WriterStep.DeltaTemplate? in
            guard case .deltas = w.mode else { return nil }
            return WriterStep.DeltaTemplate(try built.strategy.makeWriter(input.set, input.vocabulary, events.symbols))
        }
        let matcher = template?.writer.matcher ?? built.matcher
        initial = matcher
        let count = built.count, threads = key.threads
        let slices = (0..<threads).map { t in (count * t / threads)..<(count * (t + 1) / threads) }
        workers = slices.map { ReaderWorker(range: $0, matcher: matcher, events: events) }
        let source = PublishedMatcher(publication: key.publication, matcher: matcher)
        self.source = source
        writer = try writing.map { w in
            WriterThread(everyMs: w.everyMs, source: source,
                         makeStep: try WriterStep.maker(w.mode, strategy: built.strategy, set: input.set, vocabulary: input.vocabulary, template: template))
        }
        let warmup = min(configuration.warmupEvents, count)
        let start = Clock.now()
        events.withView { ReplayLoop.matchOnly(matcher, $0, 0..<warmup, matcher.makeScratch(for: events)) }
        firstWarmSecondsPerEvent = warmup == 0 ? 0 : Clock.seconds(since: start) / Double(warmup)
    }

    /// The loop count that makes a pass last `passSeconds`, from a warm replay's rate: whole replays of
    /// the largest reader's slice, at least one.
    static func loops(passSeconds: Double, secondsPerEvent: Double, eventsPerReader: Int) -> Int {
        guard passSeconds > 0, secondsPerEvent > 0, eventsPerReader > 0 else { return 1 }
        let one = secondsPerEvent * Double(eventsPerReader)
        return max(1, Int(min((passSeconds / one).rounded(.up), Double(maxLoops))))
    }

    /// Loops per pass, at most: a log of one event at a few ns still makes a pass of well under a minute.
    static let maxLoops = 1 << 24

    /// One timed repetition: an untimed warm-up of this row's own readers (so the pass does not start
    /// in the caches another row left), then the timed pass of `loops` replays. The run interleaves
    /// repetitions (every row's first, then every row's second, …), so a machine whose speed drifts over
    /// tens of seconds slows all rows alike instead of whichever row ran during the slow spell.
    func repeatOnce(label: String, batchSize: Int, warmup: Double, passSeconds: Double, slowdown: Double = 0, progress: ProgressLine) throws {
        let counter = ProgressCounter()
        let largestSlice = workers.map(\.range.count).max() ?? 0
        // Heap in use before the writer starts and after it stopped and the source went back to the
        // initial matcher: with every replaced set freed, the two are equal.
        var heapAtStart: Int?
        func startWriter() throws {
            heapAtStart = writer == nil ? nil : AllocatorStats.allocatedBytes()
            try writer?.start()
        }
        var wallStart: UInt64 = 0
        // Named before the warm-up: a slow row's warm-up (reference's) was reported as the row before it.
        progress.status("\(label): warming up")
        if key.threads == 1 {
            let warmed = workers[0].warm(source: source, seconds: warmup, batchSize: batchSize)
            let loops = decideLoops(warmed, passSeconds: passSeconds, eventsPerReader: largestSlice)
            progress.status("\(label): timed pass, \(loops) × \(count) events")
            try startWriter()
            wallStart = Clock.now()
            workers[0].run(source: source, batchSize: batchSize, loops: loops, slowdown: slowdown, counter: counter, progress: { [count] in
                progress.update(label, counter.value, count * loops)
            })
        } else {
            // Each reader warms on its own thread, then all start the timed pass together.
            let warmedGroup = DispatchGroup(), finished = DispatchGroup()
            let go = DispatchSemaphore(value: 0)
            let rates = workers.map { _ in HandOff((events: 0, seconds: 0.0)) }
            let loopsBox = HandOff(1)
            // Set when the pass is given up (a reader or the writer could not start): the readers
            // already waiting to start are released and leave without running.
            let abandoned = HandOff(false)
            var started = 0
            func abandon(_ error: any Error) throws -> Never {
                abandoned.value = true
                for _ in 0..<started { go.signal() }
                throw error
            }
            for (w, rate) in zip(workers, rates) {
                warmedGroup.enter()
                finished.enter()
                do {
                    try SpawnedThread.start("a reader thread of \(label)", stackSize: 1 << 22) { [source] in
                        rate.value = w.warm(source: source, seconds: warmup, batchSize: batchSize)
                        warmedGroup.leave()
                        go.wait()
                        // The semaphore orders `abandoned`'s write before this read.
                        if !abandoned.value {
                            w.run(source: source, batchSize: batchSize, loops: loopsBox.value, slowdown: slowdown, counter: counter, progress: nil)
                        }
                        finished.leave()
                    }
                } catch {
                    // This reader never runs: its entries are left here, so both groups stay balanced.
                    warmedGroup.leave()
                    finished.leave()
                    try abandon(error)
                }
                started += 1
            }
            warmedGroup.wait()
            // The slowest reader's rate: the pass lasts as long as its slowest slice.
            let warmed = rates.map(\.value)
            let slowest = warmed.max { a, b in a.seconds * Double(max(b.events, 1)) < b.seconds * Double(max(a.events, 1)) } ?? (0, 0)
            let loops = decideLoops(slowest, passSeconds: passSeconds, eventsPerReader: largestSlice)
            loopsBox.value = loops
            do { try startWriter() } catch { try abandon(error) }
            wallStart = Clock.now()
            for _ in workers { go.signal() }
            while finished.wait(timeout: .now() + 0.25) == .timedOut { progress.update(label, counter.value, count * loops) }
        }
        let seconds = Clock.seconds(since: wallStart)
        if let writer {
            let report = writer.stop()
            writerTotals.sets += report.sets
            writerTotals.rebuilds += report.rebuilds
            writerTotals.redirects += report.redirects
            writerTotals.buildSeconds += report.buildSeconds
            writerTotals.buildCPUSeconds += report.buildCPUSeconds
            source.publish(initial)
            // Readers move back to the initial matcher's scratch, so one a delta snapshot needed is not
            // counted as heap the writer failed to give back.
            for w in workers { w.adopt(initial) }
            if let heapAtStart {
                heapBefore = heapBefore ?? heapAtStart
                heapGrowth += AllocatorStats.allocatedBytes() - heapAtStart
            }
            if let failure = writer.failed {
                throw HarnessError(what: "\(key)", reason: "building a matcher to publish failed: \(failure)")
            }
        }
        wallSeconds += seconds
        passDurations.append(seconds)
        passSwitches.append(workers.reduce(0) { $0 + $1.involuntarySwitches })
        samples.append(seconds * 1e9 / Double(count * (loops ?? 1)))
        var sum = MatchChecksum()
        for w in workers {
            sum.merge(w.checksum)
            unequalLoops += w.unequalLoops
        }
        checksums.insert(sum)
    }

    /// Loops of any pass that matched otherwise than that pass's first loop.
    private(set) var unequalLoops = 0

    /// Keeps the loop count set by the first repetition, or sets it from this warm-up's rate (the warm
    /// pass made at creation when there was none).
    private func decideLoops(_ warmed: (events: Int, seconds: Double), passSeconds: Double, eventsPerReader: Int) -> Int {
        warmupSeconds += warmed.seconds
        if let loops { return loops }
        let rate = warmed.events > 0 ? warmed.seconds / Double(warmed.events) : firstWarmSecondsPerEvent
        let decided = Self.loops(passSeconds: passSeconds, secondsPerEvent: rate, eventsPerReader: eventsPerReader)
        loops = decided
        return decided
    }

    /// The row as measured over all its repetitions (its ratios come when every row is in).
    /// `cold`: the strategy's cold single events (`ColdPass`), given to its plain row.
    func measured(configuration: RunConfiguration, cold: EventLatency? = nil) throws -> MeasuredRow {
        for w in workers {
            let invalid = w.faults
            if invalid.count > 0 {
                throw MatchedWrongly(description: "\(key): the plugin broke its ABI \(invalid.count) times in the timed run (first value: \(invalid.first): a trigger index outside 0..<\(initial.triggerSet.triggers.count) or reported twice, a bad count or end offset, or a batch without progress)")
            }
        }
        if unequalLoops > 0 {
            throw MatchedWrongly(description: "\(key): \(unequalLoops) replays of the events within a timed pass matched otherwise than the pass's first replay")
        }
        if checksums.count > 1 {
            throw MatchedWrongly(description: "\(key): repetitions of the same run produced different checksums \(checksums.map(\.hex).sorted())")
        }
        var histogram = ReaderWorker.emptyHistogram()
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
        let repetitions = configuration.repetitions
        let loops = self.loops ?? 1
        let timing = TimingFigures(
            eventsPerSecond: Double(count * loops * repetitions) / wallSeconds,
            // One mean per row: the repetitions' own wall-clock ns/event, the samples its interval and
            // spread come from (batch percentiles are a reader thread's, from the histogram).
            nsPerEvent: .init(mean: Bootstrap.mean(samples), p50: ns(50), p90: ns(90), p99: ns(99), p999: ns(99.9), max: Double(histogram.max) / 1000),
            cpuSeconds: cpu, wallSeconds: wallSeconds,
            perThreadEventsPerSecond: key.threads > 1 ? workers.map { Double($0.range.count * loops) / $0.wallSeconds } : nil,
            nsPerEventSamples: repetitions > 1 ? samples : nil,
            meanCi95: Bootstrap.interval(samples, statistic: Bootstrap.mean))
        // Readers given no events (more threads than events) idle by design, not by preemption.
        let busy = max(1, workers.filter { !$0.range.isEmpty }.count)
        let cpuShare = wallSeconds > 0 ? min(1, cpu / (wallSeconds * Double(busy))) : 1
        let outliers = OutlierCounts.classify(workers.flatMap { $0.disturbance() })
        let passes = PassFigures(
            loops: loops, eventsPerPass: count * loops, warmupSeconds: warmupSeconds / Double(max(passDurations.count, 1)), seconds: passDurations,
            cpuShare: cpuShare, involuntarySwitches: passSwitches, outliers: outliers,
            flags: PassFigures.flags(cpuShare: cpuShare, outliers: outliers, seconds: passDurations, mean: timing.nsPerEvent.mean, interval: timing.meanCi95))
        let w = writerTotals
        let publishing = writer.map { _ in
            PublishingFigures(
                publications: w.sets,
                rebuildMsPerPublication: w.sets == 0 ? nil : w.buildSeconds * 1000 / Double(w.sets),
                rebuildCpuMsPerPublication: w.sets == 0 ? nil : w.buildCPUSeconds * 1000 / Double(w.sets),
                deltaTriggers: configuration.writer?.deltaTriggers, fullRebuilds: w.rebuilds,
                redirected: configuration.writer?.deltaTriggers == nil ? nil : w.redirects,
                heapBytesBeforePublishing: heapBefore, heapBytesAfterPublishing: heapBefore.map { $0 + heapGrowth })
        }
        return MeasuredRow(key: key, matches: MatchFigures(events: count, checksum: checksum, candidates: candidates), timing: timing,
                           memory: built.memory, publishing: publishing, latencyNs: key.isPlain ? built.latency : nil,
                           coldLatencyNs: key.isPlain ? cold : nil, passes: passes)
    }
}

/// A value one thread writes and others read, ordered by the dispatch primitive between them: written
/// before a `DispatchGroup.leave()` (or a semaphore's `signal()`) and read after the matching `wait()`,
/// which orders the write before the read; never accessed concurrently otherwise.
private final class HandOff<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

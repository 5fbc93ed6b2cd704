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
        events.withView { ReplayLoop.matchOnly(matcher, $0, 0..<warmup, matcher.makeScratch(for: events)) }
    }

    /// One timed repetition. The run interleaves repetitions (every row's first, then every row's
    /// second, …), so a machine whose speed drifts over tens of seconds slows all rows alike instead of
    /// whichever row ran during the slow spell.
    func repeatOnce(label: String, batchSize: Int, slowdown: Double = 0, progress: ProgressLine) throws {
        let counter = ProgressCounter()
        // Heap in use before the writer starts and after it stopped and the source went back to the
        // initial matcher: with every replaced set freed, the two are equal.
        let heapAtStart = writer == nil ? nil : AllocatorStats.allocatedBytes()
        writer?.start()
        let wallStart = Clock.now()
        if key.threads == 1 {
            workers[0].run(source: source, batchSize: batchSize, slowdown: slowdown, counter: counter, progress: { [count] in
                progress.update(label, counter.value, count)
            })
        } else {
            let group = DispatchGroup()
            for w in workers {
                let thread = Thread { [source] in
                    w.run(source: source, batchSize: batchSize, slowdown: slowdown, counter: counter, progress: nil)
                    group.leave()
                }
                thread.stackSize = 1 << 22
                group.enter()
                thread.start()
            }
            while group.wait(timeout: .now() + 0.25) == .timedOut { progress.update(label, counter.value, count) }
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
        samples.append(seconds * 1e9 / Double(count))
        var sum = MatchChecksum()
        for w in workers { sum.merge(w.checksum) }
        checksums.insert(sum)
    }

    /// The row as measured over all its repetitions (its ratios come when every row is in).
    func measured(configuration: RunConfiguration) throws -> MeasuredRow {
        for w in workers {
            let invalid = w.faults
            if invalid.count > 0 {
                throw MatchedWrongly(description: "\(key): the plugin broke its ABI \(invalid.count) times in the timed run (first value: \(invalid.first): a trigger index outside 0..<\(initial.triggerSet.triggers.count) or reported twice, a bad count or end offset, or a batch without progress)")
            }
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
        let timing = TimingFigures(
            eventsPerSecond: Double(count * repetitions) / wallSeconds,
            // One mean per row: the repetitions' own wall-clock ns/event, the samples its interval and
            // spread come from (batch percentiles are a reader thread's, from the histogram).
            nsPerEvent: .init(mean: Bootstrap.mean(samples), p50: ns(50), p90: ns(90), p99: ns(99), p999: ns(99.9), max: Double(histogram.max) / 1000),
            cpuSeconds: cpu, wallSeconds: wallSeconds,
            perThreadEventsPerSecond: key.threads > 1 ? workers.map { Double($0.range.count) / $0.wallSeconds } : nil,
            nsPerEventSamples: repetitions > 1 ? samples : nil,
            meanCi95: Bootstrap.interval(samples, statistic: Bootstrap.mean))
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
                           memory: built.memory, publishing: publishing, latencyNs: key.isPlain ? built.latency : nil)
    }
}

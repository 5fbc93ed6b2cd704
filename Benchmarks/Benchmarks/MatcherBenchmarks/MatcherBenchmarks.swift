import Benchmark
import TriggerKit
import Workload

// Micro-benchmarks of one event's matching per strategy and per publication mode, and of building each
// fast strategy's matcher, on the `tiny`
// preset's shape (200 triggers + 100 crowded on the hottest name). Each scaled iteration matches one
// event; the workload and matchers are built before measurement starts. Thresholds/ holds the exact
// malloc counts (the only metric CI holds exactly, as swift-nio does); time is informational.

/// Built once, shared by every benchmark (immutable after init).
final class Fixture: @unchecked Sendable {
    static let shared = Fixture()

    let set: TriggerSet
    let vocabulary: Vocabulary
    let events: EventColumns

    init() {
        var spec = WorkloadSpec()
        spec.name = "micro"
        spec.seed = 7
        spec.events = 4096
        spec.triggers = 200
        spec.eventNames = 100
        spec.crowdedTriggers = 100
        set = try! WorkloadGenerator.corpus(spec)
        vocabulary = Vocabulary(set)
        events = WorkloadGenerator.events(spec, vocabulary: vocabulary)
    }
}

/// Matches `count` events, cycling through the buffer; warm (scratch built, memo filled) before measuring.
func replay<M: Matcher>(_ matcher: M, _ benchmark: Benchmark, _ fixture: Fixture) {
    let scratch = matcher.makeScratch(for: fixture.events)
    fixture.events.withView { view in
        for i in 0..<view.count { matcher.match(i, in: view, scratch: scratch) }
        var matched = 0
        benchmark.startMeasurement()
        for n in benchmark.scaledIterations {
            matcher.match(n % view.count, in: view, scratch: scratch)
            matched &+= scratch.count
        }
        benchmark.stopMeasurement()
        blackHole(matched)
    }
}

/// Matches events taking the snapshot anew for every event, as a reader must when sets may be published.
/// Warm like `replay`: without it the first sample's first regex searches (memo misses) allocated.
func replayThroughSnapshots(_ benchmark: Benchmark, _ fixture: Fixture, _ current: () -> MatcherSnapshot) {
    let scratch = current().matcher.makeScratch(for: fixture.events)
    fixture.events.withView { view in
        for i in 0..<view.count { current().matcher.match(i, in: view, scratch: scratch) }
        var matched = 0
        benchmark.startMeasurement()
        for n in benchmark.scaledIterations {
            let snapshot = current()
            snapshot.matcher.match(n % view.count, in: view, scratch: scratch)
            matched &+= scratch.count
        }
        benchmark.stopMeasurement()
        blackHole(matched)
    }
}

/// Deltas against the fixture's set: `step` even replaces every 20th trigger by itself with a raised
/// priority and adds five triggers on a new name; odd puts the originals back and removes those five.
func delta(_ set: TriggerSet, step: Int) -> TriggerSetDelta {
    let pool = stride(from: 0, to: set.triggers.count, by: 20).map { set.triggers[$0] }
    let added = (0..<5).map { Trigger(id: "micro-delta-\($0)", conditions: [.customEvent(name: "micro-delta-event", filters: FilterCNF(clauses: []))]) }
    if step % 2 == 1 { return TriggerSetDelta(remove: added.map(\.id), replace: pool) }
    return TriggerSetDelta(add: added, replace: pool.map { var t = $0; t.priority += 1; return t })
}

let benchmarks: @Sendable () -> Void = {
    let fixture = Fixture.shared
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
    let configuration = Benchmark.Configuration(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 100)
    decoderBenchmarks()

    for strategy in StrategyRegistry.all {
        // reference is the slow oracle: fewer events per iteration.
        var config = configuration
        if strategy.name == "reference" { config.scalingFactor = .one }
        Benchmark("match-\(strategy.name)", configuration: config) { benchmark in
            let matcher = try strategy.make(fixture.set, fixture.vocabulary)
            replay(matcher, benchmark, fixture)
        }
    }

    // Building a matcher from the set: what a writer pays per publication (its CPU comes out of the
    // readers' when they share cores). One build per iteration; its malloc count is held exactly.
    for strategy in StrategyRegistry.all where strategy.name != "reference" {
        var config = configuration
        config.scalingFactor = .one
        Benchmark("build-\(strategy.name)", configuration: config) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try strategy.make(fixture.set, fixture.vocabulary))
            }
        }
    }

    // The compiled matcher reached through each publication mode: a snapshot per event, as in `bench run`.
    // Built through the registry, as an embedder would: the concrete matcher types are not public.
    let compiled = StrategyRegistry.named("compiled")!
    Benchmark("publication-none", configuration: configuration) { benchmark in
        replay(try compiled.make(fixture.set, fixture.vocabulary), benchmark, fixture)
    }
    Benchmark("publication-lock-free", configuration: configuration) { benchmark in
        let publisher = SnapshotPublisher(try compiled.make(fixture.set, fixture.vocabulary))
        var reader = publisher.makeReader()
        replayThroughSnapshots(benchmark, fixture) { reader.current() }
    }
    Benchmark("publication-mutex", configuration: configuration) { benchmark in
        let publisher = MutexPublisher(try compiled.make(fixture.set, fixture.vocabulary))
        replayThroughSnapshots(benchmark, fixture) { publisher.load() }
    }

    // Delta publication: matching through a layered snapshot (a base trigger removed, others replaced,
    // some added: every step of the layer is on the path) allocates nothing per event; applying a delta
    // makes a held number of mallocs.
    for strategy in StrategyRegistry.all where ["compiled", "predicate-index"].contains(strategy.name) {
        Benchmark("match-delta-\(strategy.name)", configuration: configuration) { benchmark in
            let writer = try strategy.makeWriter(fixture.set, fixture.vocabulary, fixture.events.symbols)
            try writer.apply(TriggerSetDelta(remove: [fixture.set.triggers[1].id]))
            try writer.apply(delta(fixture.set, step: 0))
            replay(writer.matcher, benchmark, fixture)
        }
        var config = configuration
        config.scalingFactor = .one
        Benchmark("delta-\(strategy.name)", configuration: config) { benchmark in
            // The writer (a whole build) and two warm deltas stay outside the counted region.
            let writer = try strategy.makeWriter(fixture.set, fixture.vocabulary, fixture.events.symbols)
            for step in 0..<2 { try writer.apply(delta(fixture.set, step: step)) }
            let deltas = [delta(fixture.set, step: 0), delta(fixture.set, step: 1)]
            var step = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try writer.apply(deltas[step & 1]))
                step += 1
            }
            benchmark.stopMeasurement()
        }
    }
}

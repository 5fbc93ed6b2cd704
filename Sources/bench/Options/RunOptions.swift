import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

/// The options of `bench run` that say what to measure and how (shared with `bench sweep`, which
/// brings its own input).
struct RunOptions: ParsableArguments {
    @Option(name: .customLong("plugin"), help: "A matcher plugin (a shared library built against Plugins/include/trigger_bench_plugin.h), as PATH or PATH,key=value,… (options handed to the plugin and recorded); adds a row plugin:NAME. Repeatable.")
    var plugins: [String] = []

    @OptionGroup var pluginCheck: PluginCheckOption
    @OptionGroup var progressOption: ProgressOption

    @Option(help: "Comma-separated strategies to run (default: all).", transform: CommaLists.strategies)
    var strategies: [String] = StrategyRegistry.names

    @Option(parsing: .unconditional, help: "Comma-separated reader thread counts, e.g. 1,2 (default: 1).", transform: CommaLists.threadCounts)
    var threads: [Int] = [1]

    @Option(help: "Comma-separated publication modes: none, lock-free, mutex (default: none).", transform: CommaLists.publications)
    var publication: [Publication] = [.none]

    @Option(parsing: .unconditional, help: "While readers match, a writer publishes a freshly built trigger set every N ms (lock-free and mutex runs).")
    var publishEveryMs: Int?

    @Flag(help: "The writer publishes one of 4 matchers built before the run instead of building one per publication: separates what switching snapshots costs readers from the CPU the writer's builds take from them.")
    var prebuiltSets = false

    @Option(parsing: .unconditional, help: "With --publish-every-ms: the writer publishes a delta of N triggers (half replaced by edited copies and back, half added and removed) instead of a rebuilt set; compiled and predicate-index apply it, the other strategies rebuild.")
    var deltaTriggers: Int?

    @Option(parsing: .unconditional, help: "Override the workload's event count; with --event-log, replay its first N lines (refused when it has fewer: a timed pass replays a short log as often as --pass-seconds needs).")
    var events: Int?

    @Option(parsing: .unconditional, help: "Events replayed by the slow `reference` strategy (the prefix all others are checked against; default 50000, fewer with plugins when the oracle would need over a minute).")
    var referenceEvents: Int?

    @Option(help: .hidden) var injectSlowdown: String?

    @Option(parsing: .unconditional, help: "Events per timed batch (one latency sample per batch).")
    var batchSize = 1024

    @Option(help: "A name recorded with the results (e.g. the change being measured).")
    var label: String?

    @Option(parsing: .unconditional, help: "Timed passes per row, interleaved; their means give the confidence intervals and `bench check`'s wall-clock samples.")
    var repetitions = 3

    @Option(parsing: .unconditional, help: "Events timed one at a time per strategy, for single-event percentiles (0: skip).")
    var latencyEvents = 100_000

    @Option(parsing: .unconditional, help: ArgumentHelp("Each timed pass replays the row's events as many whole times as makes it last about S seconds, or once when one replay takes longer (like Go's -benchtime; 0: once).", valueName: "S"))
    var passSeconds = RunConfiguration.defaultPassSeconds

    @Option(parsing: .unconditional, help: ArgumentHelp("Untimed replay of a row's own events just before each timed pass, S seconds (0: none), so a pass does not start in the caches the row before it left.", valueName: "S"))
    var warmupSeconds = RunConfiguration.defaultWarmupSeconds

    @Option(parsing: .unconditional, help: "Events timed one at a time per strategy after evicting the caches before each (an app's event arriving seconds after the last; 0: skip).")
    var coldEvents = RunConfiguration.defaultColdEvents

    func validate() throws {
        for (name, value) in [("--pass-seconds", passSeconds), ("--warmup-seconds", warmupSeconds)] {
            guard value.isFinite, value >= 0, value <= 600 else { throw ValidationError("\(name) takes 0 to 600 seconds, got \(value)") }
        }
        try Limits.check("--cold-events", coldEvents, 0...1_000_000)
        guard repetitions >= 1, repetitions <= 1000 else { throw ValidationError("--repetitions takes 1 to 1000, got \(repetitions)") }
        try Limits.check("--batch-size", batchSize, 1...Limits.maxBatchSize)
        if let referenceEvents { try Limits.check("--reference-events", referenceEvents, 1...Limits.maxEvents) }
        try Limits.check("--latency-events", latencyEvents, 0...Limits.maxEvents)
        if let events { try Limits.check("--events", events, 1...Limits.maxEvents) }
        if let publishEveryMs { try Limits.check("--publish-every-ms", publishEveryMs, 1...Limits.maxPublishEveryMs) }
        if let deltaTriggers {
            try Limits.check("--delta-triggers", deltaTriggers, 1...CorpusDecoder.maxTriggers)
            guard publishEveryMs != nil, publication.contains(where: { $0 != .none }) else {
                throw ValidationError("--delta-triggers needs --publish-every-ms M (how often the writer publishes a delta) and --publication lock-free or mutex")
            }
            guard !prebuiltSets else { throw ValidationError("--delta-triggers and --prebuilt-sets are two kinds of writer; pass one") }
        }
        if prebuiltSets, publishEveryMs == nil {
            throw ValidationError("--prebuilt-sets says what the writer publishes; it needs --publish-every-ms M")
        }
    }

    /// A debug build matches 10–100× slower; without --events it replays this many so that a first
    /// `swift run bench` answers in seconds, and says so.
    static let debugEvents = 20_000
    static let debugReferenceEvents = 1_000

    /// The --plugin libraries, loaded and checked (unless --no-plugin-check), as strategies after the built-in ones.
    func pluginStrategies() throws -> [RunStrategy] { try pluginCheck.strategies(plugins) }

    /// The run these options describe, replaying `input` (a sweep's point, the --workload given, or the
    /// user's files). A debug build trims what it replays unless --events says how much.
    func makeConfiguration(input: InputSource, plugins loaded: [RunStrategy]? = nil, announce: Bool = true) throws -> RunConfiguration {
        var input = input
        var referenceEvents = referenceEvents ?? RunConfiguration.defaultReferenceEvents
        // A log's length is unknown before it is read, so a debug build always trims one.
        let trim = events == nil && BuildInfo.configuration == "debug" && (input.eventLimit.map { $0 > Self.debugEvents } ?? true)
        switch input {
        case .generated(var spec):
            spec.events = trim ? Self.debugEvents : events ?? spec.events
            input = .generated(spec)
        case .files(var files):
            files.lineLimit = trim ? Self.debugEvents : events
            files.limitAsked = events != nil
            input = .files(files)
        }
        if trim {
            referenceEvents = min(referenceEvents, Self.debugReferenceEvents)
            if announce { announceDebug() }
        }
        var config = RunConfiguration(input: input)
        config.strategies = try strategies.map(RunStrategy.builtIn) + (loaded ?? pluginStrategies())
        config.threads = threads
        config.publications = publication
        config.writer = publishEveryMs.map { ms in
            WriterSettings(everyMs: ms, mode: deltaTriggers.map { .deltas(triggers: $0) } ?? (prebuiltSets ? .prebuilt : .rebuild))
        }
        config.referenceEvents = referenceEvents
        config.referenceBudgetSeconds = self.referenceEvents == nil ? 60 : nil
        config.batchSize = batchSize
        if let injectSlowdown {
            // STRATEGY=FRACTION: for calibrating a comparison's statistics (scripts/calibrate-ab), never a real run.
            let parts = injectSlowdown.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let fraction = Double(parts[1]), fraction >= 0, fraction <= 10 else {
                throw ValidationError("--inject-slowdown takes STRATEGY=FRACTION (0 to 10), got \"\(injectSlowdown)\"")
            }
            config.injectedSlowdown = (parts[0], fraction)
            TextOutput.standardError("bench: note: injecting a \(Int((fraction * 100).rounded())) % slowdown into \(parts[0])'s timed rows (--inject-slowdown; recorded in the results)")
        }
        config.showProgress = true
        config.repetitions = repetitions
        config.latencyEvents = latencyEvents
        config.passSeconds = passSeconds
        config.warmupSeconds = warmupSeconds
        config.coldEvents = coldEvents
        config.label = label
        return config
    }

    func announceDebug() {
        TextOutput.standardError("bench: debug build: replaying at most \(Self.debugEvents) events (and \(Self.debugReferenceEvents) through reference) so this finishes in seconds; for numbers worth reading run scripts/bench (release), or pass --events")
    }
}

import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Generate (or load) a workload and replay it through the chosen strategies; print a comparison table.",
        discussion: """
            Every strategy replays the same struct-of-arrays event buffers. `reference` replays only the first \
            --reference-events events; every other strategy is checked against it on that prefix, and against each \
            other on the full run. A checksum disagreement exits 1.
            """)

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("plugin"), help: "A matcher plugin (a shared library built against Plugins/include/trigger_bench_plugin.h); adds a row plugin:NAME. Repeatable.")
    var plugins: [String] = []

    @Option(help: "Comma-separated strategies to run.")
    var strategies = StrategyRegistry.names.joined(separator: ",")

    @Option(parsing: .unconditional, help: "Comma-separated reader thread counts, e.g. 1,2.")
    var threads = "1"

    @Option(help: "Comma-separated publication modes: none, lock-free, mutex.")
    var publication = "none"

    @Option(parsing: .unconditional, help: "While readers match, a writer publishes a freshly built trigger set every N ms (lock-free and mutex runs).")
    var publishEveryMs: Int?

    @Flag(help: "The writer publishes one of 4 matchers built before the run instead of building one per publication: separates what switching snapshots costs readers from the CPU the writer's builds take from them.")
    var prebuiltSets = false

    @Option(parsing: .unconditional, help: "Override the workload's event count; with --event-log, replay its first N lines.")
    var events: Int?

    @Option(parsing: .unconditional, help: "Events replayed by the slow `reference` strategy (the prefix all others are checked against).")
    var referenceEvents = 50_000

    @Option(parsing: .unconditional, help: "Events per timed batch (one latency sample per batch).")
    var batchSize = 1024

    @Option(help: "Write results as JSON (schema trigger-bench-results/2).")
    var json: String?

    @Option(help: "Write results as a Markdown table.")
    var markdown: String?

    @Option(help: "Write an SVG bar chart of ns/event with p50–p99 whiskers.")
    var svg: String?

    @Option(help: "Write results as CSV, one line per row.")
    var csv: String?

    @Option(help: "A name recorded with the results (e.g. the change being measured).")
    var label: String?

    @Option(parsing: .unconditional, help: "Timed passes per row, interleaved; their means give the confidence intervals and `bench check`'s wall-clock samples.")
    var repetitions = 3

    @Option(parsing: .unconditional, help: "Events timed one at a time per strategy, for single-event percentiles (0: skip).")
    var latencyEvents = 100_000

    @Flag(help: "Also count instructions/event of each strategy's 1-thread loop under valgrind --tool=callgrind (adds a minute or more).")
    var instructions = false

    static func parseStrategies(_ list: String) throws -> [String] {
        let names = try Limits.list("--strategies", list)
        for s in names where StrategyRegistry.named(s) == nil {
            throw ValidationError("unknown strategy \"\(s)\" in --strategies; choose from \(StrategyRegistry.names.joined(separator: ", "))")
        }
        guard !names.isEmpty else { throw ValidationError("--strategies names no strategy") }
        return names
    }

    func validate() throws {
        guard repetitions >= 1, repetitions <= 1000 else { throw ValidationError("--repetitions takes 1 to 1000, got \(repetitions)") }
        try Limits.check("--batch-size", batchSize, 1...Limits.maxBatchSize)
        try Limits.check("--reference-events", referenceEvents, 1...Limits.maxEvents)
        try Limits.check("--latency-events", latencyEvents, 0...Limits.maxEvents)
        if let events { try Limits.check("--events", events, 1...Limits.maxEvents) }
        if let publishEveryMs { try Limits.check("--publish-every-ms", publishEveryMs, 1...Limits.maxPublishEveryMs) }
    }

    /// A debug build matches 10–100× slower; without --events it replays this many so that a first
    /// `swift run bench` answers in seconds, and says so.
    static let debugEvents = 20_000
    static let debugReferenceEvents = 1_000

    func makeConfiguration() throws -> RunConfiguration {
        var spec = try WorkloadSpec.load(input.workloadName())
        var referenceEvents = referenceEvents
        var lines = events
        if let events {
            spec.events = events
        } else if BuildInfo.configuration == "debug", input.eventLog != nil || spec.events > Self.debugEvents {
            TextOutput.standardError("bench: debug build: replaying at most \(Self.debugEvents) events (and \(Self.debugReferenceEvents) through reference) so this finishes in seconds; for numbers worth reading run scripts/bench (release), or pass --events")
            spec.events = min(spec.events, Self.debugEvents)
            lines = Self.debugEvents
            referenceEvents = min(referenceEvents, Self.debugReferenceEvents)
        }
        var config = RunConfiguration(workload: spec)
        config.data = input.files(lines: lines)
        config.plugins = try plugins.map(PluginLibrary.init(path:))
        for plugin in config.plugins {
            TextOutput.standardError("bench: loaded plugin \(plugin.name) \(plugin.version) from \(plugin.path); it runs inside this process, so if the run ends in a crash, the plugin is the first suspect")
        }
        if let twice = Dictionary(grouping: config.plugins, by: \.name).first(where: { $0.value.count > 1 }) {
            throw ValidationError("--plugin: \(twice.value.map(\.path).joined(separator: " and ")) both call themselves \(twice.key); each row needs its own name")
        }
        config.strategies = try Self.parseStrategies(strategies)
        config.threads = try Limits.list("--threads", threads).map {
            guard let n = Int($0), n >= 1, n <= 64 else { throw ValidationError("--threads takes counts from 1 to 64, got \"\($0)\"") }
            return n
        }
        config.publications = try Limits.list("--publication", publication).map {
            guard let p = Publication(rawValue: String($0)) else {
                throw ValidationError("unknown publication \"\($0)\"; choose from none, lock-free, mutex")
            }
            return p
        }
        config.publishEveryMs = publishEveryMs
        config.prebuiltSets = prebuiltSets
        config.referenceEvents = referenceEvents
        config.batchSize = batchSize
        config.showProgress = true
        config.repetitions = repetitions
        config.latencyEvents = latencyEvents
        config.label = label
        return config
    }

    func run() throws {
        var report: RunReport
        // Opened before the run, so an unwritable path fails now, not after minutes of measuring.
        let jsonFile = try json.map(AtomicFile.init(path:))
        let markdownFile = try markdown.map(AtomicFile.init(path:))
        let svgFile = try svg.map(AtomicFile.init(path:))
        let csvFile = try csv.map(AtomicFile.init(path:))
        do {
            let configuration = try makeConfiguration()
            report = try Runner(configuration).run()
            if instructions {
                let progress = ProgressLine(enabled: true)
                let counts = try InstructionCounter.count(
                    input: input.arguments(), eventsOverride: events, strategies: configuration.strategies, events: report.workload.events,
                    referenceEvents: referenceEvents, progress: { progress.note($0) })
                progress.note("")
                try report.merge(counts)
            }
        } catch let mismatch as ChecksumMismatch {
            TextOutput.standardError("bench: strategies disagree: \(mismatch)")
            throw ExitCode(Exit.regression)
        }
        try TextOutput.printLine(report.table())
        try jsonFile?.commit(with: report.json())
        try markdownFile?.commit(with: Data(report.markdown().utf8))
        try svgFile?.commit(with: Data(report.svg().utf8))
        try csvFile?.commit(with: Data(report.csv().utf8))
    }
}

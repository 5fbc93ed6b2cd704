import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct InstructionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instructions",
        abstract: "Count instructions per event of each strategy's single-threaded matching loop under valgrind --tool=callgrind.",
        discussion: """
            Deterministic (same binary, workload and machine kind give the same count), so the gate can hold it to \
            a tight tolerance. Only the matching loop is counted, between callgrind start/stop requests; the \
            workload is generated and the matcher warmed uncounted. Needs valgrind (scripts/require-packages installs it).
            """)

    @OptionGroup var input: InputOptions

    @Option(help: "Comma-separated strategies to count (default: all).", transform: CommaLists.strategies)
    var strategies: [String] = StrategyRegistry.names

    @Option(parsing: .unconditional, help: "Events to replay (default: the workload's count, or every line of --event-log; `reference` replays at most --reference-events).")
    var events: Int?

    @Option(parsing: .unconditional, help: "Events replayed by `reference`.")
    var referenceEvents = 50_000

    @Option(help: "Write the counts into this results JSON (its 1-thread, unpublished rows); checksums must agree.")
    var mergeInto: String?

    @Option(parsing: .unconditional, help: "Count matching through the snapshot a delta writer publishes after one delta of N triggers (as bench run --delta-triggers publishes them): the per-event cost of a delta layer. Not with --merge-into.")
    var deltaTriggers: Int?

    @Option(name: .customLong("plugin"), help: "A matcher plugin to count as well (PATH or PATH,key=value,…), through its match entry point (repeatable); counted after --strategies.")
    var plugins: [String] = []

    @OptionGroup var pluginCheck: PluginCheckOption

    @Option(parsing: .unconditional, help: .hidden) var child: String?
    @Option(parsing: .unconditional, help: .hidden) var childPlugin: String?
    @Option(parsing: .unconditional, help: .hidden) var inputLines: Int?

    @OptionGroup var progressOption: ProgressOption

    func validate() throws {
        if child == nil { try input.requireRereadableFiles("each counted child reads it again") }
        for (option, value) in [("--events", events), ("--input-lines", inputLines)] {
            if let value { try Limits.check(option, value, 1...Limits.maxEvents) }
        }
        try Limits.check("--reference-events", referenceEvents, 1...Limits.maxEvents)
        if let deltaTriggers {
            try Limits.check("--delta-triggers", deltaTriggers, 1...CorpusDecoder.maxTriggers)
            if mergeInto != nil { throw ValidationError("--merge-into fills a run's unpublished rows and counts through a delta snapshot belong to none of them; pass one or the other") }
        }
    }

    /// The plugins' rows. Two builds of one plugin (as `bench ab` compares) are loaded and checked one
    /// at a time and told apart by their paths; the same file with the same options twice is refused.
    func pluginStrategies() throws -> [RunStrategy] {
        let sameFileTwice = Dictionary(grouping: plugins, by: { $0 }).first { $0.value.count > 1 }
        if let sameFileTwice { _ = try PluginLibrary.load(arguments: sameFileTwice.value) }  // throws its refusal
        let loaded = try plugins.map { try pluginCheck.strategies([$0])[0] }
        let byName = Dictionary(grouping: loaded, by: \.name)
        return zip(loaded, plugins).map { strategy, argument in
            byName[strategy.name]!.count > 1 ? strategy.renamed("\(strategy.name) (\(PluginLibrary.path(ofArgument: argument)))") : strategy
        }
    }

    func run() throws {
        progressOption.apply()
        var source = try input.source(defaultWorkload: "tiny")
        if let child {
            if case .files(var files) = source {
                files.lineLimit = inputLines
                source = .files(files)
            }
            let data = try LoadedInput.load(source)
            let strategy = try childPlugin.map { try PluginLibrary(argument: $0).runStrategy(checked: false) } ?? RunStrategy.builtIn(child)
            let sum = try InstructionCounter.runCountedRegion(input: data, strategy: strategy,
                                                               count: events ?? data.events.count, deltaTriggers: deltaTriggers)
            try TextOutput.printLine(InstructionCounter.childLine(sum))
            return
        }
        switch source {
        case .generated(var spec):
            if let events { spec.events = events }
            source = .generated(spec)
        case .files(var files):
            files.lineLimit = events
            source = .files(files)
        }
        // The events the children replay: a log's valid lines are known only once it is read.
        let replayed: Int
        if case .generated(let spec) = source { replayed = spec.events } else { replayed = try LoadedInput.load(source).events.count }
        // The results file is read and replaced: it must not be the corpus or the log counted.
        try OutputPaths.refuseOverwriting(outputs: [("--merge-into", mergeInto)],
                                     inputs: [("--corpus", input.corpus), ("--event-log", input.eventLog), ("--workload", input.workloadFile)])
        // Read and opened before counting (minutes under valgrind): a bad or unwritable file fails now.
        let merged = try mergeInto.map(RunReport.load)
        if let merged, let mergeInto {
            try merged.requireCurrentMatchDigest(file: mergeInto, fix: "run bench run --json again with this bench")
        }
        let mergedFile = try mergeInto.map(AtomicFile.init(path:))
        let progress = ProgressLine(enabled: true)
        let counts = try InstructionCounter.count(input: source, strategies: strategies.map(RunStrategy.builtIn) + pluginStrategies(), events: replayed,
                                                  referenceEvents: referenceEvents, deltaTriggers: deltaTriggers, progress: { progress.note($0) })
        progress.note("")
        if var report = merged, let mergedFile {
            try report.merge(counts)
            try mergedFile.commit(with: report.json())
        }
        switch source {
        case .generated(let spec): try TextOutput.printLine("workload \(spec.name), \(replayed) events · callgrind instructions per event of each strategy's 1-thread loop")
        case .files(let files): try TextOutput.printLine("corpus \(files.corpusPath), event log \(files.eventLogPath), \(replayed) events · callgrind instructions per event of each strategy's 1-thread loop")
        }
        let sums = Set(counts.filter { $0.strategy != FloorMatcher.strategyName && $0.strategy != ReferenceMatcher.strategyName }.map(\.checksum))
        let width = max(16, counts.map(\.strategy.count).max() ?? 0)
        for c in counts {
            try TextOutput.printLine("\(c.strategy.padding(toLength: width, withPad: " ", startingAt: 0)) \(String(format: "%12.1f", c.instructionsPerEvent)) instructions/event  (\(c.instructions) over \(c.events) events, checksum \(c.checksum.hex.prefix(8)))")
        }
        if sums.count > 1 {
            throw MatchedWrongly(description: "under callgrind: checksums \(sums.map(\.hex).sorted())")
        }
    }
}

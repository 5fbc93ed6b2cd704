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
            workload is generated and the matcher warmed uncounted. Needs valgrind (scripts/instructions installs it).
            """)

    @OptionGroup var input: InputOptions

    @Option(help: "Comma-separated strategies to count.")
    var strategies = StrategyRegistry.names.joined(separator: ",")

    @Option(parsing: .unconditional, help: "Events to replay (default: the workload's count, or every line of --event-log; `reference` replays at most --reference-events).")
    var events: Int?

    @Option(parsing: .unconditional, help: "Events replayed by `reference`.")
    var referenceEvents = 50_000

    @Option(help: "Write the counts into this results JSON (its 1-thread, unpublished rows); checksums must agree.")
    var mergeInto: String?

    @Option(parsing: .unconditional, help: "Count matching through the snapshot a delta writer publishes after one delta of N triggers (as bench run --delta-triggers publishes them): the per-event cost of a delta layer. Not with --merge-into.")
    var deltaTriggers: Int?

    @Option(parsing: .unconditional, help: .hidden) var child: String?
    @Option(parsing: .unconditional, help: .hidden) var workloadEvents: Int?

    func validate() throws {
        if input.eventLog == "-" { throw ValidationError("--event-log -: each counted child reads the log again; give a file") }
        for (option, value) in [("--events", events), ("--workload-events", workloadEvents)] {
            if let value { try Limits.check(option, value, 1...Limits.maxEvents) }
        }
        try Limits.check("--reference-events", referenceEvents, 1...Limits.maxEvents)
        if let deltaTriggers {
            try Limits.check("--delta-triggers", deltaTriggers, 1...CorpusDecoder.maxTriggers)
            if mergeInto != nil { throw ValidationError("--merge-into fills a run's unpublished rows and counts through a delta snapshot belong to none of them; pass one or the other") }
        }
    }

    func run() throws {
        var spec = try WorkloadSpec.load(input.workloadName(or: "tiny"))
        if let child {
            if let workloadEvents { spec.events = workloadEvents }
            let data = try RunInput.load(workload: spec, files: input.files(lines: workloadEvents))
            let sum = try InstructionCounter.runCountedRegion(input: data, strategy: child, count: events ?? data.events.count,
                                                               deltaTriggers: deltaTriggers)
            try TextOutput.printLine("checksum \(sum.hex)")
            return
        }
        if let events { spec.events = events }
        // The events the children replay: a log's valid lines are known only once it is read.
        let replayed = input.eventLog == nil ? spec.events : try RunInput.load(workload: spec, files: input.files(lines: events)).events.count
        let names = try RunOptions.parseStrategies(strategies)
        // Read and opened before counting (minutes under valgrind): a bad or unwritable file fails now.
        let merged = try mergeInto.map(RunReport.load)
        let mergedFile = try mergeInto.map(AtomicFile.init(path:))
        let progress = ProgressLine(enabled: true)
        let counts = try InstructionCounter.count(input: input.arguments(defaultWorkload: "tiny"), eventsOverride: events, strategies: names, events: replayed,
                                                  referenceEvents: referenceEvents, deltaTriggers: deltaTriggers, progress: { progress.note($0) })
        progress.note("")
        if var report = merged, let mergedFile {
            do { try report.merge(counts) } catch let mismatch as ChecksumMismatch {
                TextOutput.standardError("bench: strategies disagree: \(mismatch)")
                throw ExitCode(Exit.regression)
            }
            try mergedFile.commit(with: report.json())
        }
        let sums = Set(counts.filter { $0.strategy != FloorMatcher.strategyName && $0.strategy != ReferenceMatcher.strategyName }.map(\.checksum))
        for c in counts {
            try TextOutput.printLine("\(c.strategy.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(format: "%12.1f", c.instructionsPerEvent)) instructions/event  (\(c.instructions) over \(c.events) events, checksum \(c.checksum.prefix(8)))")
        }
        if sums.count > 1 {
            TextOutput.standardError("bench: strategies disagree under callgrind: checksums \(sums.sorted())")
            throw ExitCode(Exit.regression)
        }
    }
}

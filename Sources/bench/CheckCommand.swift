import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "The regression gate: compare a results file against a baseline; exit 1 on a regression.",
        discussion: """
            Three tiers (docs/measuring.md): checksums and allocations/event must be equal; instructions/event (from
            --instructions runs) may rise by at most --instruction-tolerance; wall clock fails only when the
            Mann–Whitney U test over the repetition samples (--repetitions) is significant AND the median slowed
            by more than --minimum-effect. Results from unlike environments, workloads or run settings, and empty
            results, are refused (exit 2); a different kernel is noted.
            Exit codes: 0 pass, 1 regression, 2 bad input or refusal.
            """)

    @Option(help: "The baseline results JSON (e.g. Corpora/baselines/tiny.json).")
    var baseline: String

    @Option(help: "The results JSON to judge (from `bench run --json`).")
    var current: String

    @Option(help: "Wall-clock tier: enforce, informational (report, never fail) or off.")
    var wallClock = "enforce"

    @Option(parsing: .unconditional, help: "Relative rise of instructions/event that fails, e.g. 0.02 for 2 %.")
    var instructionTolerance = 0.02

    @Option(parsing: .unconditional, help: "Minimum relative slowdown of the median ns/event that can fail, e.g. 0.05 for 5 %.")
    var minimumEffect = 0.05

    @Option(parsing: .unconditional, help: "Significance level of the Mann–Whitney U test.")
    var alpha = 0.01

    @Option(help: "Comma-separated fields allowed to differ: environment (build, swift, jemalloc, malloc_conf, cpu, cores) or settings (events, reference_events, batch_size, warmup_events, allocation_events, latency_events, repetitions, publish_every_ms, prebuilt_sets), or all. A different kernel is only noted.")
    var allowDifference = ""

    @Option(help: "Also write the Markdown table to this file (e.g. a CI job summary).")
    var markdown: String?

    @Option(help: "Write the current results as github-action-benchmark `customSmallerIsBetter` JSON.")
    var githubBenchmark: String?

    func run() throws {
        guard let mode = Gate.WallClock(rawValue: wallClock) else {
            throw ValidationError("--wall-clock takes enforce, informational or off, got \"\(wallClock)\"")
        }
        guard instructionTolerance >= 0, minimumEffect >= 0, alpha > 0, alpha < 1 else {
            throw ValidationError("--instruction-tolerance and --minimum-effect must be ≥ 0 and --alpha in (0, 1)")
        }
        let known: Set<String> = ["build", "swift", "jemalloc", "malloc_conf", "cpu", "cores", "kernel", "all", "events", "reference_events",
                                  "batch_size", "warmup_events", "allocation_events", "latency_events", "repetitions", "publish_every_ms",
                                  "prebuilt_sets"]
        let allowed = Set(allowDifference.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        if let unknown = allowed.subtracting(known).first {
            throw ValidationError("--allow-difference: unknown field \"\(unknown)\"; choose from \(known.sorted().joined(separator: ", "))")
        }
        var options = Gate.Options()
        options.wallClock = mode
        options.instructionTolerance = instructionTolerance
        options.minimumEffect = minimumEffect
        options.alpha = alpha
        options.allowedDifferences = allowed
        let base = try RunReport.load(baseline)
        let cur = try RunReport.load(current)
        let report: Gate.Report
        do {
            report = try Gate.compare(baseline: base, current: cur, options: options)
        } catch let refusal as Gate.Refusal {
            throw InputError(file: current, path: "", reason: refusal.description)
        }
        let text = report.markdown()
        try TextOutput.printText(text)
        if let markdown { try AtomicFile.write(Data(text.utf8), to: markdown) }
        if let githubBenchmark { try AtomicFile.write(Gate.githubBenchmarkJSON(cur), to: githubBenchmark) }
        if !report.regressions.isEmpty { throw ExitCode(Exit.regression) }
    }
}

struct InstructionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instructions",
        abstract: "Count instructions per event of each strategy's single-threaded matching loop under valgrind --tool=callgrind.",
        discussion: """
            Deterministic (same binary, workload and machine kind give the same count), so the gate can hold it to
            a tight tolerance. Only the matching loop is counted, between callgrind start/stop requests; the
            workload is generated and the matcher warmed uncounted. Needs valgrind (scripts/instructions installs it).
            """)

    @Option(help: "A preset name from Corpora/workloads or a spec file path.")
    var workload = "tiny"

    @Option(help: "Comma-separated strategies to count.")
    var strategies = StrategyRegistry.names.joined(separator: ",")

    @Option(parsing: .unconditional, help: "Events to replay (default: the workload's count; `reference` replays at most --reference-events).")
    var events: Int?

    @Option(parsing: .unconditional, help: "Events replayed by `reference`.")
    var referenceEvents = 50_000

    @Option(help: "Write the counts into this results JSON (its 1-thread, unpublished rows); checksums must agree.")
    var mergeInto: String?

    @Option(parsing: .unconditional, help: .hidden) var child: String?
    @Option(parsing: .unconditional, help: .hidden) var workloadEvents: Int?

    func validate() throws {
        for (option, value) in [("--events", events), ("--workload-events", workloadEvents)] {
            if let value { try Limits.check(option, value, 1...Limits.maxEvents) }
        }
        try Limits.check("--reference-events", referenceEvents, 1...Limits.maxEvents)
    }

    func run() throws {
        var spec = try WorkloadSpec.load(workload)
        if let child {
            if let workloadEvents { spec.events = workloadEvents }
            let sum = try InstructionCounter.runCountedRegion(spec: spec, strategy: child, count: events ?? spec.events)
            try TextOutput.printLine("checksum \(sum.hex)")
            return
        }
        if let events { spec.events = events }
        let names = try RunCommand.parseStrategies(strategies)
        // Read and opened before counting (minutes under valgrind): a bad or unwritable file fails now.
        let merged = try mergeInto.map(RunReport.load)
        let mergedFile = try mergeInto.map(AtomicFile.init(path:))
        let progress = ProgressLine(enabled: true)
        let counts = try InstructionCounter.count(workload: workload, eventsOverride: events, strategies: names, events: spec.events,
                                                  referenceEvents: referenceEvents, progress: { progress.note($0) })
        progress.note("")
        if var report = merged, let mergedFile {
            do { try report.merge(counts) } catch let mismatch as ChecksumMismatch {
                TextOutput.standardError("bench: strategies disagree: \(mismatch)")
                throw ExitCode(Exit.regression)
            }
            try mergedFile.write(report.json())
            try mergedFile.commit()
        }
        let sums = Set(counts.filter { $0.strategy != FloorMatcher.strategyName && $0.strategy != ReferenceStrategy.strategyName }.map(\.checksum))
        for c in counts {
            try TextOutput.printLine("\(c.strategy.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(format: "%12.1f", c.instructionsPerEvent)) instructions/event  (\(c.instructions) over \(c.events) events, checksum \(c.checksum.prefix(8)))")
        }
        if sums.count > 1 {
            TextOutput.standardError("bench: strategies disagree under callgrind: checksums \(sums.sorted())")
            throw ExitCode(Exit.regression)
        }
    }
}

struct FlameGraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flamegraph",
        abstract: "Fold `perf script` output into stacks and draw a flame graph SVG (used by scripts/profile).")

    @Option(help: "`perf script` output (demangled), or '-' for standard input.")
    var perfScript: String?

    @Option(help: "Already folded stacks (`frame;frame count` lines) instead of --perf-script.")
    var folded: String?

    @Option(help: "Write the folded stacks here.")
    var foldedOut: String?

    @Option(help: "Write the flame graph SVG here.")
    var svg: String?

    @Option(help: "The graph's title.")
    var title = "TriggerBench CPU profile"

    func run() throws {
        let stacks: [FlameGraph.Stack]
        switch (perfScript, folded) {
        case (let p?, nil):
            let data = p == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: p)
            guard let data else { throw InputError(file: p, path: "", reason: "cannot read the perf script output") }
            stacks = FlameGraph.fold(perfScript: try FlameGraph.checkText(data, file: p))
        case (nil, let f?):
            guard let data = FileManager.default.contents(atPath: f) else { throw InputError(file: f, path: "", reason: "cannot read the folded stacks") }
            stacks = try FlameGraph.parseFolded(FlameGraph.checkText(data, file: f), file: f)
        default:
            throw ValidationError("give exactly one of --perf-script and --folded")
        }
        guard !stacks.isEmpty else { throw InputError(file: perfScript ?? folded ?? "-", path: "", reason: "no samples found") }
        if let foldedOut { try AtomicFile.write(Data(FlameGraph.foldedText(stacks).utf8), to: foldedOut) }
        if let svg { try AtomicFile.write(Data(FlameGraph.svg(stacks, title: title).utf8), to: svg) }
        if foldedOut == nil && svg == nil { try TextOutput.printText(FlameGraph.foldedText(stacks)) }
    }
}

struct ABCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "Compare builds of bench on one workload: alternating runs, ratios within each repetition.",
        discussion: """
            Runs each BUILD's `bench run --json` in turn, --rounds times (A B A B …), and pools every build's
            repetitions. For each build and strategy it prints the best and the median ns/event, the median of
            the ratios to --baseline within a repetition, and best over best. On this shared host a single run
            per build compares the host's minutes as much as the code; and keep in mind that a small function's
            time (floor's 7 ns) moves with its placement in the binary, so a change elsewhere can move the ratio.
            Exit 1 when the builds match differently (their checksums differ).
            Example: cp .build/release/bench /tmp/bench.old; (change, swift build -c release);
            bench ab /tmp/bench.old .build/release/bench --workload braze-typical-200
            """)

    @Argument(help: "Paths of two or more bench executables.")
    var builds: [String]

    @Option(help: "A preset name from Corpora/workloads or a spec file path.")
    var workload = "braze-typical-200"

    @Option(help: "Comma-separated strategies (include the baseline).")
    var strategies = "compiled,floor"

    @Option(help: "The strategy ratios divide by.")
    var baseline = "floor"

    @Option(parsing: .unconditional, help: "Events per run.")
    var events = 500_000

    @Option(parsing: .unconditional, help: "Interleaved repetitions per run.")
    var repetitions = 8

    @Option(parsing: .unconditional, help: "Runs per build, alternating between the builds.")
    var rounds = 3

    func validate() throws {
        guard builds.count >= 2 else { throw ValidationError("give at least two bench executables to compare") }
        for b in builds where !FileManager.default.isExecutableFile(atPath: b) {
            throw ValidationError("\(b) is not an executable file")
        }
        try Limits.check("--events", events, 1...Limits.maxEvents)
        try Limits.check("--repetitions", repetitions, 1...1000)
        try Limits.check("--rounds", rounds, 1...1000)
    }

    func run() throws {
        let names = try RunCommand.parseStrategies(strategies)
        guard names.contains(baseline) else { throw ValidationError("--strategies must include the baseline \(baseline)") }
        let progress = ProgressLine(enabled: true)
        let comparison: BuildComparison
        do {
            comparison = try BuildComparison.measure(builds: builds, workload: workload, strategies: names, events: events,
                                                     repetitions: repetitions, rounds: rounds, baseline: baseline, progress: { progress.note($0) })
        } catch let mismatch as ChecksumMismatch {
            progress.note("")
            TextOutput.standardError("bench: builds disagree: \(mismatch)")
            throw ExitCode(Exit.regression)
        }
        progress.note("")
        try TextOutput.printLine("workload \(workload) · \(rounds) runs per build of \(repetitions) repetitions × \(events) events, alternating")
        try TextOutput.printLine(comparison.table(baseline: baseline))
    }
}

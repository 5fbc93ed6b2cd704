import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct ABCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "Compare builds of bench on one workload: alternating runs, ratios within each repetition.",
        discussion: """
            Runs each BUILD's `bench run --json` in turn, --rounds times (A B A B …; with --fail-if-slower, more while \
            undecided), and pools every build's \
            repetitions. For each build and strategy it prints the best and the median ns/event, the median of \
            the ratios to --baseline within a repetition, and best over best. On this shared host a single run \
            per build compares the host's minutes as much as the code; and keep in mind that a small function's \
            time (floor's 7 ns) moves with its placement in the binary, so a change elsewhere can move the ratio. \
            Exit 1 when the builds match differently (their checksums differ). With --fail-if-slower it is a gate \
            with three answers: exit 1 when a later build is slower, 0 when every interval rules out a --tolerance \
            slowdown, and 3 (inconclusive) when the host was too noisy to tell within --max-seconds.

            With --plugin A.so --plugin B.so, the "builds" are two plugin files (an old and a new build of your \
            matcher), run by this bench in the same alternation; give the plugin's row a built-in beside it \
            as --baseline (default floor).

            Examples:
              cp .build/release/bench /tmp/bench.old    (then change the code and swift build -c release)
              bench ab /tmp/bench.old .build/release/bench --workload braze-typical-200
              bench ab --plugin old/mine.so --plugin new/mine.so --workload braze-typical-200
            """)

    @Argument(help: "Paths of two or more bench executables (or none with --plugin: this bench runs each plugin).")
    var builds: [String] = []

    @Option(name: .customLong("plugin"), help: "Compare plugin files instead of builds (two or more): this bench runs each in turn with --plugin; their rows are compared like builds'.")
    var plugins: [String] = []

    @OptionGroup var pluginCheck: PluginCheckOption

    @OptionGroup var input: InputOptions

    @Option(help: "Comma-separated strategies (include the baseline; default: compiled,floor).", transform: CommaLists.strategies)
    var strategies: [String] = ["compiled", "floor"]

    @Option(help: "The strategy ratios divide by.")
    var baseline = "floor"

    @Option(parsing: .unconditional, help: "Events per run (a workload: 500000 by default; an event log: every line unless given).")
    var events: Int?

    /// What each run replays: a workload's event count, or a log's first lines only when asked (a log
    /// shorter than --events is refused by `bench run`).
    var runEvents: Int? { events ?? (input.eventLog == nil ? 500_000 : nil) }

    @Option(parsing: .unconditional, help: "Interleaved repetitions per run.")
    var repetitions = 8

    @Option(parsing: .unconditional, help: "Runs per build, alternating between the builds (with --fail-if-slower, the first rounds: more follow while undecided).")
    var rounds = 3

    @Flag(help: "A gate: exit 1 when a later build is slower than the first (its ratio's 95 % interval wholly above 1 and the ratio at least 1 + --minimum-effect), 0 when every interval lies below 1 + --tolerance, and otherwise more rounds until --max-seconds, then exit 3 (inconclusive). Calibrated by scripts/calibrate-ab (docs/measuring.md).")
    var failIfSlower = false

    @Option(parsing: .unconditional, help: "With --fail-if-slower: the smallest slowdown that fails, e.g. 0.05 for 5 % (as bench check).")
    var minimumEffect = Gate.defaultMinimumEffect

    @Option(parsing: .unconditional, help: "With --fail-if-slower: the slowdown a pass must rule out, every interval below 1 + this (default: 0.05, or --minimum-effect when larger).")
    var tolerance: Double?

    /// `--tolerance`, else 5 % — or the minimum effect, when a user fails only larger slowdowns.
    var passTolerance: Double { tolerance ?? max(0.05, minimumEffect) }

    @Option(parsing: .unconditional, help: "With --fail-if-slower: the time budget in seconds; undecided comparisons take more rounds while one fits.")
    var maxSeconds = 120.0

    @Option(help: "Write the comparison's changes and verdict as JSON (schema trigger-bench-ab/1).")
    var json: String?

    @OptionGroup var progressOption: ProgressOption

    func validate() throws {
        try input.requireRereadableFiles("each build's run reads it again")
        for (option, path) in [("--corpus", input.corpus), ("--event-log", input.eventLog)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) { throw ValidationError("\(option) \(path): no such readable file") }
        }
        if let events { try Limits.check("--events", events, 1...Limits.maxEvents) }
        try Limits.check("--repetitions", repetitions, 1...1000)
        try Limits.check("--rounds", rounds, 1...1000)
        try OutputPaths.refuseOverwriting(outputs: [("--json", json)],
                                     inputs: [("--corpus", input.corpus), ("--event-log", input.eventLog), ("--workload", input.workloadFile)]
                                         + builds.map { ("BUILD", $0) } + plugins.map { ("--plugin", PluginLibrary.path(ofArgument: $0)) })
        guard minimumEffect >= 0, minimumEffect < 10 else { throw ValidationError("--minimum-effect takes 0 to 10, e.g. 0.03") }
        if let tolerance {
            guard tolerance > 0, tolerance < 10 else { throw ValidationError("--tolerance takes more than 0 and less than 10, e.g. 0.05") }
            guard minimumEffect <= tolerance else {
                throw ValidationError("--minimum-effect \(minimumEffect) is above --tolerance \(tolerance): a slowdown between them could neither fail nor pass; make the tolerance at least the minimum effect")
            }
        }
        guard maxSeconds >= 0, maxSeconds <= 86_400 else { throw ValidationError("--max-seconds takes 0 to 86400, e.g. 120") }
        if !plugins.isEmpty {
            guard builds.isEmpty else { throw ValidationError("compare bench builds or --plugin files, not both") }
            guard plugins.count >= 2 else { throw ValidationError("give at least two --plugin files to compare") }
            for p in plugins where !FileManager.default.isReadableFile(atPath: PluginLibrary.path(ofArgument: p)) {
                throw ValidationError("--plugin \(p): no such readable file")
            }
            return
        }
        guard builds.count >= 2 else { throw ValidationError("give at least two bench executables to compare") }
        for b in builds where !FileManager.default.isExecutableFile(atPath: b) {
            throw ValidationError("\(b) is not an executable file")
        }
    }

    func run() throws {
        progressOption.apply()
        let names = strategies
        guard names.contains(baseline) else { throw ValidationError("--strategies must include the baseline \(baseline)") }
        if failIfSlower, plugins.isEmpty, names.allSatisfy({ $0 == baseline }) {
            throw ValidationError("--fail-if-slower needs a strategy besides the baseline \(baseline) to judge, e.g. --strategies compiled,\(baseline)")
        }
        // Checked once here, one at a time (two builds of one plugin share its name, which one run
        // refuses); the runs below are told not to check again.
        let rowNames = try plugins.map { try pluginCheck.load([$0])[0].strategyName }
        // Their rows pair by name: two builds of one plugin, with the same options.
        if let first = rowNames.first, let other = rowNames.first(where: { $0 != first }) {
            throw ValidationError("the plugins make rows \(first) and \(other), which cannot be compared; give builds of one plugin (the same tb_plugin.name and options)")
        }
        let output = try json.map(AtomicFile.init(path:))
        let progress = ProgressLine(enabled: true)
        let comparison: BuildComparison, decision: ABDecision
        do {
            // With --plugin, this very bench runs each plugin file.
            let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            let runs = try BuildComparison.Rounds(builds: plugins.isEmpty ? builds : [own], plugins: plugins,
                                                  input: input.arguments(defaultWorkload: "braze-typical-200"), pipedWorkload: input.pipedWorkloadText(),
                                                  strategies: names, events: runEvents, repetitions: repetitions)
            var settings = ABDecision.Settings(baseline: baseline, deciding: failIfSlower, initialRounds: rounds, maxSeconds: maxSeconds)
            settings.minimumEffect = minimumEffect
            settings.tolerance = passTolerance
            settings.judged = { [plugins] in plugins.isEmpty || $0.hasPrefix(PluginLibrary.strategyPrefix) }
            (comparison, decision) = try ABDecision.measure(runs, settings, progress: { progress.note($0) })
        } catch let mismatch as MatchedWrongly {
            progress.note("")
            output?.discard()
            TextOutput.standardError("bench: builds disagree: \(mismatch)")
            throw ExitCode(Exit.regression)
        }
        progress.note("")
        try TextOutput.printLine("\(input.corpus.map { "corpus \($0), event log \(input.eventLog!)" } ?? "workload \(input.workloadName(or: "braze-typical-200"))") · \(decision.rounds) runs per build of \(repetitions) repetitions × \(runEvents.map { input.eventLog == nil ? "\($0) events" : "the first \($0) lines" } ?? "every line"), alternating")
        try TextOutput.printLine(comparison.table(baseline: baseline))
        for line in decision.lines() { try TextOutput.printLine(line) }
        try output?.commit(with: decision.json())
        switch decision.outcome {
        case .fail?: throw ExitCode(Exit.regression)
        case .inconclusive?: throw ExitCode(Exit.inconclusive)
        case .pass?, nil: break
        }
    }
}

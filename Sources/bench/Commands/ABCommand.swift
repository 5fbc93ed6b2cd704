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
            Runs each BUILD's `bench run --json` in turn, --rounds times (A B A B …), and pools every build's \
            repetitions. For each build and strategy it prints the best and the median ns/event, the median of \
            the ratios to --baseline within a repetition, and best over best. On this shared host a single run \
            per build compares the host's minutes as much as the code; and keep in mind that a small function's \
            time (floor's 7 ns) moves with its placement in the binary, so a change elsewhere can move the ratio. \
            Exit 1 when the builds match differently (their checksums differ).

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

    @Option(parsing: .unconditional, help: "Events per run.")
    var events = 500_000

    @Option(parsing: .unconditional, help: "Interleaved repetitions per run.")
    var repetitions = 8

    @Option(parsing: .unconditional, help: "Runs per build, alternating between the builds.")
    var rounds = 3

    @Flag(help: "A gate: exit 1 when a later build is slower than the first (its ratio's 95 % interval wholly above 1 and the ratio at least 1 + --minimum-effect). Calibrated by scripts/calibrate-ab (docs/measuring.md).")
    var failIfSlower = false

    @Option(parsing: .unconditional, help: "With --fail-if-slower: the smallest slowdown that fails, e.g. 0.03 for 3 %.")
    var minimumEffect = 0.03

    func validate() throws {
        if input.eventLog == "-" { throw ValidationError("--event-log -: each build's run reads the log again; give a file") }
        for (option, path) in [("--corpus", input.corpus), ("--event-log", input.eventLog)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) { throw ValidationError("\(option) \(path): no such readable file") }
        }
        try Limits.check("--events", events, 1...Limits.maxEvents)
        try Limits.check("--repetitions", repetitions, 1...1000)
        try Limits.check("--rounds", rounds, 1...1000)
        guard minimumEffect >= 0, minimumEffect < 10 else { throw ValidationError("--minimum-effect takes 0 to 10, e.g. 0.03") }
        if !plugins.isEmpty {
            guard builds.isEmpty else { throw ValidationError("compare bench builds or --plugin files, not both") }
            guard plugins.count >= 2 else { throw ValidationError("give at least two --plugin files to compare") }
            for p in plugins where !FileManager.default.isReadableFile(atPath: String(p.prefix { $0 != "," })) {
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
        let names = strategies
        guard names.contains(baseline) else { throw ValidationError("--strategies must include the baseline \(baseline)") }
        // Checked once here, one at a time (two builds of one plugin share its name, which one run
        // refuses); the runs below are told not to check again.
        for plugin in plugins { _ = try pluginCheck.load([plugin]) }
        let progress = ProgressLine(enabled: true)
        let comparison: BuildComparison
        do {
            // With --plugin, this very bench runs each plugin file.
            let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            comparison = try BuildComparison.measure(builds: plugins.isEmpty ? builds : [own], plugins: plugins, input: input.arguments(defaultWorkload: "braze-typical-200"), strategies: names, events: events,
                                                     repetitions: repetitions, rounds: rounds, baseline: baseline, progress: { progress.note($0) })
        } catch let mismatch as ChecksumMismatch {
            progress.note("")
            TextOutput.standardError("bench: builds disagree: \(mismatch)")
            throw ExitCode(Exit.regression)
        }
        progress.note("")
        try TextOutput.printLine("\(input.corpus.map { "corpus \($0), event log \(input.eventLog!)" } ?? "workload \(input.workloadName(or: "braze-typical-200"))") · \(rounds) runs per build of \(repetitions) repetitions × \(input.eventLog == nil ? "\(events) events" : "up to \(events) lines"), alternating")
        try TextOutput.printLine(comparison.table(baseline: baseline))
        if failIfSlower {
            let slower = comparison.changes(baseline: baseline).filter { $0.isSlower(minimumEffect: minimumEffect) }
            for c in slower {
                try TextOutput.printLine(String(format: "SLOWER: %@ of %@ is ×%.3f the first build's (95 %% interval [%.3f, %.3f]; fails at ≥ %.0f %%)",
                                                c.strategy, c.build, c.ratio, c.interval[0], c.interval[1], minimumEffect * 100))
            }
            try TextOutput.printLine(slower.isEmpty ? "ab gate: pass" : "ab gate: FAIL")
            if !slower.isEmpty { throw ExitCode(Exit.regression) }
        }
    }
}

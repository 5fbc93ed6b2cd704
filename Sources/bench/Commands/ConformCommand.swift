import ArgumentParser
import Foundation
import Harness
import TriggerKit

struct ConformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Check a matcher (a plugin or a built-in strategy) against the conformance cases; exit 1 on any disagreement.",
        discussion: """
            Every case is a folder with corpus.json, events.jsonl and expected.jsonl (the replay output). For each event \
            line the set of triggers the matcher reports must equal the line's expected `matched` list. Prints one \
            line per case and the first disagreements of a failing one. This is how a port of the matching rules \
            (an SDK's matcher) is checked. A plugin that covers some rules on purpose may refuse a case's corpus \
            in create: the case is reported as refused, with the plugin's reason, and the others are still checked. \
            Exit 1 when a case disagrees; 2 when every case was refused (nothing was checked); else 0.

            With --generate, cases are generated instead: seeded corpora and events aimed at every rule's edges \
            (numbers at 2^53 and 2^63, -0, subnormals; canonically equivalent strings; ISO dates and relative dates at \
            the last bit; windows; every stated limit; over 4,096 triggers; index shapes), each event's matches \
            compared with reference. A disagreement is shrunk to the smallest case that still disagrees and written \
            as a case folder (--write-cases) that plain `bench conform --cases` replays. Without --plugin or \
            --strategy every built-in strategy is checked.
            """)

    @Option(help: "A matcher plugin (shared library) to check: PATH or PATH,key=value,… (options handed to the plugin).")
    var plugin: String?

    @Option(help: "A built-in strategy to check instead of a plugin.")
    var strategy: String?

    @Option(help: "A folder of cases, or one case folder (repeatable; default: Corpora/conformance).")
    var cases: [String] = []

    @Option(parsing: .unconditional, help: "Disagreements printed per failing case.")
    var show = 5

    @Flag(help: "Generate cases at the rules' edges instead of reading case folders.")
    var generate = false

    @Option(parsing: .unconditional, help: "With --generate: the seed (default: one from the clock, printed, to rerun with).")
    var seed: UInt64?

    @Option(parsing: .unconditional, help: "With --generate: stop after this many seconds (default: 10; at least one case is always checked).")
    var seconds: Double?

    @Option(parsing: .unconditional, help: "With --generate: stop after this many generated cases (rounds), if sooner.")
    var rounds: Int?

    @Option(help: "With --generate: the folder that shrunk disagreements are written to, one case folder each (default: generated-cases).")
    var writeCases: String?

    @OptionGroup var progressOption: ProgressOption

    func validate() throws {
        if !generate, seed != nil || rounds != nil || seconds != nil || writeCases != nil {
            throw ValidationError("--seed, --seconds, --rounds and --write-cases go with --generate")
        }
        guard (plugin == nil) != (strategy == nil) || (generate && plugin == nil) else {
            throw ValidationError(generate ? "give --plugin PATH or --strategy NAME, not both" : "give --plugin PATH or --strategy NAME (one of them)")
        }
        if generate, !cases.isEmpty { throw ValidationError("--cases reads case folders; --generate makes its own (give one or the other)") }
        if let seconds, !(seconds > 0 && seconds <= 86_400) {
            throw ValidationError("--seconds must be more than 0 and at most 86400 (a day), got \(seconds)")
        }
        if let rounds { try Limits.check("--rounds", rounds, 1...100_000_000) }
        if let writeCases { try Self.checkCaseFolder(writeCases) }
        if let strategy {
            // With --generate, the delta writers' contenders may be named too (a finding's rerun names one).
            let names = generate ? GeneratedCheck.Contender.builtIn.map(\.name)
                : StrategyRegistry.names.filter { $0 != FloorMatcher.strategyName }
            guard names.contains(strategy) else {
                throw ValidationError("unknown strategy \"\(strategy)\"; choose from \(names.joined(separator: ", "))")
            }
        }
        try Limits.check("--show", show, 0...10_000)
    }

    func run() throws {
        progressOption.apply()
        if generate { return try runGenerated() }
        let library = try plugin.map(PluginLibrary.init(argument:))
        let name = library?.strategyName ?? strategy!
        let directories = try (cases.isEmpty ? [Conformance.defaultDirectory] : cases).flatMap(Conformance.cases(in:))
        if let library {
            TextOutput.standardError(library.loadedNotice)
        }
        let width = directories.map { ($0 as NSString).lastPathComponent.count }.max() ?? 0
        var failing = 0, refused = 0
        let results = try directories.map { directory in
            try Conformance.check(case: directory) { corpus in
                if let library { return library.strategy(corpusJSON: corpus.json, of: corpus.set) }
                return StrategyRegistry.named(strategy!)!
            }
        }
        for (i, result) in results.enumerated() {
            let label = PrintableText.escaped(result.name).padding(toLength: width, withPad: " ", startingAt: 0)
            if let reason = result.refused {
                refused += 1
                // A reason given for several cases is printed once, with how many more it covers.
                if let first = results[..<i].first(where: { $0.refused == reason }) {
                    try TextOutput.printLine("skip  \(label)  refused by create (the same reason as \(PrintableText.escaped(first.name)))")
                    continue
                }
                let repeats = results[(i + 1)...].filter { $0.refused == reason }.count
                let same = repeats == 0 ? "" : " (the same for \(repeats) more case\(repeats == 1 ? "" : "s"))"
                try TextOutput.printLine("skip  \(label)  refused by create: \(PrintableText.cut(reason))\(same)")
                continue
            }
            if result.disagreements.isEmpty, result.invalidResults == 0 {
                try TextOutput.printLine("ok    \(label)  \(result.events) event\(result.events == 1 ? "" : "s") agree\(result.events == 1 ? "s" : "")")
                continue
            }
            failing += 1
            var summary = "FAIL  \(label)  \(result.disagreeingEvents) of \(result.events) events disagree"
            if result.invalidResults > 0 { summary += "; \(result.invalidResults) results broke the plugin ABI (an index outside the corpus or reported twice, or a bad count)" }
            try TextOutput.printLine(summary)
            for d in result.disagreements.prefix(show) { try TextOutput.printLine("      \(d.description)") }
        }
        let agreeing = directories.count - failing - refused
        try TextOutput.printLine("\(name): \(agreeing) of \(directories.count) cases agree" + (refused > 0 ? ", \(refused) refused" : "")
            + (failing > 0 ? ", \(failing) disagree" : ""))
        if failing > 0 { throw ExitCode(Exit.regression) }
        if agreeing == 0 {
            throw HarnessError(what: name, reason: "refused every case's corpus, so nothing was checked; give --cases folders whose rules it covers")
        }
    }
}

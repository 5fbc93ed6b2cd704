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
            (an SDK's matcher) is checked.
            """)

    @Option(help: "A matcher plugin (shared library) to check: PATH or PATH,key=value,… (options handed to the plugin).")
    var plugin: String?

    @Option(help: "A built-in strategy to check instead of a plugin.")
    var strategy: String?

    @Option(help: "A folder of cases, or one case folder (repeatable; default: Corpora/conformance).")
    var cases: [String] = []

    @Option(parsing: .unconditional, help: "Disagreements printed per failing case.")
    var show = 5

    func validate() throws {
        guard (plugin == nil) != (strategy == nil) else { throw ValidationError("give --plugin PATH or --strategy NAME (one of them)") }
        if let strategy, StrategyRegistry.named(strategy) == nil || strategy == FloorMatcher.strategyName {
            throw ValidationError("unknown strategy \"\(strategy)\"; choose from \(StrategyRegistry.names.filter { $0 != FloorMatcher.strategyName }.joined(separator: ", "))")
        }
        try Limits.check("--show", show, 0...10_000)
    }

    func run() throws {
        let library = try plugin.map(PluginLibrary.init(argument:))
        let name = library?.strategyName ?? strategy!
        let directories = try (cases.isEmpty ? [Conformance.defaultDirectory] : cases).flatMap(Conformance.cases(in:))
        if let library {
            TextOutput.standardError(library.loadedNotice)
        }
        let width = directories.map { ($0 as NSString).lastPathComponent.count }.max() ?? 0
        var failing = 0
        for directory in directories {
            let result = try Conformance.check(case: directory) { corpus in
                if let library { return library.strategy(corpusJSON: corpus.json) }
                return StrategyRegistry.named(strategy!)!
            }
            let label = PrintableText.escaped(result.name).padding(toLength: width, withPad: " ", startingAt: 0)
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
        try TextOutput.printLine("\(name): \(directories.count - failing) of \(directories.count) cases agree")
        if failing > 0 { throw ExitCode(Exit.regression) }
    }
}

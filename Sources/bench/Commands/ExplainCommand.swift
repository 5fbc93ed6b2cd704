import ArgumentParser
import Foundation
import Harness
import TriggerKit

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain one event: which triggers were considered, which filter failed on which value, and what delivery decided.",
        discussion: """
            With --history, the history is replayed first exactly as `bench replay` replays it (events, control \
            lines, displays, --display-seconds, --strategy), and the event is explained from the state that \
            reaches: the decision is the one replay prints for the event's line after the history. \
            Exit code 2 when a history line was invalid (after the report) or ends after the event.
            """)

    @Option(help: "The trigger corpus (trigger-corpus/1 JSON).")
    var corpus: String

    @Option(help: "The event as one JSON object, e.g. '{\"time\":1732270000,\"type\":\"custom_event\",\"name\":\"added_to_cart\"}'.")
    var event: String

    @Option(help: "Optional JSONL replayed before the event, as `bench replay` reads it (events and control lines); \"-\" reads standard input.")
    var history: String?

    @OptionGroup var replay: ReplayOptions

    func run() throws {
        let result = try Explain.run(corpusPath: corpus, eventText: event, historyPath: history,
                                     displaySeconds: replay.displaySeconds, makeMatcher: replay.makeMatcher())
        try TextOutput.printLine(result.report)
        if result.invalidHistoryLines > 0, let history {
            TextOutput.standardError("bench: \(history): \(result.invalidHistoryLines) invalid line(s); see the history lines listed above")
            throw ExitCode(Exit.badInput)
        }
    }
}

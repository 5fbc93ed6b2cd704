import ArgumentParser
import Foundation
import Harness
import TriggerKit

/// The options that change what a simulated device decides, shared by `replay` and `explain`.
struct ReplayOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Seconds a displayed message stays on screen unless a dismiss line comes first.")
    var displaySeconds: Double = 10

    @Option(help: "The matcher strategy deciding matches (see `bench strategies`); outputs are identical for all.")
    var strategy: String = "reference"

    func validate() throws {
        guard StrategyRegistry.named(strategy) != nil else {
            throw ValidationError("unknown strategy \"\(strategy)\"; choose one of \(StrategyRegistry.names.filter { $0 != "floor" }.joined(separator: ", "))")
        }
        guard strategy != "floor" else { throw ValidationError("floor evaluates nothing and cannot decide matches; pick another strategy") }
        guard displaySeconds >= 0, displaySeconds.isFinite else {
            throw ValidationError("--display-seconds must be a finite number of seconds, zero or more")
        }
    }

    func makeMatcher() -> (TriggerSet) -> (Event) -> [Int] {
        StrategyRegistry.eventMatcher(StrategyRegistry.named(strategy)!)
    }
}

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a JSONL event stream on one simulated device; print one JSON outcome per input line.",
        discussion: """
            The device starts in the foreground, portrait, with nothing showing. Control lines change it:
              {"time":t,"type":"app_state","state":"background"|"foreground"}
              {"time":t,"type":"orientation","value":"landscape"|"portrait"}
              {"time":t,"type":"dismiss"}
            Asset URLs starting with "\(ReplaySession.failingAssetPrefix)" fail to load, to script asset failures.
            Exit code 2 after the last line when any line was invalid.
            """)

    @Option(help: "The trigger corpus (trigger-corpus/1 JSON).")
    var corpus: String

    @Option(help: "The event stream, one JSON object per line; \"-\" reads standard input.")
    var events: String

    @OptionGroup var replay: ReplayOptions

    func run() throws {
        let out = TextOutput.standardOutput()
        let invalid = try ReplaySession.run(
            corpusPath: corpus, eventsPath: events, displaySeconds: replay.displaySeconds,
            makeMatcher: replay.makeMatcher(), write: out.line)
        try out.flush()
        if invalid > 0 {
            TextOutput.standardError("bench: \(events): \(invalid) invalid line(s); see their \"error\" fields")
            throw ExitCode(Exit.badInput)
        }
    }
}

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain one event: which triggers were considered, which filter failed on which value, and what delivery decided.",
        discussion: """
            With --history, the history is replayed first exactly as `bench replay` replays it (events, control
            lines, displays, --display-seconds, --strategy), and the event is explained from the state that
            reaches: the decision is the one replay prints for the event's line after the history.
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

struct StrategiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strategies", abstract: "List the matcher strategies.")

    func run() throws {
        let width = StrategyRegistry.names.map(\.count).max()!
        for s in StrategyRegistry.all {
            try TextOutput.printLine(s.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + s.summary)
        }
    }
}

import ArgumentParser
import Foundation
import Harness
import TriggerKit

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

    func run() throws {
        let out = TextOutput.standardOutput()
        let invalid = try ReplaySession.run(
            corpusPath: corpus, eventsPath: events, displaySeconds: displaySeconds,
            makeMatcher: StrategyRegistry.eventMatcher(StrategyRegistry.named(strategy)!), write: out.line)
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
        abstract: "Explain one event: which triggers were considered, which filter failed on which value, and what delivery decided.")

    @Option(help: "The trigger corpus (trigger-corpus/1 JSON).")
    var corpus: String

    @Option(help: "The event as one JSON object, e.g. '{\"time\":1732270000,\"type\":\"custom_event\",\"name\":\"added_to_cart\"}'.")
    var event: String

    @Option(help: "Optional JSONL of earlier events delivered first (for re-eligibility and the interval).")
    var history: String?

    func run() throws {
        let set = try CorpusDecoder.load(path: corpus)
        let decoded: Event
        do {
            decoded = try EventDecoder.decode(line: Array(event.utf8), categories: set.actionCategories)
        } catch let e as InputError {
            throw InputError(file: "--event", path: e.path, reason: e.reason)
        }
        var past: [Event] = []
        if let history {
            var reader = try LineReader(path: history, maxLineBytes: EventDecoder.maxLineBytes)
            var n = 0
            while let line = reader.next() {
                defer { n += 1 }
                guard case .text(let bytes) = line else {
                    throw InputError(file: history, path: "line \(n + 1)", reason: "line too long")
                }
                do {
                    let json = try EventDecoder.parseLine(bytes)
                    if case .string(let t)? = json["type"], !EventDecoder.eventTypes.contains(t) { continue }
                    past.append(try EventDecoder.decode(json, categories: set.actionCategories))
                } catch let e as InputError {
                    throw InputError(file: history, path: "line \(n + 1): \(e.path)", reason: e.reason)
                }
            }
        }
        try TextOutput.printLine(Explain.report(triggerSet: set, event: decoded, history: past))
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

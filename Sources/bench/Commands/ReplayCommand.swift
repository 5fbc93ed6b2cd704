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
            Asset URLs starting with "\(ReplaySession.failingAssetPrefix)" fail to load, to script asset failures. \
            Exit code 2 after the last line when any line was invalid.
            """)

    @Option(help: "The trigger corpus (trigger-corpus/1 JSON).")
    var corpus: String

    @Option(name: [.customLong("events"), .customLong("event-log")],
            help: "The event stream, one JSON object per line; \"-\" reads standard input (--event-log is the same, as run and lint call it).")
    var events: String

    @OptionGroup var replay: ReplayOptions
    @OptionGroup var progress: ProgressOption

    func run() throws {
        progress.apply()
        let out = TextOutput.standardOutput()
        let invalid = try ReplaySession.run(
            corpusPath: corpus, eventsPath: events, displaySeconds: replay.displaySeconds,
            makeMatcher: replay.makeMatcher(), progress: ProgressLine(enabled: true),
            checkBuild: { [strategy = replay.strategy] in try BuildRoom.check(StrategyRegistry.named(strategy)!, set: $0) }, warn: { TextOutput.standardError("bench: \($0)") }, write: out.line)
        try out.flush()
        if invalid > 0 {
            TextOutput.standardError("bench: \(events): \(invalid) invalid line(s); see their \"error\" fields")
            throw ExitCode(Exit.badInput)
        }
    }
}

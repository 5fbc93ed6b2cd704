import ArgumentParser
import Foundation
import Harness
import TriggerKit

/// Lists what looks wrong in a corpus and event log that are each valid: the mistakes that match
/// nothing without a word (times in milliseconds, numbers sent as strings, near-miss names, filters
/// on properties no event holds).
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "List what looks wrong in your corpus and event log though every line is valid.",
        discussion: """
            Reads both files as bench run does and lists, with counts and up to three examples each: event \
            times that look like milliseconds or microseconds; numbers sent as strings to properties number \
            filters read (and the reverse), with the share of each event name's events; event names and ids \
            no trigger uses that are near one it does (case, Unicode form or one letter), and event \
            properties near one their event's filters read, with "did you mean"; properties filters read \
            that no event holds. Every invalid line is listed (the first 10,000). bench run and bench fit \
            say the same in one line. Exit codes: 0 nothing found (or --no-fail), 1 something found, 2 bad \
            input or, with --strict, any invalid line.

            Example:
              bench lint --corpus triggers.json --event-log events.jsonl
              bench lint --corpus triggers.json --event-log events.jsonl --json > lint.json
            """)

    @Option(help: "The trigger corpus (trigger-corpus/1 JSON).")
    var corpus: String

    @Option(help: "The event log, one JSON object per line.")
    var eventLog: String

    @Option(help: "Read only the first N lines of the log.")
    var events: Int?

    @Flag(help: "Exit 2 when any line is invalid (all are listed first).")
    var strict = false

    @Flag(help: "Print the report as JSON (trigger-lint/1) instead of text.")
    var json = false

    @Flag(help: "Exit 0 even when something is found (list it and go on, as in a report).")
    var noFail = false

    func validate() throws {
        if let events, events < 1 { throw ValidationError("--events must be at least 1") }
    }

    func run() throws {
        let loaded = try LoadedCorpus(path: corpus)
        let lint = DataLint(loaded.set, vocabulary: loaded.vocabulary)
        // Read to the end even with --strict: every invalid line is listed, not only the first.
        let log = try LoadedEventLog.load(path: eventLog, vocabulary: loaded.vocabulary, categories: loaded.set.actionCategories,
                                          lineLimit: events, strict: false, lint: lint, errorsKept: LoadedEventLog.errorsListed)
        let report = LintReport(corpus: corpus, eventLog: eventLog, triggers: loaded.set.triggers.count, log: log, findings: lint.findings)
        if json {
            try TextOutput.printLine(String(decoding: try report.json(), as: UTF8.self))
        } else {
            try TextOutput.printLine(report.text)
        }
        if strict, log.invalidLines > 0 {
            throw InputError(file: eventLog == "-" ? "standard input" : eventLog, path: "line \(log.firstErrors[0].line)",
                             reason: "\(log.invalidLines) invalid line\(log.invalidLines == 1 ? "" : "s") (--strict; all listed above)")
        }
        if !report.findings.isEmpty, !noFail { throw ExitCode(Exit.regression) }
    }
}

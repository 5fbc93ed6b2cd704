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
            filters read (and the reverse); event names and ids no trigger uses that differ from one it does \
            only by case or Unicode form; properties filters read that no event holds. bench run and bench \
            fit say the same in one line. Exit codes: 0 nothing found (or --no-fail), 1 something found, 2 \
            bad input. Invalid lines are counted, as bench run counts them (--strict refuses them).

            Example:
              bench lint --corpus triggers.json --event-log events.jsonl
            """)

    @Option(help: "The trigger corpus (trigger-corpus/1 JSON).")
    var corpus: String

    @Option(help: "The event log, one JSON object per line.")
    var eventLog: String

    @Option(help: "Read only the first N lines of the log.")
    var events: Int?

    @Flag(help: "Refuse the log at its first invalid line.")
    var strict = false

    @Flag(help: "Exit 0 even when something is found (list it and go on, as in a report).")
    var noFail = false

    func validate() throws {
        if let events, events < 1 { throw ValidationError("--events must be at least 1") }
    }

    func run() throws {
        let loaded = try LoadedCorpus(path: corpus)
        let lint = DataLint(loaded.set)
        let log = try LoadedEventLog.load(path: eventLog, vocabulary: loaded.vocabulary, categories: loaded.set.actionCategories,
                                          lineLimit: events, strict: strict, lint: lint)
        let findings = lint.findings
        var lines = ["\(PrintableText.escaped(corpus)): \(loaded.set.triggers.count) triggers · \(PrintableText.escaped(eventLog)): \(log.lines) lines, \(log.columns.count) events"
                     + (log.invalidLines > 0 ? ", \(log.invalidLines) invalid (first: line \(log.firstErrors[0].line): \(log.firstErrors[0].error))" : "")]
        if findings.isEmpty { lines.append("nothing looks wrong") }
        for f in findings {
            lines.append("\(f.count) \(f.what)")
            lines += f.examples.map { "    \($0)" }
            lines.append("    fix: \(f.fix)")
        }
        try TextOutput.printLine(lines.joined(separator: "\n"))
        if !findings.isEmpty, !noFail { throw ExitCode(Exit.regression) }
    }
}

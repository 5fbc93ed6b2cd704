import Foundation
import Synchronization
import TriggerKit
import Workload

/// What a run replays: a workload generated from its spec, or the user's corpus and event log.
package struct LoadedInput {
    package let set: TriggerSet
    package let vocabulary: Vocabulary
    package let events: EventColumns
    /// The corpus as JSON text (plugins are given it): a generated corpus is generated again and
    /// serialised only when first asked, so a run without plugins never holds it (100,000 triggers
    /// take a while and tens of megabytes).
    package let corpusJSON: @Sendable () throws -> [UInt8]
    package let workload: RunReport.Workload

    /// Generates the workload or reads the user's files.
    package static func load(_ source: InputSource, progress: ProgressLine = ProgressLine(enabled: false)) throws -> LoadedInput {
        switch source {
        case .generated(let spec): try generate(spec, progress: progress)
        case .files(let files): try read(files, progress: progress)
        }
    }

    static func generate(_ spec: WorkloadSpec, progress: ProgressLine) throws -> LoadedInput {
        try spec.checkReplayBuffersFit(events: spec.events, file: "workload \(spec.name)")
        progress.note("generating \(spec.name): \(spec.triggers + spec.crowdedTriggers) triggers, \(spec.events) events")
        let set = try WorkloadGenerator.corpus(spec)
        let vocabulary = Vocabulary(set)
        let events = WorkloadGenerator.events(spec, vocabulary: vocabulary) { n in
            progress.update("generating events", n, spec.events)
        }
        progress.note("")
        return LoadedInput(set: set, vocabulary: vocabulary, events: events, corpusJSON: GeneratedCorpusText(spec).bytes,
                        workload: .init(spec, events: events.count))
    }

    /// Warnings already given: a command that reads the same files again (`bench fit --check`'s rounds)
    /// says each once.
    static let warned = Mutex<Set<String>>([])

    static func warnOnce(_ warning: String, _ progress: ProgressLine) {
        if warned.withLock({ $0.insert(warning).inserted }) { progress.warn(warning) }
    }

    static func read(_ files: UserFiles, progress: ProgressLine) throws -> LoadedInput {
        progress.note("loading \(PrintableText.escaped(files.corpusPath))")
        let corpus = try LoadedCorpus(path: files.corpusPath, progress: progress, keepingText: false)
        progress.note("loading \(PrintableText.escaped(files.eventLogPath))")
        let lint = DataLint(corpus.set, vocabulary: corpus.vocabulary)
        let log = try LoadedEventLog.load(
            path: files.eventLogPath, vocabulary: corpus.vocabulary, categories: corpus.set.actionCategories,
            lineLimit: files.lineLimit, strict: files.strict, lint: lint) { lines in
            progress.update("reading events", lines, files.lineLimit ?? 0)
        }
        progress.note("")
        if files.limitAsked, let limit = files.lineLimit, log.lines < limit {
            throw InputError(file: files.eventLogPath, path: "line \(log.lines)",
                             reason: "--events \(limit) asks for more lines than the log holds (\(log.lines)); drop --events to replay them all (a timed pass replays them as often as --pass-seconds needs), or pass --events \(log.lines) or fewer")
        }
        if log.invalidLines > 0 {
            warnOnce("warning: skipped \(log.invalidLines) invalid of \(log.lines) lines in \(PrintableText.escaped(files.eventLogPath)); first: line \(log.firstErrors[0].line): \(log.firstErrors[0].error) (--strict refuses them)", progress)
        }
        if let summary = lint.summary(corpusPath: files.corpusPath, eventLogPath: files.eventLogPath) { warnOnce(summary, progress) }
        let data = RunReport.ReplayedFiles(corpusPath: files.corpusPath, corpus: corpus, eventLogPath: files.eventLogPath, log: log)
        // Named for what it is, not for the file: a copy of the same bytes under another name is the same data.
        let name = "files"
        return LoadedInput(set: corpus.set, vocabulary: corpus.vocabulary, events: log.columns, corpusJSON: { [corpus] in try corpus.text() },
                        workload: .init(name: name, seed: 0, events: log.columns.count, triggers: corpus.set.triggers.count, data: data))
    }
}

/// A generated corpus as JSON text, serialised on the first ask and kept: every plugin of a run is
/// handed the same bytes, not a serialisation each.
private final class GeneratedCorpusText: Sendable {
    let spec: WorkloadSpec
    let text = Mutex<[UInt8]?>(nil)

    init(_ spec: WorkloadSpec) { self.spec = spec }

    @Sendable func bytes() throws -> [UInt8] {
        try text.withLock { text in
            if let text { return text }
            let made = try WorkloadGenerator.corpusBytes(spec)
            text = made
            return made
        }
    }
}

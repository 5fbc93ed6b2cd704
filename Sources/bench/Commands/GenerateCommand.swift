import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a workload's synthetic corpus (JSON) and event stream (JSONL), readable by `bench replay`.")

    @Option(help: "A preset name from Corpora/workloads or a spec file path.")
    var workload = "default"

    // A path here is the likeliest slip: this command's events file is --events-out.
    @Option(parsing: .unconditional, help: "Override the workload's event count.", transform: { text in
        guard let n = Int(text) else { throw ValidationError("a count of events, not \"\(text)\"; the events file is --events-out") }
        return n
    })
    var events: Int?

    func validate() throws {
        if let events { try Limits.check("--events", events, 1...Limits.maxEvents) }
    }

    @Option(help: "Where to write the corpus.")
    var corpus: String

    @Option(name: .customLong("events-out"), help: "Where to write the events (JSONL).")
    var eventsOut: String

    @OptionGroup var progressOption: ProgressOption

    func run() throws {
        progressOption.apply()
        var spec = try WorkloadSpec.load(workload)
        if let events { spec.events = events }
        try spec.checkReplayBuffersFit(events: spec.events, file: "workload \(spec.name)")
        try OutputPaths.refuseOverwriting(outputs: [("--corpus", corpus), ("--events-out", eventsOut)], inputs: [("--workload", WorkloadSpec.isFile(workload) ? workload : nil)])
        let corpusFile = try AtomicFile(path: corpus)
        let eventsFile = try AtomicFile(path: eventsOut)
        let progress = ProgressLine(enabled: true)
        // Triggers are written as they are made and events as they are turned into lines: the corpus
        // is never held whole, and no corpus is decoded (an event's bytes do not depend on its ids).
        let total = spec.triggers + spec.crowdedTriggers
        let started = Harness.Clock.now()
        let triggers = try WorkloadGenerator.writeCorpus(spec, progress: { n in
            progress.update("writing \(PrintableText.escaped(corpus))", n, total, unit: "triggers", since: started)
        }) { try corpusFile.write($0) }
        progress.note("")
        let columns = WorkloadGenerator.events(spec, vocabulary: WorkloadGenerator.writingVocabulary) { n in
            progress.update("generating events", n, spec.events)
        }
        let eventsStarted = Harness.Clock.now()
        var line: [UInt8] = []
        try columns.withView { view in
            for i in 0..<view.count {
                line.removeAll(keepingCapacity: true)
                line.append(contentsOf: WorkloadGenerator.jsonLine(columns, i, view: view).utf8)
                line.append(UInt8(ascii: "\n"))
                try eventsFile.write(line)
                if i & 0xFFFF == 0 { progress.update("writing \(PrintableText.escaped(eventsOut))", i, view.count, since: eventsStarted) }
            }
        }
        progress.note("")
        try corpusFile.commit()
        try eventsFile.commit()
        TextOutput.standardError("wrote \(triggers) triggers to \(PrintableText.escaped(corpus)) and \(columns.count) events to \(PrintableText.escaped(eventsOut))")
    }
}

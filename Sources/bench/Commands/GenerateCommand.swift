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

    @Option(parsing: .unconditional, help: "Override the workload's event count.")
    var events: Int?

    func validate() throws {
        if let events { try Limits.check("--events", events, 1...Limits.maxEvents) }
    }

    @Option(help: "Where to write the corpus.")
    var corpus: String

    @Option(name: .customLong("events-out"), help: "Where to write the events (JSONL).")
    var eventsOut: String

    func run() throws {
        var spec = try WorkloadSpec.load(workload)
        if let events { spec.events = events }
        try spec.checkReplayBuffersFit(events: spec.events, file: "workload \(spec.name)")
        try OutputPaths.refuseOverwriting(outputs: [("--corpus", corpus), ("--events-out", eventsOut)], inputs: [("--workload", WorkloadSpec.isFile(workload) ? workload : nil)])
        let corpusFile = try AtomicFile(path: corpus)
        let eventsFile = try AtomicFile(path: eventsOut)
        let corpusJSON = WorkloadGenerator.corpusJSON(spec)
        try corpusFile.write(corpusJSON.serialized + "\n")
        let set = try CorpusDecoder.decode(corpusJSON)
        let columns = WorkloadGenerator.events(spec, vocabulary: Vocabulary(set))
        try columns.withView { view in
            for i in 0..<view.count {
                try eventsFile.write(WorkloadGenerator.jsonLine(columns, i, view: view) + "\n")
            }
        }
        try corpusFile.commit()
        try eventsFile.commit()
        TextOutput.standardError("wrote \(set.triggers.count) triggers to \(PrintableText.escaped(corpus)) and \(columns.count) events to \(PrintableText.escaped(eventsOut))")
    }
}

import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

/// What a command replays: a generated workload, or the user's own corpus and event log.
struct InputOptions: ParsableArguments {
    @Option(help: "A preset name from Corpora/workloads (\(WorkloadSpec.presetNames().joined(separator: ", "))) or a spec file path (default: default; gate and instructions: tiny; ab: braze-typical-200). Not with --corpus.")
    var workload: String?

    @Option(help: "Your own trigger set: a trigger-corpus/1 JSON file, as `bench generate --corpus` writes (with --event-log).")
    var corpus: String?

    @Option(help: "Your own events: JSONL, one event per line as `bench replay` reads, or - for standard input (with --corpus). --events N replays the first N lines.")
    var eventLog: String?

    @Flag(help: "With --event-log: exit 2 at the first invalid line instead of counting and skipping it.")
    var strict = false

    func validate() throws {
        if (corpus == nil) != (eventLog == nil) {
            throw ValidationError("--corpus and --event-log go together: the trigger set and the events it is matched against")
        }
        if corpus != nil, workload != nil {
            throw ValidationError("--workload generates data and --corpus/--event-log bring your own; pass one or the other")
        }
        if strict, eventLog == nil { throw ValidationError("--strict applies to --event-log; a generated workload has no invalid lines") }
    }

    /// Refuses a corpus or event log that cannot be read twice (standard input, a FIFO, a process
    /// substitution): children that each read it again would find a pipe empty or block on it.
    func requireRereadableFiles(_ why: String) throws {
        for (option, path) in [("--corpus", corpus), ("--event-log", eventLog)] {
            guard let path, !Self.isRegularFile(path) else { continue }
            throw ValidationError("\(option) \(path) is not a regular file: \(why), which a pipe cannot serve; save it to a file first")
        }
    }

    /// Whether `path` is a regular file (or missing: the reader reports that); "-" is standard input.
    static func isRegularFile(_ path: String) -> Bool {
        var s = stat()
        return path != "-" && (stat(path, &s) != 0 || (s.st_mode & S_IFMT) == S_IFREG)
    }

    /// The text of a `--workload` spec file that is a pipe (a FIFO, `<(…)`), read once here so that
    /// children can be handed a copy; nil for a preset or a regular file, which each child reads itself.
    func pipedWorkloadText() throws -> [UInt8]? {
        guard let path = workloadFile, !Self.isRegularFile(path) else { return nil }
        return try BoundedFile.read(path, limit: WorkloadSpec.maxFileBytes)
    }

    /// `--workload` when it names a spec file rather than a preset.
    var workloadFile: String? { workload.flatMap { WorkloadSpec.isFile($0) ? $0 : nil } }

    /// The workload to generate: the one named, else the command's default.
    func workloadName(or fallback: String = "default") -> String { workload ?? fallback }

    /// What to replay: the user's files (every line), else the workload named or the command's default.
    func source(defaultWorkload: String = "default") throws -> InputSource {
        if let corpus, let eventLog { return .files(UserFiles(corpusPath: corpus, eventLogPath: eventLog, strict: strict)) }
        return .generated(try WorkloadSpec.load(workloadName(or: defaultWorkload)))
    }

    /// The arguments that make another build of `bench` (`bench ab`) read the same input.
    func arguments(defaultWorkload: String = "default") -> [String] {
        guard let corpus, let eventLog else { return ["--workload", workloadName(or: defaultWorkload)] }
        return ["--corpus", corpus, "--event-log", eventLog] + (strict ? ["--strict"] : [])
    }
}

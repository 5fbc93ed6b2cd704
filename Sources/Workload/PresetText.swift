import Foundation
import TriggerKit

/// A preset's files as `bench generate` writes them, for code outside this package that measures the
/// decoders on them (the micro-benchmarks in Benchmarks/).
public enum PresetText {
    /// Preset `name`'s corpus (`Corpora/workloads/NAME.json`) as JSON bytes.
    public static func corpus(_ name: String) throws -> [UInt8] {
        try WorkloadGenerator.corpusBytes(try WorkloadSpec.load(name))
    }

    /// Preset `name`'s first `count` events as JSONL lines (no newline), as `bench generate` writes them.
    public static func eventLines(_ name: String, count: Int) throws -> [[UInt8]] {
        var spec = try WorkloadSpec.load(name)
        spec.events = count
        let columns = WorkloadGenerator.events(spec, vocabulary: WorkloadGenerator.writingVocabulary)
        return columns.withView { view in (0..<view.count).map { Array(WorkloadGenerator.jsonLine(columns, $0, view: view).utf8) } }
    }
}

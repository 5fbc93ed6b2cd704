import Benchmark
import Foundation
import TriggerKit
import Workload

// Decoding what a user hands bench: a corpus file and an event log, as `bench generate` writes them.
// Each iteration decodes the whole input; "MB/s" is its bytes over that iteration's wall-clock time
// (informational, as time is on a shared host), beside the malloc count Thresholds/ holds exactly.

/// The decoded bytes per second of one iteration, in MB/s.
let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)

func timed(_ bytes: Int, _ benchmark: Benchmark, _ body: () throws -> Void) rethrows {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    let nanoseconds = max(1, DispatchTime.now().uptimeNanoseconds - start)
    benchmark.measurement(megabytesPerSecond, Int(Double(bytes) * 1e3 / Double(nanoseconds)))
}

/// The inputs, made once (a benchmark's closure runs once per sample) and immutable after.
final class DecoderInputs: @unchecked Sendable {
    static let shared = DecoderInputs()
    let corpora: [String: [UInt8]]
    let eventLines: [[UInt8]]

    init() {
        // A range-subscription corpus (the million-trigger shape, at 10,000) and the default mixed one.
        corpora = Dictionary(uniqueKeysWithValues: ["pubsub-10k", "default"].map { ($0, try! PresetText.corpus($0)) })
        eventLines = try! PresetText.eventLines("default", count: 20_000)
    }
}

func decoderBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond], scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20)
    for preset in ["pubsub-10k", "default"] {
        Benchmark("decode-corpus-\(preset)", configuration: configuration) { benchmark in
            let bytes = DecoderInputs.shared.corpora[preset]!
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try timed(bytes.count, benchmark) { blackHole(try CorpusDecoder.decode(bytes: bytes)) }
            }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("decode-events-default", configuration: configuration) { benchmark in
        let lines = DecoderInputs.shared.eventLines
        let bytes = lines.reduce(0) { $0 + $1.count + 1 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try timed(bytes, benchmark) {
                for line in lines { blackHole(try EventDecoder.decode(line: line)) }
            }
        }
        benchmark.stopMeasurement()
    }
}

import Harness
import TriggerKit
import Workload
import XCTest

/// `bench generate` writes a corpus trigger by trigger and events under an empty vocabulary: the bytes
/// must be those of the whole document serialised at once, and of events generated beside the decoded corpus.
final class StreamedGenerationTests: XCTestCase {
    /// Every preset, scaled down so the test stays short (each shape's generator is still the one used).
    func specs() throws -> [WorkloadSpec] {
        try WorkloadSpec.presetNames().map { name in
            var spec = try WorkloadSpec.load(name)
            spec.triggers = min(spec.triggers, 700)
            spec.crowdedTriggers = min(spec.crowdedTriggers, 300)
            spec.events = min(spec.events, 300)
            return spec
        }
    }

    func testStreamedCorpusIsTheDocumentByteForByte() throws {
        let specs = try specs()
        XCTAssertGreaterThan(specs.count, 10)
        for spec in specs {
            var streamed: [UInt8] = []
            var pieces = 0
            let count = try WorkloadGenerator.writeCorpus(spec) { streamed += $0; pieces += 1 }
            let whole = Array((WorkloadGenerator.corpusJSON(spec).serialized + "\n").utf8)
            XCTAssertEqual(streamed, whole, spec.name)
            XCTAssertEqual(count, spec.triggers + spec.crowdedTriggers, spec.name)
            XCTAssertEqual(try CorpusDecoder.decode(bytes: streamed).triggers.count, count, spec.name)
        }
    }

    func testEventLinesDoNotDependOnTheVocabulary() throws {
        for spec in try specs() {
            func lines(_ vocabulary: Vocabulary) -> [String] {
                let columns = WorkloadGenerator.events(spec, vocabulary: vocabulary)
                return columns.withView { view in (0..<view.count).map { WorkloadGenerator.jsonLine(columns, $0, view: view) } }
            }
            let decoded = Vocabulary(try WorkloadGenerator.corpus(spec))
            XCTAssertEqual(lines(WorkloadGenerator.writingVocabulary), lines(decoded), spec.name)
        }
    }

    /// A piece is handed on at about a megabyte, so a large corpus is never held whole.
    func testLargeCorpusIsWrittenInPieces() throws {
        var spec = try WorkloadSpec.load("pubsub-10k")
        spec.triggers = 5000
        var largest = 0, pieces = 0
        try WorkloadGenerator.writeCorpus(spec) { largest = max(largest, $0.count); pieces += 1 }
        XCTAssertGreaterThan(pieces, 4)
        XCTAssertLessThan(largest, (1 << 20) + 4096)
    }

    /// Generated into memory, the corpus's buffer is claimed as it grows: past the room there is, a
    /// one-line refusal naming the workload (not an abort in the allocator), and within it the same bytes.
    func testGeneratingIntoMemoryClaimsTheBuffer() throws {
        var spec = try WorkloadSpec.load("pubsub-10k")
        spec.triggers = 3_000
        let tight = MemoryAllowance(measure: { MemoryAllowance.reserve + (1 << 20) })
        XCTAssertThrowsError(try WorkloadGenerator.corpusBytes(spec, allowance: tight)) { error in
            XCTAssertTrue("\(error)".hasPrefix("workload \(spec.name): triggers: generating 3000 triggers needs more than"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("; lower triggers"), "\(error)")
        }
        var streamed: [UInt8] = []
        try WorkloadGenerator.writeCorpus(spec) { streamed += $0 }
        XCTAssertEqual(try WorkloadGenerator.corpusBytes(spec, allowance: .unlimited), streamed)
    }
}

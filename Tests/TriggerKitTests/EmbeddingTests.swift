import Foundation
import TriggerKit
import XCTest

/// What an embedder gets by default: the README's snippet, matching with a fast strategy that agrees
/// with the oracle.
final class EmbeddingTests: XCTestCase {
    static let corpus = Array(#"{"format":"trigger-corpus/1","triggers":[{"id":"big","conditions":[{"type":"purchase","product_id":"gold","filters":[[{"property":"price","type":"number","op":"gte","value":10}]]}],"message":{"type":"modal"}}]}"#.utf8)

    /// The README's snippet, verbatim between the markers (checked below), on a corpus in a file.
    func testTheReadmeSnippetDeliversAnEventWithTheDefaultEngine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpusURL = folder.appendingPathComponent("triggers.json")
        try Data(Self.corpus).write(to: corpusURL)
        let line = #"{"type":"purchase","time":1,"product_id":"gold","properties":{"price":12}}"#
        var printed: [String] = []
        func print(_ matched: [Int], _ winner: Int) { printed.append("\(matched) \(winner)") }
        // README begins
        let set = try CorpusDecoder.decode(bytes: [UInt8](try Data(contentsOf: corpusURL)))  // path-precise InputError if malformed
        let engine = DeliveryEngine(triggerSet: set)                 // keep one: it holds delivery state; matches with `compiled`
        let event = try EventDecoder.decode(line: Array(line.utf8))  // one JSONL event line, as bench replay reads
        if let outcome = engine.handle(event) {                      // nil while a sync is in flight (matched when it lands)
            print(outcome.matched, outcome.winner ?? -1)             // corpus indices matched, and the one shown
        }
        // README ends
        XCTAssertEqual(printed, ["[0] 0"])
    }

    func testTheReadmeShowsTheSnippetThisTestCompiles() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = try String(contentsOf: here.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        func trimmed(_ lines: some Sequence<Substring>) -> [String] {
            lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let block = try XCTUnwrap(readme.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let tested = try XCTUnwrap(source.components(separatedBy: "// README " + "begins\n").dropFirst().first?
            .components(separatedBy: "// README " + "ends").first)
        XCTAssertEqual(trimmed(block.split(separator: "\n")), trimmed(tested.split(separator: "\n")),
                       "README.md's swift block and this test's snippet differ: copy one to the other")
    }

    func testTheDefaultMatcherAgreesWithReference() throws {
        let set = try CorpusDecoder.decode(bytes: Self.corpus)
        let fast = DeliveryEngine.defaultMatcher(set), oracle = ReferenceMatcher(set)
        for price in [9, 10, 11] {
            let event = try EventDecoder.decode(line: Array(#"{"type":"purchase","time":1,"product_id":"gold","properties":{"price":\#(price)}}"#.utf8))
            XCTAssertEqual(fast(event), oracle.match(event), "price \(price)")
        }
    }
}

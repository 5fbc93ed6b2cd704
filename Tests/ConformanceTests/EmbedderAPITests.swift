import Foundation
import XCTest

/// TriggerKit's public top-level types are the ones docs/design.md lists for an embedder: a type made
/// public without a reason (or one the docs promise but the source hides) fails here.
final class EmbedderAPITests: XCTestCase {
    func testPublicTypesAreTheDocumentedEmbedderAPI() throws {
        let root = DocumentReferencesTests.root
        let declaration = try NSRegularExpression(pattern: #"(?m)^public (?:final )?(?:struct|enum|class|protocol|typealias|actor) ([A-Za-z0-9_]+)"#)
        var declared: Set<String> = []
        let sources = root.appendingPathComponent("Sources/TriggerKit")
        let files = FileManager.default.enumerator(atPath: sources.path)?.allObjects.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for m in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                declared.insert(String(text[Range(m.range(at: 1), in: text)!]))
            }
        }
        let design = try String(contentsOfFile: root.appendingPathComponent("docs/design.md").path, encoding: .utf8)
        let start = try XCTUnwrap(design.range(of: "## What an embedder sees"), "docs/design.md lost its embedder section")
        let rest = design[start.upperBound...]
        let body = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        // The table's second column: every backticked name that starts a type (upper case, no dots).
        var listed: Set<String> = []
        for line in body.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| to ") {
            guard let column = line.split(separator: "|").dropFirst().first else { continue }
            for name in column.split(separator: "`").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element)
            where name.first?.isUppercase == true && !name.contains(".") {
                listed.insert(String(name))
            }
        }
        XCTAssertGreaterThan(declared.count, 20, "the scan found TriggerKit's sources")
        XCTAssertEqual(declared.subtracting(listed).sorted(), [], "public in Sources/TriggerKit, not listed in docs/design.md")
        XCTAssertEqual(listed.subtracting(declared).sorted(), [], "listed in docs/design.md, not public in Sources/TriggerKit")
    }
}

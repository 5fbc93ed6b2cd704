import Foundation
import XCTest

/// Every document the code, tests, scripts and help texts point a reader at is in the repository.
final class DocumentReferencesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testEveryCitedDocumentExistsAndNoneOutsideTheRepositoryIsCited() throws {
        let fm = FileManager.default
        var cited: [String: String] = [:]  // document → first file citing it
        var outside: [String] = []
        let reference = try NSRegularExpression(pattern: #"docs/[A-Za-z0-9_-]+\.md"#)
        for folder in ["Sources", "Tests", "scripts", "Fuzz", ".ci", "README.md"] {
            let base = Self.root.appendingPathComponent(folder)
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: base.path, isDirectory: &isDirectory) else { continue }
            let files = isDirectory.boolValue
                ? (fm.enumerator(atPath: base.path)?.compactMap { $0 as? String }.map { base.appendingPathComponent($0).path } ?? [])
                : [base.path]
            for path in files {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                for m in reference.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let doc = String(text[Range(m.range, in: text)!])
                    cited[doc] = cited[doc] ?? path
                }
                // Spelled in pieces, so this file does not cite them itself.
                for marker in ["SPEC" + " §", "SPEC" + ".md", "NOTES" + ".md", ".." + "/shared"] where text.contains(marker) {
                    outside.append("\(path) cites \(marker)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(cited.count, 4, "the code points readers at docs/")
        for (doc, by) in cited.sorted(by: { $0.key < $1.key }) {
            XCTAssertTrue(fm.fileExists(atPath: Self.root.appendingPathComponent(doc).path), "\(by) cites \(doc), which does not exist")
        }
        XCTAssertEqual(outside, [], "documents that are not in the repository")
    }
}

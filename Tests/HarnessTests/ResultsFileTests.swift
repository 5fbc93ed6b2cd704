import Foundation
import Harness
import TriggerKit
import XCTest

/// `bench check` reads results files strictly: located errors, no duplicate keys, no negative or
/// non-finite figures, and a size cap instead of reading any file whole.
final class ResultsFileTests: XCTestCase {
    let baseline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpora/baselines/tiny.json").path

    func loading(_ text: String) -> String {
        let path = NSTemporaryDirectory() + "results-\(UUID().uuidString).json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try RunReport.load(path)
            return "accepted"
        } catch {
            return "\(error)".replacingOccurrences(of: path, with: "F")
        }
    }

    func baselineText() throws -> String { try String(contentsOfFile: baseline, encoding: .utf8) }

    func testTheCommittedBaselineLoads() throws {
        XCTAssertEqual(loading(try baselineText()), "accepted")
    }

    func testInvalidJSONNamesTheLineAndColumn() {
        XCTAssertEqual(loading("{\n  \"schema\": tru\n}"), "F: line 2, column 13: invalid JSON: invalid literal, expected true")
    }

    func testDuplicateKeysAreRefused() throws {
        let text = try baselineText().replacingOccurrences(of: "\"build\" : \"release\",", with: "\"build\" : \"release\", \"build\" : \"debug\",")
        XCTAssertTrue(loading(text).contains("duplicate member name \"build\""), loading(text))
    }

    func testNegativeAndOverflowingFiguresAreRefused() throws {
        let negative = try baselineText().replacingOccurrences(of: "\"matches\" : 5995", with: "\"matches\" : -5995")
        XCTAssertEqual(loading(negative), "F: results[0].matches: -5995 is negative; a results file holds counts, times and ratios, all zero or more and far below that")
        let huge = try baselineText().replacingOccurrences(of: "\"matches\" : 5995", with: "\"matches\" : 1.7e308")
        XCTAssertTrue(loading(huge).hasPrefix("F: results[0].matches: 1.7e+308 is beyond 10^15"), loading(huge))
        var infinite = try baselineText()
        let cpu = try XCTUnwrap(infinite.range(of: #""cpu_seconds" : [0-9.e+-]+"#, options: .regularExpression))
        infinite.replaceSubrange(cpu, with: #""cpu_seconds" : 1e999"#)
        XCTAssertTrue(loading(infinite).contains("invalid JSON"), loading(infinite))
    }

    func testAnOversizedFileIsRefusedBeforeItIsRead() throws {
        let path = NSTemporaryDirectory() + "results-huge-\(UUID().uuidString).json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(truncate(path, off_t(RunReport.maxFileBytes + 1)), 0)  // sparse: no disk used
        XCTAssertThrowsError(try RunReport.load(path)) { error in
            XCTAssertEqual("\(error)", "\(path): file is \(RunReport.maxFileBytes + 1) bytes; the limit is \(RunReport.maxFileBytes) bytes")
        }
    }
}

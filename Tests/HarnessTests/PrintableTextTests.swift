import Foundation
import Harness
import TriggerKit
import XCTest

/// Strings from inputs cannot split a line or paint the terminal when echoed.
final class PrintableTextTests: XCTestCase {
    func testControlCharactersAreEscapedAndPlainTextIsKept() {
        XCTAssertEqual(PrintableText.escaped("cart-nudge é"), "cart-nudge é")
        XCTAssertEqual(PrintableText.escaped("a\nb\tc\u{1B}[31m\u{7F}"), #"a\nb\tc\u{1b}[31m\u{7f}"#)
        XCTAssertEqual(PrintableText.markdownCell("x|y\n"), #"x\|y\n"#)
    }

    /// A path that holds an escape, a newline, a quote and backticks stays one shell word, one line and
    /// one code span; markup in prose becomes entities.
    func testEchoedPathsStayOneWordOneLineAndOneSpan() {
        let path = "a`b``c'd\ne\u{1b}[31m"
        XCTAssertEqual(ShellWord.quoted(path), #"$'a`b``c\'d\ne\x1b[31m'"#)
        XCTAssertEqual(ShellWord.quoted("it's"), #"'it'\''s'"#)
        XCTAssertEqual(ShellWord.quoted("plain/path.json"), "plain/path.json")
        let span = PrintableText.markdownCode(ShellWord.quoted(path))
        XCTAssertTrue(span.hasPrefix("``` ") && span.hasSuffix(" ```"), span)
        XCTAssertFalse(span.contains("\n") || span.contains("\u{1b}"), span)
        XCTAssertEqual(PrintableText.markdownText("<img src=x onerror=alert(1)> & co"), "&lt;img src=x onerror=alert(1)&gt; &amp; co")
        // A C1 control as its UTF-8 bytes; backticks counted by scalar, a combining mark after one included.
        XCTAssertEqual(ShellWord.quoted("a\u{85}b"), #"$'a\xc2\x85b'"#)
        XCTAssertTrue(PrintableText.markdownCode("a``\u{300}").hasPrefix("``` "), PrintableText.markdownCode("a``\u{300}"))
    }

    func testAResultsFileStrategyNameCannotBreakTheTableOrTheMarkdown() throws {
        let row = strategyResult("evil\n| injected |")
        let report = RunReport(build: "release", environment: .current(), workload: .init(name: "w\u{1B}[2J", seed: 1, events: 1, triggers: 1),
                               results: [row])
        XCTAssertFalse(report.table().contains("\u{1B}"))
        XCTAssertTrue(report.table().contains(#"evil\n| injected |"#))
        let markdownRow = try XCTUnwrap(report.markdown().split(separator: "\n").first { $0.contains("evil") })
        XCTAssertTrue(markdownRow.hasPrefix(#"| evil\n\| injected \| | none |"#), String(markdownRow))
    }
}

/// Flame graphs of any depth, and folded input checked before it is drawn.
final class FlameGraphInputTests: XCTestCase {
    func testTwentyThousandFrameStackIsDrawnWithoutRecursion() throws {
        let frames = (0..<20_000).map { "f\($0)" }.joined(separator: ";")
        let stacks = try FlameGraph.parseFolded("\(frames) 3\nmain;other 1\n")
        let svg = FlameGraph.svg(stacks, title: "deep")
        XCTAssertTrue(svg.contains("<title>f19999 (3 samples"), "the deepest frame is drawn")
        XCTAssertTrue(svg.contains("<title>all (4 samples"))
    }

    func testBadCountsAreInputErrorsNamingTheLine() {
        let cases = [("a;b 1\na;c -2\n", "f.folded: line 2: sample count -2 is negative"),
                     ("a 9223372036854775807\nb 9223372036854775807\n", "f.folded: line 2: the sample counts add up to more than 9223372036854775807"),
                     ("a 99999999999999999999\n", "f.folded: line 1: sample count 99999999999999999999 is too large (at most 9223372036854775807)"),
                     ("a;b\n", "f.folded: line 1: expected `frame;frame;frame COUNT`; this line has no count"),
                     ("a;b x1\n", "f.folded: line 1: sample count \"x1\" is not a whole number")]
        for (text, message) in cases {
            XCTAssertThrowsError(try FlameGraph.parseFolded(text, file: "f.folded")) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }

    func testBinaryInputIsRefused() {
        XCTAssertThrowsError(try FlameGraph.checkText(Data([0x50, 0x45, 0x52, 0x46, 0x00, 0xFF]), file: "perf.data")) { error in
            XCTAssertEqual("\(error)", "perf.data: is not text; give the output of `perf script` (or folded stacks), not perf.data")
        }
    }
}

final class PrintableTextCutTests: XCTestCase {
    func testLongTextIsCutWithAMarkerAndShortTextIsKept() {
        XCTAssertEqual(PrintableText.cut("short"), "short")
        XCTAssertEqual(PrintableText.cut(String(repeating: "a", count: 200)), String(repeating: "a", count: 200))
        XCTAssertEqual(PrintableText.cut(String(repeating: "a", count: 1000)), String(repeating: "a", count: 200) + "… (800 more characters)")
    }
}

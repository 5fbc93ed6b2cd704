import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Harness
import TriggerKit
import Workload
import XCTest

/// The HTML report is well-formed and holds every section its inputs call for.
final class HTMLReportTests: XCTestCase {
    func run(_ spec: WorkloadSpec, publication: Bool = false, label: String? = nil) throws -> RunReport {
        var c = RunConfiguration.small(spec, strategies: ["reference", "compiled", "floor"], events: 200, referenceEvents: 300, repetitions: 2)
        c.latencyEvents = publication ? 0 : 500
        c.label = label
        if publication {
            c.threads = [2]
            c.publications = [.lockFree]
            c.writer = WriterSettings(everyMs: 5)
        }
        return try Runner(c).run()
    }

    func testARunASweepABaselineAndATrendMakeOneWellFormedPageWithEverySection() throws {
        var spec = try WorkloadSpec.load("tiny")
        spec.events = 1500
        let first = try run(spec, label: "first"), second = try run(spec, label: "<second> & \"quoted\"")
        let published = try run(spec, publication: true)
        var small = spec
        small.crowdedTriggers = 0
        let sweep = try Sweep.run(base: small, axes: [Sweep.Axis(key: "triggers", values: ["20", "200"])]) { s in
            RunConfiguration.small(s, strategies: ["compiled", "floor"], events: 100)
        }
        var report = HTMLReport(inputs: [.run(second, file: "b.json"), .run(first, file: "a.json"), .run(published, file: "p.json"),
                                         .sweep(sweep, file: "s.json")], baseline: (first, "a.json"))
        report.gateOptions.allowedDifferences = ["all"]
        let html = report.html()
        let document = try XMLDocument(xmlString: html)
        func count(_ xpath: String) throws -> Int { try document.nodes(forXPath: xpath).count }
        XCTAssertEqual(report.sections.map(\.id), ["run-1", "run-2", "run-3", "sweep-1", "gate", "trend"])
        for section in report.sections { XCTAssertEqual(try count("//*[@id='\(section.id)']"), 1, section.id) }
        XCTAssertEqual(try count("//*[local-name()='nav']//*[local-name()='a']"), 6)
        XCTAssertEqual(try count("//*[local-name()='svg']"), 3 + 2 + 1 + 1, "bars per run, latency for the two unpublished runs, sweep, trend")
        XCTAssertTrue(html.contains("Single-event latency"))
        XCTAssertTrue(html.contains("<h3>Publication</h3>"))
        XCTAssertTrue(html.contains("compiled ∝ triggers^"))
        XCTAssertTrue(html.contains("no regression") || html.contains("regression"))
        XCTAssertTrue(html.contains("&lt;second&gt; &amp; &quot;quoted&quot;") || html.contains("&lt;second&gt; &amp; \"quoted\""), "labels are escaped")
        XCTAssertFalse(html.contains("<script"), "no scripts")
        XCTAssertFalse(html.contains("http://") && html.replacingOccurrences(of: "http://www.w3.org/", with: "").contains("http://"), "no network")
        XCTAssertTrue(html.contains("prefers-color-scheme: dark"))
    }

    func testAReportOfOneRunHasNoGateOrTrendAndRefusalsAreShown() throws {
        var spec = try WorkloadSpec.load("tiny")
        spec.events = 1000
        let one = try run(spec)
        XCTAssertEqual(HTMLReport(inputs: [.run(one, file: "a.json")]).sections.map(\.id), ["run-1"])
        var other = spec
        other.seed = 99
        let different = try run(other)
        let html = HTMLReport(inputs: [.run(one, file: "a.json")], baseline: (different, "b.json")).html()
        XCTAssertNoThrow(try XMLDocument(xmlString: html))
        XCTAssertTrue(html.contains("not comparable"), "a refusal is reported, not thrown")
    }

    /// A results file that is the baseline itself is never the one judged against it.
    func testTheBaselineSectionJudgesARunThatIsNotTheBaselineItself() throws {
        var spec = try WorkloadSpec.load("tiny")
        spec.events = 1000
        let one = try run(spec), two = try run(spec)
        var report = HTMLReport(inputs: [.run(one, file: "base.json"), .run(two, file: "new.json")], baseline: (one, "base.json"))
        XCTAssertEqual(report.judged?.file, "base.json")
        report.sameAsBaseline = ["base.json"]
        XCTAssertEqual(report.judged?.file, "new.json")
        report.inputs.removeLast()
        XCTAssertNil(report.judged)
        XCTAssertFalse(report.sections.map(\.id).contains("gate"))
    }
}

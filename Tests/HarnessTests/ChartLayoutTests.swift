import Foundation
import Harness
import Workload
import XCTest

/// What a reader saw wrong in the report's charts stays fixed: labels inside the picture and clear of
/// each other, and no bar lengths on a log axis.
final class ChartLayoutTests: XCTestCase {
    /// (x, y) of every `<text>` and `<tspan>` that sets them, with the text it holds.
    func texts(_ svg: String) -> [(x: Double, y: Double, text: String)] {
        let pattern = try! NSRegularExpression(pattern: #"<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*>(?:<tspan[^>]*>)?([^<]*)"#)
        return pattern.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { m in
            let part = { (k: Int) in String(svg[Range(m.range(at: k), in: svg)!]) }
            return (Double(part(1))!, Double(part(2))!, part(3))
        }
    }

    func testTrendLabelsStayInsideThePictureAndTheLowestYLabelClearsTheXLabels() {
        let labels = ["2eac450\n2026-11-28 04:51:55", "2eac451\n2026-11-28 04:52:55", "2eac452\n2026-11-28 04:53:28"]
        let chart = LineChart(title: "t", xLabel: "run", yLabel: "ns", series: [
            LineChart.Series(name: "a", color: "#000", points: [(0, 12), (1, 900), (2, 40)]),
        ], categories: labels)
        let svg = chart.svg(standalone: true)
        for (x, _, text) in texts(svg) where text.hasPrefix("2eac45") {
            let half = 19 * 3.5  // the longer line of the label
            XCTAssertGreaterThanOrEqual(x - half, 0, "\(text) cut off on the left")
            XCTAssertLessThanOrEqual(x + half, chart.width, "\(text) cut off on the right")
        }
        let plotBottom = 40 + chart.plotHeight
        let lowestY = texts(svg).filter { $0.text == "10" }.map(\.y)
        XCTAssertEqual(lowestY.count, 1)
        XCTAssertLessThan(lowestY[0], plotBottom, "the lowest y label sits above the axis, not beside the x labels")
        XCTAssertTrue(texts(svg).contains { $0.y > plotBottom && $0.text == "2eac450" })

        // One-line labels wider than the margins are pulled inside too.
        let wide = LineChart(title: "t", xLabel: "run", yLabel: "ns", series: chart.series,
                             categories: ["first run, labelled at length", "b", "last run, labelled at length"])
        for (x, _, text) in texts(wide.svg(standalone: true)) where text.hasSuffix("at length") {
            XCTAssertGreaterThanOrEqual(x - Double(text.count) * 3.5, 0, text)
            XCTAssertLessThanOrEqual(x + Double(text.count) * 3.5, wide.width, text)
        }
    }

    func testRowsOnALogAxisAreDotsNotBars() throws {
        var spec = try WorkloadSpec.load("tiny")
        spec.events = 500
        let c = RunConfiguration.small(spec, strategies: ["compiled", "floor"], events: 100)
        let svg = BarChart(report: try Runner(c).run()).svg(standalone: true)
        XCTAssertEqual(svg.components(separatedBy: "<circle").count - 1, 2)
        XCTAssertEqual(svg.components(separatedBy: "<rect").count - 1, 1, "only the standalone background")
    }
}

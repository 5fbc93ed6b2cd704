import Foundation

/// Mean ns/event per row as a dot on a log scale (a dot plot: a bar's length on a log axis that starts
/// at 1 or 10 ns would not show cost), with a whisker: the bootstrap 95 % interval of the mean (none
/// with one repetition), or p50–p99 of single events (the mean's interval for rows without
/// single-event timings).
package struct BarChart {
    package enum Whisker { case meanInterval, percentiles }

    var report: RunReport
    var whisker = Whisker.meanInterval

    func range(_ r: StrategyResult) -> (Double, Double)? {
        switch whisker {
        case .meanInterval: return r.timing.meanCi95.flatMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        // Rows without single-event timings (threaded, published) get the mean's interval: batch
        // percentiles are a thread's, the bar is the run's.
        case .percentiles: return r.latencyNs.map { ($0.p50, $0.p99) } ?? r.timing.meanCi95.flatMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        }
    }

    package func svg(standalone: Bool = false) -> String {
        let rows = report.results
        let rowHeight = 26.0, left = 230.0, plotWidth = 600.0, top = 30.0
        let height = top + Double(rows.count) * rowHeight + 44
        let highs = rows.map { max(range($0)?.1 ?? 0, $0.timing.nsPerEvent.mean) }
        let lows = rows.map { min(range($0)?.0 ?? $0.timing.nsPerEvent.mean, $0.timing.nsPerEvent.mean) }
        let hi = ceil(log10(max(highs.max() ?? 10, 10))), lo = min(floor(log10(max(lows.min() ?? 1, 0.1))), hi - 1)
        func x(_ v: Double) -> Double { left + (log10(max(v, pow(10, lo))) - lo) / (hi - lo) * plotWidth }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(left + plotWidth + 90))\" height=\"\(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\"\(standalone ? " color=\"black\"" : "")>\n"
        if standalone { s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" }
        let legend = whisker == .meanInterval ? "95 % interval of the mean over the repetitions" : "p50–p99 of single events"
        let title = "\(report.workload.name): mean ns per event (dots, log scale); whisker: \(legend)"
        s += "<text x=\"10\" y=\"18\" font-weight=\"bold\" fill=\"currentColor\">\(LineChart.escape(title))</text>\n"
        var decade = lo
        while decade <= hi {
            let gx = x(pow(10, decade))
            s += "<line x1=\"\(gx)\" y1=\"\(top)\" x2=\"\(gx)\" y2=\"\(height - 34)\" stroke=\"currentColor\" stroke-opacity=\"0.15\"/>\n"
            s += "<text x=\"\(gx)\" y=\"\(height - 20)\" text-anchor=\"middle\" fill=\"currentColor\">\(LineChart.number(pow(10, decade))) ns</text>\n"
            decade += 1
        }
        for (k, r) in rows.enumerated() {
            let y = top + Double(k) * rowHeight
            let name = r.key.label
            s += "<text x=\"\(left - 8)\" y=\"\(y + 16)\" text-anchor=\"end\" fill=\"currentColor\">\(LineChart.escape(name))</text>\n"
            // A guide across the whole plot, so no length is read from it; the dot is the value.
            s += "<line x1=\"\(left)\" y1=\"\(y + rowHeight / 2)\" x2=\"\(left + plotWidth)\" y2=\"\(y + rowHeight / 2)\" stroke=\"currentColor\" stroke-opacity=\"0.12\" stroke-dasharray=\"2 3\"/>\n"
            var labelX = x(r.timing.nsPerEvent.mean) + 4
            if let (low, high) = range(r) {
                let a = x(low), b = x(high), wy = y + rowHeight / 2
                s += "<line x1=\"\(a)\" y1=\"\(wy)\" x2=\"\(b)\" y2=\"\(wy)\" stroke=\"currentColor\" stroke-width=\"1.5\"/>\n"
                s += "<line x1=\"\(a)\" y1=\"\(wy - 5)\" x2=\"\(a)\" y2=\"\(wy + 5)\" stroke=\"currentColor\" stroke-width=\"1.5\"/>\n"
                s += "<line x1=\"\(b)\" y1=\"\(wy - 5)\" x2=\"\(b)\" y2=\"\(wy + 5)\" stroke=\"currentColor\" stroke-width=\"1.5\"/>\n"
                labelX = max(labelX, b)
            }
            // Over the whisker, so the value stays visible when the interval is narrow.
            s += "<circle cx=\"\(x(r.timing.nsPerEvent.mean))\" cy=\"\(y + rowHeight / 2)\" r=\"6\" fill=\"\(LineChart.color(r.strategy, index: k))\"/>\n"
            s += "<text x=\"\(labelX + 6)\" y=\"\(y + 16)\" fill=\"currentColor\">\(RunReport.ns(r.timing.nsPerEvent.mean)) ns</text>\n"
        }
        return s + "</svg>\n"
    }

    package init(report: RunReport, whisker: Whisker = .meanInterval) {
        self.report = report
        self.whisker = whisker
    }
}

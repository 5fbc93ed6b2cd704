import Foundation

extension Sweep {
    /// The terminal table: a line per point, a column per row (strategy), then the fitted growth.
    package func table() -> String {
        let rows = self.rows
        var header = axes.map(\.key) + rows
        var lines: [[String]] = []
        for p in points {
            var cells = axes.map { p.values[$0.key] ?? "" }
            let byLabel = p.resultsByLabel
            for row in rows {
                guard let r = byLabel[row] else { cells.append("–"); continue }
                var cell = RunReport.ns(r.timing.nsPerEvent.mean)
                if let ci = r.timing.meanCi95, ci.count == 2 { cell += " ±" + RunReport.ns((ci[1] - ci[0]) / 2) }
                cell += String(format: " · %.1f cand · %.2f match", r.matches.candidatesPerEvent, r.matches.matchesPerEvent)
                cells.append(cell)
            }
            lines.append(cells)
        }
        header = header.map(PrintableText.escaped)
        let widths = header.indices.map { c in ([header] + lines).map { $0[c].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return c < axes.count ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var out = ["sweep of \(PrintableText.escaped(workload)): \(points.count) points, " + axes.map { "\($0.key) = \($0.values.joined(separator: ", "))" }.joined(separator: " × ")]
        if let first = points.first?.results { out.append(first.header) }
        out += [line(header), widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")]
        out += lines.map(line)
        out.append("cells: mean ns/event ± half its 95 % interval · conditions evaluated per event · matches per event")
        out += fitLines()
        return out.joined(separator: "\n")
    }

    /// "compiled ∝ triggers^0.97 (R² 0.99)" for each varied key and row.
    package func fitLines() -> [String] {
        var out: [String] = []
        for axis in axes {
            guard let byRow = fits[axis.key], !byRow.isEmpty else {
                out.append("\(axis.key): no fit (it needs two or more positive values)")
                continue
            }
            for row in rows {
                guard let f = byRow[row] else { continue }
                out.append(String(format: "%@ ∝ %@^%.2f (R² %.2f, %d points)", PrintableText.escaped(row), axis.key, f.exponent, f.r2, f.points))
            }
        }
        return out
    }

    /// One log-log chart per varied key: a line per row (and per value of the other keys).
    package func svg(standalone: Bool = true) -> String {
        axes.map { chart(for: $0).svg(standalone: standalone) }.joined()
    }

    func chart(for axis: Axis) -> LineChart {
        let others = axes.filter { $0.key != axis.key }
        var series: [LineChart.Series] = []
        // The points grouped by their other keys' values, in grid order: one line per group and row. Only
        // combinations the file holds are drawn, so the work is bounded by its points.
        var groups: [[String]: [(point: Point, byLabel: [String: StrategyResult])]] = [:], order: [[String]] = []
        for p in points {
            let combination = others.map { p.values[$0.key] ?? "" }
            if groups[combination] == nil { order.append(combination) }
            groups[combination, default: []].append((p, p.resultsByLabel))
        }
        let rows = self.rows
        for (k, row) in rows.enumerated() {
            for (c, combination) in order.enumerated() {
                var points: [(x: Double, y: Double)] = []
                for (p, byLabel) in groups[combination]! {
                    guard let r = byLabel[row], let value = p.values[axis.key], let x = Axis.magnitude(value) else { continue }
                    points.append((x, r.timing.nsPerEvent.mean))
                }
                var name = row
                if !others.isEmpty { name += " (" + zip(others, combination).map { "\($0.key)=\($1)" }.joined(separator: ", ") + ")" }
                if let f = fits[axis.key]?[row] { name += String(format: ": ∝ %@^%.2f, R² %.2f", axis.key, f.exponent, f.r2) }
                series.append(LineChart.Series(name: name, color: LineChart.color(row, index: k * order.count + c), points: points))
            }
        }
        return LineChart(title: "\(workload): ns per event against \(axis.key) (log–log)", xLabel: axis.key, yLabel: "mean ns per event",
                         series: series, categories: nil)
    }

}

extension Sweep.Point {
    /// The point's rows by label (the first of a label, as a table shows it).
    var resultsByLabel: [String: StrategyResult] {
        Dictionary(results.results.map { ($0.key.label, $0) }, uniquingKeysWith: { a, _ in a })
    }
}

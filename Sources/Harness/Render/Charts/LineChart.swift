import Foundation

/// A small SVG line chart with log axes (or a categorical x axis), drawn without scripts so a file
/// or an HTML page shows it as is. Axes and text use `currentColor`, so a page's light or dark
/// theme colours them; a standalone file gets a white background.
package struct LineChart {
    package struct Series {
        var name: String
        var color: String
        var points: [(x: Double, y: Double)]

        package init(name: String, color: String, points: [(x: Double, y: Double)]) {
            self.name = name
            self.color = color
            self.points = points
        }
    }

    var title: String
    var xLabel: String
    var yLabel: String
    package var series: [Series]
    /// Category names for x = 0, 1, 2, …; nil for a log-scaled numeric x axis. A "\n" in a name
    /// breaks its tick label into lines.
    var categories: [String]?
    package var width = 760.0
    package var plotHeight = 300.0

    package func svg(standalone: Bool) -> String {
        let left = 70.0, top = 40.0, right = 80.0
        let tickLines = Double(categories?.map { $0.split(separator: "\n").count }.max() ?? 1)
        let xLabelY = top + plotHeight + 22 + 14 * tickLines, legendTop = xLabelY + 16
        let height = legendTop + Double(series.count) * 18 + 12
        let plotWidth = width - left - right
        let all = series.flatMap(\.points).filter { $0.y > 0 && (categories != nil || $0.x > 0) }
        guard !all.isEmpty else {
            return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"60\"><text x=\"10\" y=\"30\" fill=\"currentColor\">\(Self.escape(title)): no positive values to draw</text></svg>\n"
        }
        let yLo = floor(log10(all.map(\.y).min()!)), yHi = max(ceil(log10(all.map(\.y).max()!)), yLo + 1)
        func y(_ v: Double) -> Double { top + plotHeight - (log10(v) - yLo) / (yHi - yLo) * plotHeight }
        let xLo: Double, xHi: Double
        if let categories {
            xLo = 0
            xHi = Double(max(categories.count - 1, 1))
        } else {
            xLo = log10(all.map(\.x).min()!)
            xHi = max(log10(all.map(\.x).max()!), xLo + 1e-9)
        }
        func x(_ v: Double) -> Double {
            let t = categories == nil ? (log10(v) - xLo) / (xHi - xLo) : (v - xLo) / (xHi - xLo)
            return left + (xHi == xLo ? 0.5 : t) * plotWidth
        }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\"\(standalone ? " color=\"black\"" : "")>\n"
        if standalone { s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" }
        s += "<text x=\"\(left)\" y=\"20\" font-size=\"14\" font-weight=\"bold\" fill=\"currentColor\">\(Self.escape(title))</text>\n"
        var decade = yLo
        while decade <= yHi {
            let gy = y(pow(10, decade))
            s += "<line x1=\"\(left)\" y1=\"\(gy)\" x2=\"\(left + plotWidth)\" y2=\"\(gy)\" stroke=\"currentColor\" stroke-opacity=\"0.15\"/>\n"
            // Lifted off the bottom edge, so the lowest label stays clear of the x labels below it.
            let labelY = decade == yLo ? gy - 2 : gy + 4
            s += "<text x=\"\(left - 8)\" y=\"\(labelY)\" text-anchor=\"end\" fill=\"currentColor\">\(Self.number(pow(10, decade)))</text>\n"
            decade += 1
        }
        s += "<text transform=\"translate(14 \(top + plotHeight / 2)) rotate(-90)\" text-anchor=\"middle\" fill=\"currentColor\">\(Self.escape(yLabel))</text>\n"
        let ticks: [(Double, String)]
        if let categories {
            ticks = categories.enumerated().map { (Double($0.offset), $0.element) }
        } else {
            ticks = Array(Set(all.map(\.x))).sorted().map { ($0, Self.number($0)) }
        }
        // Skip tick labels that would overlap the previous one.
        var lastLabelEnd = -Double.infinity
        for (value, label) in ticks {
            let tx = x(value)
            s += "<line x1=\"\(tx)\" y1=\"\(top)\" x2=\"\(tx)\" y2=\"\(top + plotHeight)\" stroke=\"currentColor\" stroke-opacity=\"0.08\"/>\n"
            let lines = label.split(separator: "\n").map(String.init)
            let halfWidth = Double(lines.map(\.count).max() ?? 0) * 3.5
            // Kept inside the picture: the first and last labels of a wide axis would be cut off.
            let cx = min(max(tx, halfWidth + 2), width - halfWidth - 2)
            if cx - halfWidth > lastLabelEnd + 4 {
                s += "<text x=\"\(cx)\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\" fill=\"currentColor\">"
                for (n, line) in lines.enumerated() {
                    s += "<tspan x=\"\(cx)\" dy=\"\(n == 0 ? 0 : 14)\">\(Self.escape(line))</tspan>"
                }
                s += "</text>\n"
                lastLabelEnd = cx + halfWidth
            }
        }
        s += "<text x=\"\(left + plotWidth / 2)\" y=\"\(xLabelY)\" text-anchor=\"middle\" fill=\"currentColor\">\(Self.escape(xLabel))</text>\n"
        s += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"currentColor\" stroke-opacity=\"0.4\"/>\n"
        for (k, line) in series.enumerated() {
            let points = line.points.filter { $0.y > 0 && (categories != nil || $0.x > 0) }.sorted { $0.x < $1.x }
            // On a categorical axis, series side by side within a category, so equal values stay visible.
            let shift = categories == nil ? 0 : (Double(k) - Double(series.count - 1) / 2) * 5
            let x = { (v: Double) in x(v) + shift }
            let path = points.map { "\(x($0.x)),\(y($0.y))" }.joined(separator: " ")
            // Each series its own dash and marker, so one that runs on top of another still shows.
            let dash = Self.dashes[k % Self.dashes.count]
            let dashAttribute = dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\""
            if points.count > 1 { s += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dashAttribute)/>\n" }
            for p in points { s += Self.marker(k, x: x(p.x), y: y(p.y), color: line.color) }
            let ly = legendTop + Double(k) * 18
            s += "<line x1=\"\(left)\" y1=\"\(ly - 4)\" x2=\"\(left + 24)\" y2=\"\(ly - 4)\" stroke=\"\(line.color)\" stroke-width=\"3\"\(dashAttribute)/>\n"
            s += Self.marker(k, x: left + 12, y: ly - 4, color: line.color)
            s += "<text x=\"\(left + 32)\" y=\"\(ly)\" fill=\"currentColor\">\(Self.escape(line.name))</text>\n"
        }
        return s + "</svg>\n"
    }

    static let dashes = ["", "7 4", "2 3", "10 3 2 3", "4 4"]

    /// A circle, square, diamond, triangle or cross, by series.
    static func marker(_ k: Int, x: Double, y: Double, color: String) -> String {
        switch k % 5 {
        case 0: return "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"3.5\" fill=\"\(color)\"/>\n"
        case 1: return "<rect x=\"\(x - 3.5)\" y=\"\(y - 3.5)\" width=\"7\" height=\"7\" fill=\"\(color)\"/>\n"
        case 2: return "<polygon points=\"\(x),\(y - 5) \(x + 5),\(y) \(x),\(y + 5) \(x - 5),\(y)\" fill=\"\(color)\"/>\n"
        case 3: return "<polygon points=\"\(x),\(y - 5) \(x + 5),\(y + 4) \(x - 5),\(y + 4)\" fill=\"\(color)\"/>\n"
        default: return "<path d=\"M\(x - 4) \(y - 4) L\(x + 4) \(y + 4) M\(x - 4) \(y + 4) L\(x + 4) \(y - 4)\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
        }
    }

    static func escape(_ s: String) -> String { PrintableText.xml(s) }

    /// 0.001 … 950 … 12k … 3.4M: short tick labels.
    static func number(_ v: Double) -> String {
        switch v {
        case 1e6...: return String(format: v.truncatingRemainder(dividingBy: 1e6) == 0 ? "%.0fM" : "%.1fM", v / 1e6)
        case 1e4...: return String(format: v.truncatingRemainder(dividingBy: 1e3) == 0 ? "%.0fk" : "%.1fk", v / 1e3)
        case 1...: return v == v.rounded() ? String(Int(v)) : String(format: "%.3g", v)
        default: return String(format: "%.3g", v)
        }
    }

    /// Colours per strategy (the same in every chart); plugins and other rows cycle through the rest.
    static func color(_ row: String, index: Int) -> String {
        let known = ["reference": "#c0392b", "indexed": "#e67e22", "compiled": "#2980b9", "predicate-index": "#27ae60", "floor": "#7f8c8d"]
        let strategy = String(row.prefix { $0 != " " })
        // Hues apart from the strategies' and from each other (no second green).
        let others = ["#8e44ad", "#d35400", "#2c3e50", "#c2185b", "#b8860b", "#5d4037"]
        return known[strategy] ?? others[index % others.count]
    }

    package init(title: String, xLabel: String, yLabel: String, series: [Series], categories: [String]? = nil) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.series = series
        self.categories = categories
    }
}

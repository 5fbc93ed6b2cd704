import Foundation

extension HTMLReport {
    func runSection(_ r: RunReport, file: String, id: String) -> String {
        var s = "<section id=\"\(id)\">\n<h2>\(Self.escape("Run: \(r.workload.name)"))</h2>\n"
        s += "<p class=\"meta\">" + Self.escape(file) + "<br/>" + r.header.split(separator: "\n").map { line in
            line.hasPrefix("warning:") ? "<span class=\"warning\">\(Self.escape(String(line)))</span>" : Self.escape(String(line))
        }.joined(separator: "<br/>") + "</p>\n"
        if let run = r.run {
            let st = run.settings
            s += "<p class=\"meta\">" + Self.escape("settings: strategies \(st.strategies.joined(separator: ", ")) · threads \(st.threads.map(String.init).joined(separator: ", ")) · publication \(st.publications.joined(separator: ", "))\(st.publishEveryMs.map { " every \($0) ms" } ?? "") · \(st.events) events (reference over the first \(min(st.referenceEvents, st.events))) · batch \(st.batchSize) · \(st.repetitions) repetitions · command: \(run.command.joined(separator: " "))") + "</p>\n"
        }
        let (columns, cells) = r.shownTable()
        s += "<h3>Results</h3>\n<div class=\"scroll\"><table class=\"results\">\n<tr>" + columns.map { "<th>\(Self.escape($0))</th>" }.joined() + "</tr>\n"
        for row in cells { s += "<tr>" + row.map { "<td>\(Self.escape($0))</td>" }.joined() + "</tr>\n" }
        s += "</table></div>\n<p class=\"meta\">\(Self.escape(r.legend))</p>\n"
        for line in r.repetitionSpreadLines() + r.passLines() { s += "<p class=\"\(line.hasPrefix("note:") || PassFigures.Flag.allCases.contains { line.hasPrefix($0.letter + " = ") } ? "warning" : "meta")\">\(Self.escape(line))</p>\n" }
        s += "<h3>Cost per event</h3>\n" + BarChart(report: r).svg()
        s += latencyChart(r)
        s += memorySection(r)
        s += publicationSection(r)
        return s + "</section>\n"
    }

    /// Single-event percentiles per strategy, on a log scale (1-thread unpublished rows carry them).
    func latencyChart(_ r: RunReport) -> String {
        let rows = r.results.filter { $0.latencyNs != nil }
        guard !rows.isEmpty else { return "<h3>Single-event latency</h3>\n<p class=\"meta\">Not measured in this run (--latency-events 0, or only threaded and published rows).</p>\n" }
        let names = ["p50", "p90", "p99", "p99.9", "max"]
        func points(_ l: EventLatency) -> [(Double, Double)] { [l.p50, l.p90, l.p99, l.p999, l.max].enumerated().map { (Double($0.offset), $0.element) } }
        var series = rows.enumerated().map { k, row in
            LineChart.Series(name: row.strategy, color: LineChart.color(row.strategy, index: k), points: points(row.latencyNs!))
        }
        // Cold events beside warm ones, in the row's colour.
        series += rows.enumerated().compactMap { k, row in
            row.coldLatencyNs.map { LineChart.Series(name: row.strategy + " (cold)", color: LineChart.color(row.strategy, index: k), points: points($0)) }
        }
        let chart = LineChart(title: "single events timed alone, warm and cold: percentiles (log scale)", xLabel: "percentile of events",
                              yLabel: "ns per event", series: series, categories: names)
        return "<h3>Single-event latency</h3>\n" + chart.svg(standalone: false)
    }

    func memorySection(_ r: RunReport) -> String {
        var s = "<h3>Memory</h3>\n<table>\n<tr><th>strategy</th><th>matcher KB</th><th>scratch KB per thread</th><th>allocations per event</th><th>bytes per event</th></tr>\n"
        var seen = Set<String>()
        for row in r.results where seen.insert(row.strategy).inserted {
            s += "<tr><td>\(Self.escape(row.strategy))</td><td>\(row.memory.matcherBytes.map { String(format: "%.0f", Double($0) / 1024) } ?? "–")</td>"
            s += "<td>\(row.memory.scratchBytes.map { String(format: "%.0f", Double($0) / 1024) } ?? "–")</td>"
            s += String(format: "<td>%.2f</td><td>%.0f</td></tr>\n", row.memory.allocationsPerEvent, row.memory.bytesPerEvent)
        }
        s += "</table>\n"
        if let j = r.jemalloc {
            s += "<p class=\"meta\">" + Self.escape(String(format: "jemalloc, process-wide: %.1f MB allocated after generating the events, %.1f MB at the end (resident %.1f MB)",
                                                           Double(j.afterGeneration.allocated) / 1e6, Double(j.end.allocated) / 1e6, Double(j.end.resident) / 1e6)) + "</p>\n"
        }
        return s
    }

    func publicationSection(_ r: RunReport) -> String {
        let rows = r.results.filter { $0.publishing?.publications != nil }
        guard !rows.isEmpty else { return "" }
        var s = "<h3>Publication</h3>\n<table>\n<tr><th>row</th><th>published</th><th>build ms (clock)</th><th>build ms (writer CPU)</th><th>heap before MB</th><th>heap after MB</th><th>mean ns/event</th></tr>\n"
        for row in rows {
            let published = row.publishing.map { p in
                p.deltaTriggers.map { k in
                    "\(p.publications) deltas of \(k)" + (p.fullRebuilds.map { ", \($0) full rebuilds" } ?? "") + (p.redirected.map { ", \($0) redirected" } ?? "")
                } ?? "\(p.publications) rebuilt sets"
            } ?? "–"
            s += "<tr><td>\(Self.escape(row.key.label))</td><td>\(Self.escape(published))</td>"
            s += String(format: "<td>%.3f</td><td>%.3f</td>", row.publishing?.rebuildMsPerPublication ?? 0, row.publishing?.rebuildCpuMsPerPublication ?? 0)
            s += String(format: "<td>%.2f</td><td>%.2f</td><td>%@</td></tr>\n", Double(row.publishing?.heapBytesBeforePublishing ?? 0) / 1e6,
                        Double(row.publishing?.heapBytesAfterPublishing ?? 0) / 1e6, RunReport.ns(row.timing.nsPerEvent.mean))
        }
        return s + "</table>\n"
    }

    func sweepSection(_ sweep: Sweep, file: String, id: String) -> String {
        var s = "<section id=\"\(id)\">\n<h2>\(Self.escape("Sweep: \(sweep.workload)"))</h2>\n<p class=\"meta\">\(Self.escape(file))</p>\n"
        let rows = sweep.rows
        s += "<div class=\"scroll\"><table>\n<tr>" + (sweep.axes.map(\.key) + rows).map { "<th>\(Self.escape($0))</th>" }.joined() + "</tr>\n"
        for p in sweep.points {
            s += "<tr>" + sweep.axes.map { "<td>\(Self.escape(p.values[$0.key] ?? ""))</td>" }.joined()
            for row in rows {
                let r = p.results.results.first { $0.key.label == row }
                s += "<td>\(r.map { Self.escape(RunReport.ns($0.timing.nsPerEvent.mean) + String(format: " ns · %.1f cand", $0.matches.candidatesPerEvent)) } ?? "–")</td>"
            }
            s += "</tr>\n"
        }
        s += "</table></div>\n<ul>" + sweep.fitLines().map { "<li>\(Self.escape($0))</li>" }.joined() + "</ul>\n"
        s += sweep.svg(standalone: false)
        return s + "</section>\n"
    }
}

import Foundation

extension HTMLReport {
    /// The first results file judged against the baseline, as `bench check` would (wall clock informational).
    func gateSection(baseline: (report: RunReport, file: String), current: (report: RunReport, file: String)) -> String {
        var s = "<section id=\"gate\">\n<h2>Against the baseline</h2>\n"
        s += "<p class=\"meta\">\(Self.escape("baseline \(baseline.file) · current \(current.file)"))</p>\n"
        var options = gateOptions
        options.wallClock = .informational
        do {
            let report = try Gate.compare(baseline: baseline.report, current: current.report, options: options)
            for note in report.notes { s += "<p class=\"warning\">\(Self.escape(note))</p>\n" }
            let verdict = report.regressions.isEmpty ? "no regression" : "\(report.regressions.count) regression\(report.regressions.count == 1 ? "" : "s")"
            s += "<p class=\"\(report.regressions.isEmpty ? "improved" : "regressed")\">\(Self.escape(verdict))</p>\n"
            s += "<div class=\"scroll\"><table class=\"gate\">\n<tr><th>row</th><th>metric</th><th>baseline</th><th>current</th><th>change</th><th>verdict</th><th>note</th></tr>\n"
            for f in report.findings {
                s += "<tr><td>\(Self.escape(f.row))</td><td>\(Self.escape(f.metric))</td><td>\(Self.escape(f.baseline))</td><td>\(Self.escape(f.current))</td>"
                s += "<td>\(Self.escape(f.change))</td><td class=\"\(f.verdict.rawValue)\">\(f.shownVerdict)</td><td style=\"text-align: left\">\(Self.escape(f.note))</td></tr>\n"
            }
            s += "</table></div>\n"
        } catch {
            s += "<p class=\"regressed\">\(Self.escape("not comparable: \(error)"))</p>\n"
        }
        return s + "</section>\n"
    }

    /// Results of one workload given more than once, oldest first: their trend.
    var trendGroups: [(workload: String, runs: [RunReport])] {
        let byWorkload = Dictionary(grouping: runs.map(\.report), by: \.workload.name)
        return byWorkload.keys.sorted().compactMap { name in
            let group = byWorkload[name]!.sorted { ($0.run?.timestamp ?? "") < ($1.run?.timestamp ?? "") }
            return group.count > 1 ? (name, group) : nil
        }
    }

    func trendSection() -> String {
        var s = "<section id=\"trend\">\n<h2>Trend</h2>\n"
        for group in trendGroups {
            let labels = group.runs.enumerated().map { k, r in
                // The run's --label when it has one (what the user named it); else its commit, with the date
                // and time, since runs of one commit on one day are the usual trend.
                r.run.map { run in
                    let time = String(run.timestamp.prefix(19)).replacingOccurrences(of: "T", with: " ")
                    if let label = run.label, !label.isEmpty { return label + "\n" + time }
                    return (run.commit.map { String($0.prefix(7)) } ?? "run \(k + 1)") + "\n" + time
                } ?? "run \(k + 1)"
            }
            var names: [String] = []
            for r in group.runs { for row in r.results where row.key.isPlain && !names.contains(row.strategy) { names.append(row.strategy) } }
            let series = names.enumerated().map { k, name in
                LineChart.Series(name: name, color: LineChart.color(name, index: k), points: group.runs.enumerated().compactMap { i, r in
                    r.results.first { $0.key == RowKey(strategy: name) }.map { (Double(i), $0.timing.nsPerEvent.mean) }
                })
            }
            let chart = LineChart(title: "\(group.workload): mean ns per event by run (1 thread, no publication)", xLabel: "run (its --label or commit, date and time UTC), oldest first",
                                  yLabel: "mean ns per event", series: series, categories: labels)
            s += chart.svg(standalone: false)
        }
        return s + "</section>\n"
    }
}

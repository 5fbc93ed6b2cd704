import Foundation

extension RunReport {
    static let csvColumns = [
        "workload", "strategy", "publication", "threads", "events", "matches", "checksum", "mean_ns", "mean_ci95_low", "mean_ci95_high",
        "batch_p50_ns", "batch_p99_ns", "event_p50_ns", "event_p90_ns", "event_p99_ns", "event_p999_ns", "event_max_ns",
        "events_per_second", "allocations_per_event", "bytes_per_event", "matcher_bytes", "scratch_bytes", "instructions_per_event",
        "matches_per_event", "candidates_per_event", "speedup_vs_reference", "ratio_to_floor", "ratio_to_floor_ci95_low",
        "ratio_to_floor_ci95_high", "commit", "timestamp", "cold_p50_ns", "cold_p90_ns", "cold_p99_ns", "loops", "cpu_share",
        "involuntary_switches_per_pass", "outlier_batches_severe", "flags",
    ]

    /// One row per result, RFC 4180 quoting; empty cells where a figure was not measured.
    package func csv() -> String {
        func cell(_ v: Double?) -> String { v.map { String($0) } ?? "" }
        func cell(_ v: Int?) -> String { v.map { String($0) } ?? "" }
        func quoted(_ text: String) -> String {
            // Control characters from input names as escapes: a spreadsheet or terminal shows them inert.
            let s = PrintableText.escaped(text)
            return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        var lines = [Self.csvColumns.joined(separator: ",")]
        for r in results {
            let l = r.latencyNs
            let fields: [String] = [
                quoted(workload.name), quoted(r.strategy), r.key.publication.rawValue, String(r.key.threads), String(r.matches.events), String(r.matches.matches),
                quoted(r.matches.checksum.hex), cell(r.timing.nsPerEvent.mean), cell(r.timing.meanCi95?.first), cell(r.timing.meanCi95?.last),
                cell(r.timing.nsPerEvent.p50), cell(r.timing.nsPerEvent.p99), cell(l?.p50), cell(l?.p90), cell(l?.p99), cell(l?.p999), cell(l?.max),
                cell(r.timing.eventsPerSecond), cell(r.memory.allocationsPerEvent), cell(r.memory.bytesPerEvent), cell(r.memory.matcherBytes), cell(r.memory.scratchBytes),
                cell(r.instructionsPerEvent), cell(r.matches.matchesPerEvent), cell(r.matches.candidatesPerEvent), cell(r.ratios.speedupVsReference),
                cell(r.ratios.ratioToFloor), cell(r.ratios.ratioToFloorCi95?.first), cell(r.ratios.ratioToFloorCi95?.last),
                quoted(run?.commit ?? ""), quoted(run?.timestamp ?? ""),
                cell(r.coldLatencyNs?.p50), cell(r.coldLatencyNs?.p90), cell(r.coldLatencyNs?.p99), cell(r.passes?.loops), cell(r.passes?.cpuShare),
                cell(r.passes?.involuntarySwitchesPerPass),
                cell(r.passes?.outliers.severe), quoted(r.passes?.flags.joined(separator: " ") ?? ""),
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

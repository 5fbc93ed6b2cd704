import Foundation
import Harness
import XCTest

/// A `bench run --json` file says how it was made and carries honest figures: per row an interval for
/// the mean, single-event percentiles on 1-thread unpublished rows, matcher bytes that differ between
/// strategies; at the top the run metadata and one jemalloc block; and `--csv` has a line per row.
/// Runs the `bench` built beside this test bundle, since only it links jemalloc.
final class ResultsFileContentsTests: XCTestCase {
    static var bench: String {
        // The products folder: on Linux the bundle URL is that folder, on macOS the .xctest inside it.
        let url = Bundle(for: ResultsFileContentsTests.self).bundleURL
        return (url.pathExtension == "xctest" ? url.deletingLastPathComponent() : url).appendingPathComponent("bench").path
    }

    func testARunsJSONAndCSVCarryEveryFigureTheyPromise() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.bench) else {
            return XCTFail("swift test builds bench beside the tests: \(Self.bench)")
        }
        let folder = NSTemporaryDirectory() + "results-contents-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = folder + "/tiny.json", csv = folder + "/tiny.csv"
        _ = try Subprocess.run(Self.bench, ["run", "--workload", "tiny", "--threads", "1,2", "--repetitions", "2", "--events", "20000",
                                            "--reference-events", "2000", "--latency-events", "2000", "--json", json, "--csv", csv], what: "bench run")
        XCTAssertEqual(Self.problems(json: json, csv: csv), [])

        // The check itself: the same file without its percentiles and jemalloc block, a null host and
        // a CSV line short, must be refused on each count.
        var doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        doc["jemalloc"] = nil
        var run = try XCTUnwrap(doc["run"] as? [String: Any])
        run["host"] = NSNull()
        doc["run"] = run
        doc["results"] = try XCTUnwrap(doc["results"] as? [[String: Any]]).map { var r = $0; r["latency_ns"] = nil; return r }
        try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: json))
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline)
        try (lines.dropLast().joined(separator: "\r\n") + "\r\n").write(toFile: csv, atomically: true, encoding: .utf8)
        let found = Self.problems(json: json, csv: csv)
        for expected in ["run.host missing", "jemalloc block lacks", "reference none x1: no ordered single-event percentiles", "the CSV has"] {
            XCTAssertTrue(found.contains { $0.contains(expected) }, "\(expected) not among \(found)")
        }
    }

    /// What is wrong with a results file and its CSV, one line each (empty: nothing).
    static func problems(json: String, csv: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: json),
              let doc = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return ["\(json) is not a JSON object"] }
        var problems: [String] = []
        if doc["schema"] as? String != "trigger-bench-results/3" { problems.append("schema is \(doc["schema"] ?? "missing")") }
        let run = doc["run"] as? [String: Any] ?? [:]
        for key in ["timestamp", "host", "command", "settings", "noise"] where run[key] == nil || run[key] is NSNull { problems.append("run.\(key) missing") }
        let jemalloc = doc["jemalloc"] as? [String: Any] ?? [:]
        if !["after_generation", "after_build", "end"].allSatisfy({ jemalloc[$0] != nil }) {
            problems.append("the top-level jemalloc block lacks after_generation, after_build or end")
        }
        let results = doc["results"] as? [[String: Any]] ?? []
        if results.isEmpty { problems.append("no results") }
        var matcherBytes: Set<Int> = []
        for r in results {
            let threads = (r["threads"] as? NSNumber)?.intValue ?? 0, publication = r["publication"] as? String ?? ""
            let row = "\(r["strategy"] ?? "?") \(publication) x\(threads)"
            if r["jemalloc"] != nil { problems.append("\(row): a per-row jemalloc block (the gauges are process-wide)") }
            let ci = (r["mean_ci95"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
            if ci.count != 2 || ci[0] > ci[1] { problems.append("\(row): no confidence interval for the mean") }
            guard threads == 1, publication == "none" else { continue }
            let latency = (r["latency_ns"] as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.doubleValue }
            let ordered = ["p50", "p99", "p999", "max"].compactMap { latency[$0] }
            if (latency["samples"] ?? 0) <= 0 || ordered.count != 4 || ordered != ordered.sorted() {
                problems.append("\(row): no ordered single-event percentiles: \(latency)")
            }
            if let bytes = (r["matcher_bytes"] as? NSNumber)?.intValue { matcherBytes.insert(bytes) }
        }
        if matcherBytes.count < 2 { problems.append("matcher bytes do not differ between strategies: \(matcherBytes.sorted())") }
        let lines = (try? String(contentsOfFile: csv, encoding: .utf8))?.split(whereSeparator: \.isNewline) ?? []  // CSV lines end in CR LF
        if lines.count != results.count + 1 { problems.append("the CSV has \(lines.count - 1) rows for \(results.count) results") }
        return problems
    }
}

import Foundation
import TriggerKit
import Workload

extension RunReport {
    /// The largest results file read: a run of every strategy, thread count and publication mode with
    /// 1,000 repetitions is a few MB, so anything near this is not a results file.
    package static let maxFileBytes = 64 << 20

    /// Reads a `trigger-bench-results/1`, `/2` or `/3` file; a malformed one is an `InputError` naming the file and the
    /// JSON path or the line and column. Duplicate keys, and negative or non-finite numbers (no figure in
    /// a results file can be either), are refused.
    package static func load(_ path: String) throws -> RunReport {
        try decode(BoundedFile.read(path, limit: maxFileBytes), file: path)
    }

    /// Decodes the bytes of a results file; errors name `path`.
    package static func decode(_ bytes: [UInt8], file path: String) throws -> RunReport {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch {
            throw InputError(file: path, path: "line \(error.line), column \(error.column)", reason: "invalid JSON: \(error.reason)")
        }
        // Another kind of bench file is named as such, before its figures are judged as a run's.
        if case .object(let members) = json, let schema = members.first(where: { $0.key == "schema" })?.value,
           case .string(let name) = schema, !readableSchemas.contains(name) {
            let what = name.hasPrefix("trigger-bench-sweep/") ? "a sweep file (bench sweep --json)" : "\"\(PrintableText.escaped(name))\""
            throw InputError(file: path, path: "schema", reason: "this is \(what); expected a results file (bench run --json: \(readableSchemas.map { "\"\($0)\"" }.joined(separator: " or ")))")
        }
        if let (at, value) = firstNegativeNumber(json, at: "") {
            throw InputError(file: path, path: at, reason: "\(value) is \(value.hasPrefix("-") ? "negative" : "beyond 10^15"); a results file holds counts, times and ratios, all zero or more and far below that")
        }
        do {
            let report = try decoder.decode(RunReport.self, from: Data(bytes))
            guard readableSchemas.contains(report.schema) else {
                throw InputError(file: path, path: "schema", reason: "expected one of \(readableSchemas.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(report.schema)\"")
            }
            for (k, r) in report.results.enumerated() {
                for (name, interval) in [("mean_ci95", r.timing.meanCi95), ("ratio_to_floor_ci95", r.ratios.ratioToFloorCi95),
                                         ("speedup_vs_reference_ci95", r.ratios.speedupVsReferenceCi95)] {
                    if let interval, interval.count != 2 || interval[0] > interval[1] {
                        throw InputError(file: path, path: "results[\(k)].\(name)", reason: "an interval is two numbers, [low, high]; got \(interval)")
                    }
                }
            }
            return report
        } catch var error as DecodingError {
            // A number an integer field cannot hold (Foundation: "not valid JSON", no path).
            if let other = MisfitNumbers.error(json, as: RunReport.self, decoder: decoder) {
                error = other
            } else if let misfit = MisfitNumbers.first(json, as: RunReport.self, decoder: decoder, root: "") {
                throw InputError(file: path, path: misfit.path, reason: "expected an integer, found \(misfit.found)")
            }
            let (codingPath, reason): ([CodingKey], String) = switch error {
            case .keyNotFound(let key, let c): (c.codingPath + [key], "missing")
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): (c.codingPath, c.debugDescription)
            @unknown default: ([], "\(error)")
            }
            let jsonPath = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\(snakeCase($0.stringValue))" }.joined()
            throw InputError(file: path, path: jsonPath.hasPrefix(".") ? String(jsonPath.dropFirst()) : jsonPath, reason: reason)
        }
    }

    /// The path and value of the first negative number in `json` (the parser already refuses non-finite ones).
    static func firstNegativeNumber(_ json: JSONValue, at path: String) -> (String, String)? {
        for (at, value) in json.numbers(under: path) {
            switch value {
            // Also refused: numbers no figure comes near (a charted 1.7e308 overflows its axis to inf).
            // A seed is any integer a spec takes (up to Int64's largest), not a figure.
            case .int(let i) where i < 0 || i > 1_000_000_000_000_000 && at != "workload.seed": return (at, String(i))
            case .double(let d) where d < 0 || d > 1e15: return (at, String(d))
            default: continue
            }
        }
        return nil
    }

    static func snakeCase(_ s: String) -> String {
        var out = ""
        for ch in s {
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }
}

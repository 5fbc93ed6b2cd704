import Foundation
import TriggerKit
import Workload

/// `bench sweep` (docs/harness.md, "Sweeps"): one full run per point of a grid of workload-spec values,
/// each generated from the same seed, and how each strategy's cost grows with each varied key.
package struct Sweep: Codable, Sendable {
    package static let schemaName = "trigger-bench-sweep/1"

    /// One varied key and the values it takes, as given (`1000`, `0.25`, `1:4`).
    package struct Axis: Codable, Sendable, Equatable {
        package var key: String
        package var values: [String]

        package init(key: String, values: [String]) {
            self.key = key
            self.values = values
        }

        /// The number a value stands for on a log axis: itself, or a range's midpoint.
        package static func magnitude(_ value: String) -> Double? {
            let bounds = value.split(separator: ":")
            if bounds.count == 2, let lo = Double(bounds[0]), let hi = Double(bounds[1]) { return (lo + hi) / 2 }
            return Double(value)
        }
    }

    package struct Point: Codable, Sendable {
        /// Each varied key's value at this point.
        package var values: [String: String]
        package var results: RunReport
        /// The point's place in the whole grid (first axis slowest), so shards merge in grid order.
        package var index: Int?
    }

    /// The least-squares fit of log(mean ns/event) on log(value) of every varied key together.
    package struct Fit: Codable, Sendable, Equatable {
        package var exponent: Double
        /// Of the whole regression (all varied keys).
        package var r2: Double
        /// Points with a positive value of every key, which the fit used.
        package var points: Int
    }

    package var schema = Sweep.schemaName
    package var workload: String
    package var axes: [Axis]
    package var points: [Point]
    /// `fits[key][row]`: row is the strategy, with publication and threads when not `none ×1`.
    package var fits: [String: [String: Fit]]
    /// Set when this file holds one shard of the grid (`bench sweep --shard I/N`).
    package var shard: Shard?

    /// The grid, first axis slowest: every combination of the axes' values.
    package static func grid(_ axes: [Axis]) -> [[String: String]] {
        axes.reduce([[:]]) { partial, axis in
            partial.flatMap { point in axis.values.map { var p = point; p[axis.key] = $0; return p } }
        }
    }

    /// Runs every point. `configure` turns a point's spec into the run's configuration (the options of
    /// `bench run`); `progress` is told which point is running.
    /// With `shard`, only the grid's points of that shard run (`Shard.holds`).
    package static func run(base: WorkloadSpec, axes: [Axis], shard: Shard? = nil, configure: (WorkloadSpec) throws -> RunConfiguration,
                           progress: (String) -> Void = { _ in }) throws -> Sweep {
        let grid = grid(axes)
        // Every point's spec is validated before anything runs: a bad value fails now, not after minutes.
        let specs = try grid.map { point in try axes.reduce(base) { spec, axis in try spec.setting(axis.key, to: point[axis.key]!) } }
        var points: [Point] = []
        for (k, (values, spec)) in zip(grid, specs).enumerated() where shard?.holds(k) ?? true {
            let label = "point \(k + 1)/\(grid.count) " + axes.map { "\($0.key)=\(values[$0.key]!)" }.joined(separator: " ")
            progress(label)
            var configuration = try configure(spec)
            configuration.progressPrefix = label
            points.append(Point(values: values, results: try Runner(configuration).run(), index: k))
        }
        return Sweep(workload: base.name, axes: axes, points: points, fits: fits(axes, points), shard: shard)
    }

    /// Row names in the order of the first point's results.
    package var rows: [String] { Self.rows(points) }

    static func rows(_ points: [Point]) -> [String] {
        var seen: [String] = [], known = Set<String>()
        for p in points { for r in p.results.results where known.insert(r.key.label).inserted { seen.append(r.key.label) } }
        return seen
    }

    static func fits(_ axes: [Axis], _ points: [Point]) -> [String: [String: Fit]] {
        var fits: [String: [String: Fit]] = [:]
        for row in rows(points) {
            var xs: [[Double]] = [], ys: [Double] = []
            for p in points {
                guard let r = p.results.results.first(where: { $0.key.label == row }), r.timing.nsPerEvent.mean > 0 else { continue }
                let magnitudes = axes.map { Axis.magnitude(p.values[$0.key]!) ?? 0 }
                guard magnitudes.allSatisfy({ $0 > 0 }) else { continue }
                xs.append(magnitudes.map(log))
                ys.append(log(r.timing.nsPerEvent.mean))
            }
            // Only keys that take two or more values among the fitted points can have a slope.
            let varying = axes.indices.filter { k in Set(xs.map { $0[k] }).count > 1 }
            guard !varying.isEmpty, let (coefficients, r2) = LeastSquares.fit(xs.map { x in varying.map { x[$0] } }, ys) else { continue }
            for (j, k) in varying.enumerated() {
                fits[axes[k].key, default: [:]][row] = Fit(exponent: coefficients[j + 1], r2: r2, points: ys.count)
            }
        }
        return fits
    }

    package func json() throws -> Data { try RunReport.encoder.encode(self) }

    /// Reads a sweep file, strictly as results files are read, and holds it to what `bench sweep` writes,
    /// so that rendering it is bounded by the file: every point sets every axis to one of its values.
    package static func decode(_ bytes: [UInt8], file: String) throws -> Sweep {
        let sweep: Sweep
        do {
            sweep = try RunReport.decoder.decode(Sweep.self, from: Data(bytes))
        } catch {
            throw InputError(file: file, path: "", reason: "not a \(schemaName) file: \(error)")
        }
        if let problem = sweep.problem() { throw InputError(file: file, path: problem.path, reason: problem.reason + "; is it a file bench sweep wrote?") }
        return sweep
    }

    /// The limits `bench sweep` keeps: at most 1,000 points.
    static let maxPoints = 1000, maxAxes = 16, maxRowsPerPoint = 5000

    func problem() -> (path: String, reason: String)? {
        guard !axes.isEmpty, axes.count <= Self.maxAxes else { return ("axes", "has \(axes.count) axes; a sweep has 1 to \(Self.maxAxes)") }
        var size = 1
        for (k, axis) in axes.enumerated() {
            guard !axis.key.isEmpty, !axis.values.isEmpty, Set(axis.values).count == axis.values.count else {
                return ("axes[\(k)]", "needs a key and distinct values")
            }
            size = min(size, Self.maxPoints + 1) * axis.values.count
        }
        guard Set(axes.map(\.key)).count == axes.count else { return ("axes", "names a key twice") }
        guard size <= Self.maxPoints else { return ("axes", "make a grid of more than \(Self.maxPoints) points") }
        guard points.count <= size else { return ("points", "has \(points.count) points for a grid of \(size)") }
        if let shard {
            guard shard.count >= 1, shard.count <= Self.maxPoints, (1...shard.count).contains(shard.index) else {
                return ("shard", "is \(shard.index)/\(shard.count); a shard is I/N with 1 ≤ I ≤ N ≤ \(Self.maxPoints)")
            }
            guard shard.gridPoints == size else { return ("shard.grid_points", "is \(shard.gridPoints) for a grid of \(size)") }
        }
        let values = Dictionary(uniqueKeysWithValues: axes.map { ($0.key, Set($0.values)) })
        for (k, p) in points.enumerated() {
            guard p.values.count == axes.count, p.values.allSatisfy({ values[$0.key]?.contains($0.value) == true }) else {
                return ("points[\(k)].values", "must give each axis one of its values")
            }
            if let index = p.index {
                guard (0..<size).contains(index), shard?.holds(index) ?? true else {
                    return ("points[\(k)].index", "is \(index), not a point of \(shard.map { "shard \($0.index)/\($0.count) of " } ?? "")a grid of \(size)")
                }
            }
            guard p.results.results.count <= Self.maxRowsPerPoint else {
                return ("points[\(k)].results", "has \(p.results.results.count) rows; at most \(Self.maxRowsPerPoint)")
            }
        }
        return nil
    }
}

/// Ordinary least squares with an intercept, by the normal equations (a handful of columns).
package enum LeastSquares {
    /// Coefficients `[intercept, b1, …]` and R², or nil when the system is singular or too small.
    package static func fit(_ xs: [[Double]], _ ys: [Double]) -> ([Double], Double)? {
        let n = ys.count, m = (xs.first?.count ?? 0) + 1
        guard n > m - 1, m > 1 else { return nil }
        let rows = xs.map { [1] + $0 }
        var a = [[Double]](repeating: [Double](repeating: 0, count: m + 1), count: m)
        for (x, y) in zip(rows, ys) {
            for i in 0..<m {
                for j in 0..<m { a[i][j] += x[i] * x[j] }
                a[i][m] += x[i] * y
            }
        }
        // Gauss–Jordan with partial pivoting.
        for c in 0..<m {
            guard let pivot = (c..<m).max(by: { abs(a[$0][c]) < abs(a[$1][c]) }), abs(a[pivot][c]) > 1e-12 else { return nil }
            a.swapAt(c, pivot)
            for r in 0..<m where r != c {
                let f = a[r][c] / a[c][c]
                for k in c...m { a[r][k] -= f * a[c][k] }
            }
        }
        let b = (0..<m).map { a[$0][m] / a[$0][$0] }
        let mean = ys.reduce(0, +) / Double(n)
        var residual = 0.0, total = 0.0
        for (x, y) in zip(rows, ys) {
            let predicted = zip(x, b).reduce(0) { $0 + $1.0 * $1.1 }
            residual += (y - predicted) * (y - predicted)
            total += (y - mean) * (y - mean)
        }
        return (b, total > 0 ? 1 - residual / total : 1)
    }
}

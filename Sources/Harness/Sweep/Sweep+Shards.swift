import Foundation
import TriggerKit

/// A sweep split across machines (`bench sweep --shard I/N`, one CI job each) and put back together
/// (`bench sweep --merge`, `bench report`): shard I of N runs the grid's points k with k mod N = I − 1,
/// so neighbouring points, which cost alike, land on different shards and the shards take about as long.
extension Sweep {
    package struct Shard: Codable, Sendable, Equatable {
        /// 1-based.
        package var index: Int
        package var count: Int
        /// Points in the whole grid.
        package var gridPoints: Int

        package init(index: Int, count: Int, gridPoints: Int) {
            self.index = index
            self.count = count
            self.gridPoints = gridPoints
        }

        func holds(_ point: Int) -> Bool { point % count == index - 1 }

        /// Reads `I/N`.
        package static func parse(_ text: String) -> (index: Int, count: Int)? {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= Sweep.maxPoints, (1...n).contains(i) else { return nil }
            return (i, n)
        }
    }

    /// Whether this file is part of a sweep run in shards.
    package var isShard: Bool { shard.map { $0.count > 1 } ?? false }

    /// The shards of one sweep as one sweep, its points in grid order and its fits made over all of
    /// them. Refused, naming the file, unless every shard of one grid is there once, run by one commit.
    package static func merge(_ shards: [(sweep: Sweep, file: String)]) throws -> Sweep {
        guard let (first, firstFile) = shards.first else { throw InputError(path: "", reason: "no sweep files to merge") }
        guard let shard = first.shard else {
            throw InputError(file: firstFile, path: "shard", reason: "is not a shard (written without --shard I/N); only shards of one sweep merge")
        }
        var seen: [Int: String] = [:]
        for (sweep, file) in shards {
            guard let s = sweep.shard else { throw InputError(file: file, path: "shard", reason: "is not a shard (written without --shard I/N); only shards of one sweep merge") }
            guard sweep.workload == first.workload, sweep.axes == first.axes, s.count == shard.count else {
                throw InputError(file: file, path: "", reason: "is shard \(s.index)/\(s.count) of workload \(PrintableText.escaped(sweep.workload)) over \(Self.axesText(sweep.axes)), but \(PrintableText.escaped(firstFile)) is of \(shard.count) shards of \(PrintableText.escaped(first.workload)) over \(Self.axesText(first.axes)); merge the shards of one sweep")
            }
            if let other = seen[s.index] {
                throw InputError(file: file, path: "shard", reason: "is shard \(s.index)/\(s.count), as \(PrintableText.escaped(other)) is; give each shard once")
            }
            seen[s.index] = file
            for (k, p) in sweep.points.enumerated() where p.index == nil {
                throw InputError(file: file, path: "points[\(k)].index", reason: "is missing; a shard's points name their place in the grid")
            }
        }
        let missing = (1...shard.count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw InputError(path: "", reason: "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(shard.count)" }.joined(separator: ", ")) missing; give every shard's file (a failed CI job's shard must be run again)")
        }
        // Points measured by different builds do not make one curve.
        let commits = Set(shards.flatMap { $0.sweep.points.map { $0.results.run?.commit ?? "unknown" } })
        guard commits.count <= 1 else {
            throw InputError(path: "", reason: "the shards ran \(commits.count) commits (\(commits.sorted().map { String($0.prefix(12)) }.joined(separator: ", "))); run every shard from one commit")
        }
        let points = shards.flatMap(\.sweep.points).sorted { ($0.index ?? 0) < ($1.index ?? 0) }
        guard points.count == shard.gridPoints, Set(points.compactMap(\.index)).count == points.count else {
            throw InputError(path: "", reason: "the shards hold \(points.count) points for a grid of \(shard.gridPoints); merge the complete files each shard wrote")
        }
        return Sweep(workload: first.workload, axes: first.axes, points: points, fits: fits(first.axes, points))
    }

    /// The CPUs the points ran on, when more than one: their ns/event compare across hosts only as far
    /// as the hosts are alike (a fit over them mixes the machines' speeds).
    package var hostsNote: String? {
        let cpus = Set(points.map(\.results.environment.cpu))
        guard cpus.count > 1 else { return nil }
        return "note: the points ran on \(cpus.count) kinds of CPU (\(cpus.sorted().map(PrintableText.escaped).joined(separator: "; "))); ratios within a point hold, a fit across points mixes the machines' speeds"
    }

    package static func axesText(_ axes: [Axis]) -> String {
        axes.map { "\(PrintableText.escaped($0.key))=\($0.values.map(PrintableText.escaped).joined(separator: ","))" }.joined(separator: " ")
    }
}

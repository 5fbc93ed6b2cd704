import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a workload at every point of a grid of spec values and fit how each strategy's cost grows.",
        discussion: """
            --vary KEY=v1,v2,… takes any numeric workload-spec key (triggers, event_names, regex_share, \
            fresh_string_share, zipf, …), a nested one (crowded.triggers, kinds.purchase) or a range key as \
            min:max (filters_per_trigger=0:2,2:4); give --vary twice for a grid. Every point is generated from the \
            workload's seed and run as `bench run` runs (its options apply; checksums are checked at every point). \
            For each key and strategy, the exponent of a least-squares fit of log(ns/event) on log(value) is printed \
            ("compiled ∝ triggers^0.97"), a range counting as its midpoint.

            A sweep too long for one machine runs in shards, one per CI job: --shard I/N runs the points k \
            with k mod N = I − 1 and writes them with their place in the grid; --merge (or bench report) puts \
            the shards' files back together, refusing a missing shard, one given twice, or shards of \
            different commits.

            Examples:
              bench sweep --workload default --vary triggers=100,300,1000,3000,10000 --events 200000 --svg s.svg
              bench sweep --workload default --vary triggers=100,1000,10000 --shard 2/3 --json shard-2.json
              bench sweep --merge shard-1.json shard-2.json shard-3.json --json sweep.json --svg sweep.svg
            """)

    @Option(name: .customLong("vary"), help: "KEY=v1,v2,… (repeatable: a grid of every combination).")
    var vary: [String] = []

    @Option(help: "Run only shard I of N of the grid's points (e.g. 2/3; one CI job each), to merge with --merge.")
    var shard: String?

    @Option(parsing: .upToNextOption, help: "Merge the files of a sweep's shards (bench sweep --shard … --json) instead of running one.")
    var merge: [String] = []

    @Option(help: "The workload varied: a preset name from Corpora/workloads or a spec file path (default: default).")
    var workload: String?

    @OptionGroup var options: RunOptions

    @Option(help: "Write the sweep as JSON (schema trigger-bench-sweep/1: every point's full results and the fits).")
    var json: String?

    @Option(help: "Write a log–log chart per varied key (SVG).")
    var svg: String?

    func axes() throws -> [Sweep.Axis] {
        guard !vary.isEmpty else { throw ValidationError("give at least one --vary KEY=v1,v2,…") }
        let axes = try vary.map { spec -> Sweep.Axis in
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--vary takes KEY=v1,v2,…, got \"\(spec)\"") }
            let values = try OptionList.items("--vary \(parts[0])", parts[1])
            guard !values.isEmpty else { throw ValidationError("--vary \(parts[0]) lists no values") }
            // By value, not spelling: 100 and 1e2 are one point.
            var seen: [String: String] = [:]
            for v in values {
                let number = v.split(separator: ":", omittingEmptySubsequences: false)
                    .map { Double($0).map { "\($0 == 0 ? 0 : $0)" } ?? String($0) }.joined(separator: ":")  // -0 is 0
                if let other = seen[number] { throw ValidationError("--vary \(parts[0]) lists one value twice (\(other) and \(v))") }
                seen[number] = v
            }
            return Sweep.Axis(key: parts[0], values: values)
        }
        guard Set(axes.map(\.key)).count == axes.count else { throw ValidationError("--vary names the same key twice") }
        if axes.contains(where: { $0.key == "events" }), options.events != nil {
            throw ValidationError("--vary events sets each point's event count and --events would override it; drop --events")
        }
        // Multiplied with a cap, so hundreds of values on several axes cannot overflow.
        var points = 1
        for axis in axes {
            points = min(points, 1001) * axis.values.count
            guard points <= 1000 else { throw ValidationError("the grid has more than 1000 points (\(axes.map { String($0.values.count) }.joined(separator: " × ")) values); at most 1000") }
        }
        return axes
    }

    func validate() throws {
        if !merge.isEmpty {
            guard vary.isEmpty, workload == nil, shard == nil else { throw ValidationError("--merge puts finished shards together; it takes no --vary, --workload or --shard") }
            return
        }
        if let shard {
            guard Sweep.Shard.parse(shard) != nil else { throw ValidationError("--shard takes I/N with 1 ≤ I ≤ N ≤ 1000 (e.g. 2/3), got \"\(shard)\"") }
            guard json != nil else { throw ValidationError("--shard writes its points for bench sweep --merge to put together: give --json FILE") }
        }
        _ = try axes()
    }

    func runMerge() throws {
        try OutputPaths.refuseOverwriting(outputs: [("--json", json), ("--svg", svg)], inputs: merge.map { ("--merge", $0) })
        let jsonFile = try json.map(AtomicFile.init(path:))
        let svgFile = try svg.map(AtomicFile.init(path:))
        let shards = try merge.map { file in (sweep: try Sweep.decode(try BoundedFile.read(file, limit: RunReport.maxFileBytes), file: file), file: file) }
        let sweep = try Sweep.merge(shards)
        if let note = sweep.hostsNote { TextOutput.standardError("bench: \(note)") }
        try TextOutput.printLine(sweep.table())
        try jsonFile?.commit(with: sweep.json())
        try svgFile?.commit(with: Data(sweep.svg().utf8))
    }

    func run() throws {
        if !merge.isEmpty { return try runMerge() }
        options.progressOption.apply()
        try OutputPaths.refuseOverwriting(outputs: [("--json", json), ("--svg", svg)],
                                     inputs: [("--workload", workload.flatMap { WorkloadSpec.isFile($0) ? $0 : nil })] + options.plugins.map { ("--plugin", PluginLibrary.path(ofArgument: $0)) })
        let jsonFile = try json.map(AtomicFile.init(path:))
        let svgFile = try svg.map(AtomicFile.init(path:))
        let axes = try self.axes()
        let base = try WorkloadSpec.load(workload ?? "default")
        let plugins = try options.pluginStrategies()
        var first = true
        let progress = ProgressLine(enabled: true)
        let gridPoints = axes.reduce(1) { $0 * $1.values.count }
        let part = try shard.flatMap(Sweep.Shard.parse).map { s -> Sweep.Shard in
            guard s.index <= gridPoints else { throw ValidationError("--shard \(s.index)/\(s.count): the grid has only \(gridPoints) point\(gridPoints == 1 ? "" : "s"), so shard \(s.index) would run none; use at most \(gridPoints) shard\(gridPoints == 1 ? "" : "s")") }
            return Sweep.Shard(index: s.index, count: s.count, gridPoints: gridPoints)
        }
        let sweep = try Sweep.run(base: base, axes: axes, shard: part, configure: { spec in
            defer { first = false }
            return try options.makeConfiguration(input: .generated(spec), plugins: plugins, announce: first)
        }, progress: { progress.note($0) })
        try TextOutput.printLine(sweep.table())
        try jsonFile?.commit(with: sweep.json())
        try svgFile?.commit(with: Data(sweep.svg().utf8))
    }
}

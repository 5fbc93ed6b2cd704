import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// Matcher plugins: the example agrees with reference everywhere; wrong ones are caught, not trusted.
final class PluginTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Builds the plugin in `directory` (relative to the repository) with scripts/build-plugin.
    static func build(_ directory: String) throws -> PluginLibrary {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-\(UUID().uuidString).so").path
        let path = try Subprocess.run(repository.appendingPathComponent("scripts/build-plugin").path,
                                      [repository.appendingPathComponent(directory).path, out], what: "scripts/build-plugin")
        return try PluginLibrary(path: path.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A small run of the built-in strategies `builtIn`, then the plugin's row.
    func configuration(_ spec: WorkloadSpec, _ plugin: PluginLibrary, builtIn: [String] = ["reference", "compiled"]) -> RunConfiguration {
        var c = RunConfiguration.small(spec, strategies: builtIn, events: 500, referenceEvents: 2000)
        c.strategies.append(plugin.runStrategy(checked: true))
        return c
    }

    /// `bench conform` run from a folder outside the repository finds the shipped cases.
    func testTheDefaultCaseFolderIsFoundFromTheSourceTree() throws {
        let found = Conformance.sourceTreeDirectory
        XCTAssertEqual(URL(fileURLWithPath: found).standardizedFileURL, Self.repository.appendingPathComponent("Corpora/conformance").standardizedFileURL)
        XCTAssertFalse(try Conformance.cases(in: found).isEmpty)
    }

    func testTheExamplePluginAgreesWithReferenceOnEveryConformanceCase() throws {
        let plugin = try Self.build("Examples/Plugins/linear-scan")
        XCTAssertEqual(plugin.name, "linear-scan")
        for directory in try Conformance.cases(in: Self.repository.appendingPathComponent("Corpora/conformance").path) {
            let result = try Conformance.check(case: directory) { plugin.strategy(corpusJSON: $0.json, of: $0.set) }
            XCTAssertEqual(result.disagreements.map(\.description), [], result.name)
            XCTAssertEqual(result.invalidResults, 0, result.name)
            XCTAssertGreaterThan(result.events, 0, result.name)
        }
    }

    func testTheExamplePluginMatchesLikeCompiledOnGeneratedWorkloadsWithAndWithoutPublication() throws {
        let plugin = try Self.build("Examples/Plugins/linear-scan")
        var spec = try WorkloadSpec.load("tiny")
        spec.events = 6000
        spec.freshStringShare = 0.4
        var c = configuration(spec, plugin)
        c.threads = [1, 2]
        c.publications = [.none, .lockFree]
        c.writer = WriterSettings(everyMs: 5)
        let report = try Runner(c).run()
        let rows = report.results.filter { $0.strategy == "plugin:linear-scan" }
        XCTAssertEqual(rows.count, 4)
        let compiled = try XCTUnwrap(report.results.first { $0.strategy == "compiled" })
        for row in rows {
            XCTAssertEqual(row.matches.checksum, compiled.matches.checksum)
            XCTAssertEqual(row.memory.allocationsPerEvent, 0)
        }
        for seed in 1...20 as ClosedRange<UInt64> {
            var random = DeterministicRandom(seed: seed)
            var s = spec
            s.seed = seed
            s.events = 400
            s.triggers = random.between(1, 200)
            s.regexShare = random.unit() * 0.4
            s.crowdedTriggers = random.chance(0.3) ? random.between(32, 300) : 0
            var small = configuration(s, plugin)
            small.referenceEvents = 400
            XCTAssertNoThrow(try Runner(small).run(), "seed \(seed)")
        }
    }

    /// After a delta, the JSON a plugin is handed describes the set its flat arrays do (json-reader
    /// refuses to build otherwise): a plugin with its own decoder matches the current triggers.
    func testAPluginReadingTheJSONIsHandedTheSetADeltaMade() throws {
        let plugin = try Self.build("Tests/Plugins/json-reader")
        let spec = try WorkloadSpec.load("tiny")
        let set = try WorkloadGenerator.corpus(spec)
        let json = Array((WorkloadGenerator.corpusJSON(spec).serialized + "\n").utf8)
        let vocabulary = Vocabulary(set)
        let strategy = plugin.strategy(corpusJSON: json, of: set)
        _ = try strategy.make(set, vocabulary)
        // What a publication writer with --delta-triggers 4 does: each delta rebuilds the plugin's matcher.
        let writer = try strategy.makeWriter(set, vocabulary, nil)
        var deltas = BenchDeltas(set, triggers: 4)
        for _ in 0..<2 { XCTAssertNoThrow(try writer.apply(deltas.next())) }
    }

    /// A plugin's build and matcher figures are its own code's; the host's flattening of the corpus is
    /// timed apart and said under the table. (Its allocations, which need jemalloc in the process, are
    /// checked on the release build by scripts/test-plugins.)
    func testAPluginsBuildLeavesTheHostShareOut() throws {
        let plugin = try Self.build("Examples/Plugins/linear-scan")
        let spec = try WorkloadSpec.load("default")
        let set = try WorkloadGenerator.corpus(spec)
        let json = Array((WorkloadGenerator.corpusJSON(spec).serialized + "\n").utf8)
        let builds = try BuildTiming.measure(set, strategies: [plugin.strategy(corpusJSON: json, of: set)], builds: 5, warmup: 1)
        let row = try XCTUnwrap(builds.first)
        XCTAssertGreaterThan(try XCTUnwrap(row.hostMeanMicroseconds), row.meanMicroseconds, "flattening 1,000 triggers outweighs a create that makes one malloc")
        XCTAssertNil(try BuildTiming.measure(set, strategies: ["compiled"], builds: 2, warmup: 1).first?.hostMeanMicroseconds)

        let c = configuration(try WorkloadSpec.load("tiny"), plugin, builtIn: ["compiled"])
        let report = try Runner(c).run()
        let pluginRow = try XCTUnwrap(report.results.first { $0.strategy == "plugin:linear-scan" })
        XCTAssertGreaterThan(try XCTUnwrap(pluginRow.memory.hostBuildSeconds), 0)
        XCTAssertNotNil(pluginRow.memory.hostBytes)
        XCTAssertNil(report.results.first { $0.strategy == "compiled" }?.memory.hostBuildSeconds)
        XCTAssertTrue(report.table().contains("plugin:linear-scan: its build took"), report.table())
        // The results file says which plugin build was measured and that it was checked first.
        let recorded = try XCTUnwrap(report.run?.settings.plugins)
        XCTAssertEqual(recorded.map(\.name), ["linear-scan"])
        XCTAssertEqual(recorded.first?.checked, true)
        XCTAssertEqual(recorded.first?.sha256, plugin.sha256)
        XCTAssertEqual(report.run?.settings.strategies, ["compiled", "plugin:linear-scan"])
    }

    func testAWrongPluginFailsTheRunAndConformanceNamesTheCase() throws {
        var spec = try WorkloadSpec.load("tiny")
        spec.events = 3000
        for directory in ["Tests/Plugins/first-trigger", "Tests/Plugins/out-of-range"] {
            let plugin = try Self.build(directory)
            XCTAssertThrowsError(try Runner(configuration(spec, plugin)).run(), directory) { error in
                XCTAssertTrue(error is MatchedWrongly, "\(error)")
            }
            // No evaluating built-in row beside it: the run still checks it against reference.
            let alone = configuration(spec, plugin, builtIn: ["floor"])
            XCTAssertThrowsError(try Runner(alone).run(), directory) { error in
                XCTAssertTrue(error is MatchedWrongly, "\(error)")
            }
            let result = try Conformance.check(case: Self.repository.appendingPathComponent("Corpora/conformance/cnf-and-windows").path) {
                plugin.strategy(corpusJSON: $0.json, of: $0.set)
            }
            XCTAssertFalse(result.disagreements.isEmpty, directory)
        }
    }

    func testAConformanceCaseWithMoreOrFewerExpectedLinesThanEventsIsRefused() throws {
        let source = Self.repository.appendingPathComponent("Corpora/conformance/operators-number")
        let fm = FileManager.default
        for (name, transform) in [("more", { (lines: [String]) in lines + [lines[0]] }), ("fewer", { (lines: [String]) in Array(lines.dropLast(2)) })] {
            let dir = fm.temporaryDirectory.appendingPathComponent("case-\(name)-\(UUID().uuidString)")
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? fm.removeItem(at: dir) }
            for file in ["corpus.json", "events.jsonl"] { try fm.copyItem(at: source.appendingPathComponent(file), to: dir.appendingPathComponent(file)) }
            let expected = try String(contentsOf: source.appendingPathComponent("expected.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
            try (transform(expected).joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("expected.jsonl"), atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try Conformance.check(case: dir.path) { _ in StrategyRegistry.named("compiled")! }) { error in
                XCTAssertTrue("\(error)".contains("expected"), "\(name): \(error)")
            }
        }
    }

    func testLoadingRefusesFilesThatAreNotPluginsWithOneLine() throws {
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-plugin-\(UUID().uuidString).so")
        try "hello".write(to: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: text) }
        for (path, expected) in [("/nonexistent/x.so", "no such plugin file"), (text.path, "cannot load"), ("/usr/lib/x86_64-linux-gnu/libm.so.6", "exports no trigger_bench_plugin")] {
            guard path.hasPrefix("/usr") == false || FileManager.default.fileExists(atPath: path) else { continue }
            XCTAssertThrowsError(try PluginLibrary(path: path)) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(expected), message)
                XCTAssertFalse(message.contains("\n"), message)
            }
        }
    }
}

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Harness
import TriggerKit
import Workload
import XCTest

final class SweepTests: XCTestCase {
    func testEverySpecRoundTripsThroughItsJSONAndKeysCanBeVaried() throws {
        for name in WorkloadSpec.presetNames() {
            let spec = try WorkloadSpec.load(name)
            XCTAssertEqual(try WorkloadSpec.decode(Array(spec.json.serialized.utf8), file: name), spec, name)
        }
        let base = try WorkloadSpec.load("default")
        XCTAssertEqual(try base.setting("crowded.triggers", to: "5000").crowdedTriggers, 5000)
        XCTAssertEqual(try base.setting("filters_per_trigger", to: "1:3").filtersPerTrigger, 1...3)
        XCTAssertEqual(try base.setting("regex_share", to: "0.25").regexShare, 0.25)
        XCTAssertEqual(try base.setting("kinds.purchase", to: "0.5").kinds["purchase"], 0.5)
        XCTAssertEqual(try base.setting("triggers", to: "300").seed, base.seed)
        for (key, value, expected) in [("trigers", "3", "not a numeric workload key"), ("triggers", "many", "not a number"),
                                       ("regex_share", "2", "share from 0 to 1"), ("filters_per_trigger", "3:1", "above max"),
                                       ("name", "1", "not a numeric workload key"), ("crowded.people", "1", "unknown key")] {
            XCTAssertThrowsError(try base.setting(key, to: value)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(key)=\(value): \(error)")
            }
        }
    }

    func testLeastSquaresRecoversPowerLaws() throws {
        let xs = [10.0, 100, 1000, 10000]
        let (one, r2) = try XCTUnwrap(LeastSquares.fit(xs.map { [log($0)] }, xs.map { log(3 * pow($0, 0.5)) }))
        XCTAssertEqual(one[1], 0.5, accuracy: 1e-9)
        XCTAssertEqual(r2, 1, accuracy: 1e-9)
        var grid: [[Double]] = [], ys: [Double] = []
        for a in [1.0, 2, 4, 8] { for b in [1.0, 10, 100] { grid.append([log(a), log(b)]); ys.append(log(7 * a * pow(b, 0.25))) } }
        let (two, _) = try XCTUnwrap(LeastSquares.fit(grid, ys))
        XCTAssertEqual(two[1], 1, accuracy: 1e-9)
        XCTAssertEqual(two[2], 0.25, accuracy: 1e-9)
        XCTAssertNil(LeastSquares.fit([[1], [1]], [2, 3]), "one distinct x has no slope")
    }

    func testASweepRunsEveryPointChecksItAndFitsTheGrowth() throws {
        var base = try WorkloadSpec.load("tiny")
        base.events = 2000
        base.crowdedTriggers = 0
        let axes = [Sweep.Axis(key: "triggers", values: ["30", "300"]), Sweep.Axis(key: "filters_per_trigger", values: ["0:1", "2:4"])]
        let sweep = try Sweep.run(base: base, axes: axes) { spec in
            RunConfiguration.small(spec, strategies: ["reference", "compiled", "floor"], events: 200, referenceEvents: 500)
        }
        XCTAssertEqual(sweep.points.count, 4)
        XCTAssertEqual(sweep.points.map { $0.values["triggers"]! }, ["30", "30", "300", "300"])
        XCTAssertEqual(sweep.points.map { $0.results.workload.triggers }, [30, 30, 300, 300])
        XCTAssertNotNil(sweep.fits["triggers"]?["compiled"])
        XCTAssertNotNil(sweep.fits["filters_per_trigger"]?["compiled"])
        let decoded = try Sweep.decode(Array(sweep.json()), file: "sweep.json")
        XCTAssertEqual(decoded.fits, sweep.fits)
        XCTAssertEqual(decoded.axes, axes)
        XCTAssertTrue(sweep.table().contains("compiled ∝ triggers^"), sweep.table())
        let svg = sweep.svg()
        XCTAssertEqual(svg.components(separatedBy: "<svg ").count - 1, 2, "one chart per varied key")
        XCTAssertNoThrow(try XMLDocument(xmlString: "<charts>" + svg + "</charts>"))
    }

    /// Three shards of a six-point grid run what one sweep would, and merge back in grid order; a
    /// missing shard, one given twice, one of another sweep and shards of two commits are refused.
    func testShardsRunTheGridBetweenThemAndMergeBack() throws {
        var base = try WorkloadSpec.load("tiny")
        base.events = 1000
        base.crowdedTriggers = 0
        let axes = [Sweep.Axis(key: "triggers", values: ["20", "40", "80"]), Sweep.Axis(key: "zipf", values: ["1.0", "1.2"])]
        let shards = try (1...3).map { i in
            let sweep = try Sweep.run(base: base, axes: axes, shard: Sweep.Shard(index: i, count: 3, gridPoints: 6)) { spec in
                RunConfiguration.small(spec, strategies: ["compiled", "floor"], events: 100, referenceEvents: 100)
            }
            // Through the file, as CI jobs hand them over.
            return (sweep: try Sweep.decode(Array(sweep.json()), file: "shard-\(i).json"), file: "shard-\(i).json")
        }
        XCTAssertEqual(shards.map { $0.sweep.points.compactMap(\.index) }, [[0, 3], [1, 4], [2, 5]])
        let merged = try Sweep.merge([shards[2], shards[0], shards[1]])
        XCTAssertEqual(merged.points.compactMap(\.index), Array(0..<6))
        XCTAssertEqual(merged.points.map { $0.values["triggers"]! }, ["20", "20", "40", "40", "80", "80"])
        XCTAssertEqual(merged.fits["triggers"]?["compiled"]?.points, 6)
        XCTAssertNil(merged.shard)

        func refusal(_ files: [(sweep: Sweep, file: String)]) -> String {
            do { _ = try Sweep.merge(files); return "merged" } catch { return "\(error)" }
        }
        XCTAssertTrue(refusal([shards[0], shards[2]]).contains("shard 2/3 missing"), refusal([shards[0], shards[2]]))
        XCTAssertTrue(refusal([shards[0], shards[1], shards[1]]).contains("give each shard once"))
        var other = shards[1]
        other.sweep.axes[0].values = ["20", "40", "160"]
        XCTAssertTrue(refusal([shards[0], other, shards[2]]).contains("merge the shards of one sweep"))
        var moved = shards[1]
        moved.sweep.points[0].results.run?.commit = "0123456789abcdef"
        XCTAssertTrue(refusal([shards[0], moved, shards[2]]).contains("commits"), refusal([shards[0], moved, shards[2]]))
        // A point outside its shard is refused when the file is read.
        var stray = shards[0].sweep
        stray.points[0].index = 1
        XCTAssertThrowsError(try Sweep.decode(Array(stray.json()), file: "stray.json")) { XCTAssertTrue("\($0)".contains("points[0].index"), "\($0)") }
    }
}

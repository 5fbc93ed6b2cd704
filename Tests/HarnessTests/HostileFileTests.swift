import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// Replays `Corpora/fuzz-regressions/{workload,results}`: hostile workload specs and results files
/// (and any crash `scripts/fuzz workload|results` ever finds) are refused with an `InputError`.
final class HostileFileTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpora/fuzz-regressions")

    func inputs(_ target: String) throws -> [(String, [UInt8])] {
        let dir = Self.root.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { name in
            (name, Array(try Data(contentsOf: dir.appendingPathComponent(name))))
        }
    }

    /// Every file of `target` is refused by `decode` with an `InputError`; there are at least `count`.
    func assertEachRefused(_ target: String, atLeast count: Int, _ decode: ([UInt8], String) throws -> Any) throws {
        let all = try inputs(target)
        XCTAssertGreaterThanOrEqual(all.count, count)
        for (name, bytes) in all {
            XCTAssertThrowsError(try decode(bytes, name), name) { XCTAssertTrue($0 is InputError, "\(name): \($0)") }
        }
    }

    func testHostileWorkloadSpecsAreRefusedWithAnInputError() throws {
        try assertEachRefused("workload", atLeast: 8) { try WorkloadSpec.decode($0, file: $1) }
    }

    func testHostileResultsFilesAreRefusedWithAnInputError() throws {
        try assertEachRefused("results", atLeast: 7) { try RunReport.decode($0, file: $1) }
    }

    func testTheLargestAllowedWorkloadIsRefusedBeforeAllocatingWhenItCannotFit() throws {
        var spec = WorkloadSpec()
        spec.events = 1_000_000_000
        XCTAssertThrowsError(try spec.checkReplayBuffersFit(events: spec.events, file: "huge")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("1000000000 events need about"), text)
            XCTAssertTrue(text.contains("(112 bytes per event × 1000000000) beside the trigger set's"), text)
            XCTAssertTrue(text.hasSuffix("lower the event count (--events)"), text)
        }
        XCTAssertNoThrow(try spec.checkReplayBuffersFit(events: 1000, file: "small"))
        // The trigger set counts too: a billion triggers of 4 filters cannot fit beside anything.
        spec.triggers = 1_000_000_000
        spec.filtersPerTrigger = 4...4
        XCTAssertThrowsError(try spec.checkReplayBuffersFit(events: 1000, file: "many")) { error in
            XCTAssertTrue("\(error)".contains("1000000000 triggers need about"), "\(error)")
        }
        XCTAssertThrowsError(try spec.checkReplayBuffersFit(events: Int.max, file: "overflow"), "bytes × events overflows: refused, no trap")
    }
}

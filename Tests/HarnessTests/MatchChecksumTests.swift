import Harness
import TriggerKit
import XCTest

/// The digest every run's rows are compared by: independent of match order, sensitive to which trigger
/// matched which event, and the same whether added per match or per event.
final class MatchChecksumTests: XCTestCase {
    func digest(_ matches: [(event: Int, triggers: [Int32])]) -> MatchChecksum {
        let scratch = MatchScratch(triggerCount: 64)
        var sum = MatchChecksum()
        for (event, triggers) in matches {
            scratch.begin()
            for t in triggers { scratch.add(t) }
            sum.add(matchesOf: event, in: scratch)
        }
        return sum
    }

    func testPerEventAndPerMatchAddsAgree() {
        var one = MatchChecksum()
        for (e, t) in [(0, 3), (0, 9), (7, 3), (1_000_000, 63)] as [(Int, Int32)] { one.add(event: e, trigger: t) }
        XCTAssertEqual(digest([(0, [3, 9]), (7, [3]), (1_000_000, [63])]), one)
        XCTAssertEqual(one.matches, 4)
    }

    func testOrderDoesNotMatterButPairsDo() {
        let base = digest([(5, [1, 2, 3]), (6, [4])])
        XCTAssertEqual(digest([(6, [4]), (5, [3, 1, 2])]), base)
        XCTAssertNotEqual(digest([(5, [1, 2, 4]), (6, [4])]), base, "another trigger")
        XCTAssertNotEqual(digest([(5, [1, 2]), (6, [3, 4])]), base, "a match moved to another event")
        XCTAssertNotEqual(digest([(5, [0, 2, 3]), (6, [4])]).value, base.value, "trigger 1 replaced by 0")
        // Neighbouring triggers exchanged between two events (what an off-by-one in one strategy would do).
        XCTAssertNotEqual(digest([(5, [2, 3]), (6, [1])]).value, digest([(5, [1, 3]), (6, [2])]).value)
        XCTAssertEqual(digest([(5, [])]).value, 0, "an event without matches adds nothing")
    }
}

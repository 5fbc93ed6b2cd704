import TriggerKit
import XCTest

/// Deltas: decoding, validation (refused whole), the order they define, and delivery across one (rule 9).
final class DeltaTests: XCTestCase {
    // The delivery tests' builders (trigger, engine, event), not their tests.
    let helper = DeliveryEngineTests(name: "builders", testClosure: { _ in })

    func set(_ ids: [String]) -> TriggerSet {
        TriggerSet(triggers: ids.map { helper.trigger($0, on: "e-\($0)") }, minimumTriggerInterval: 0)
    }

    func testOrderKeepsReplacedTriggersInPlaceAndAppendsAdded() throws {
        let next = try set(["a", "b", "c"]).applying(TriggerSetDelta(
            add: [helper.trigger("d", on: "x")], remove: ["a"], replace: [helper.trigger("c", on: "y"), helper.trigger("b", on: "z")]))
        XCTAssertEqual(next.triggers.map(\.id), ["b", "c", "d"])
        XCTAssertEqual(next.triggers.map { $0.conditions[0].typeName }, ["custom_event", "custom_event", "custom_event"])
        guard case .customEvent(let name, _) = next.triggers[1].conditions[0] else { return XCTFail() }
        XCTAssertEqual(name, "y")
    }

    func testABrokenRuleRefusesTheWholeDelta() {
        let base = set(["a", "b"])
        let cases: [(TriggerSetDelta, String)] = [
            (TriggerSetDelta(add: [helper.trigger("a", on: "x")]), "add[0].id: a trigger with this id is already in the set"),
            (TriggerSetDelta(remove: ["zz"]), "remove[0]: no trigger with this id is in the set"),
            (TriggerSetDelta(replace: [helper.trigger("zz", on: "x")]), "replace[0].id: no trigger with this id"),
            (TriggerSetDelta(remove: ["a"], replace: [helper.trigger("a", on: "x")]), "replace[0].id: trigger id also named by remove[0]"),
            (TriggerSetDelta(add: [helper.trigger("n", on: "x"), helper.trigger("n", on: "y")]), "add[1].id: trigger id also named by add[0].id"),
        ]
        for (delta, expected) in cases {
            XCTAssertThrowsError(try base.applying(delta)) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "\(error)")
            }
        }
        // A writer refuses it too, and its snapshot stays the same set.
        let writer = LayeredWriter<CompiledMatcher>(base, vocabulary: Vocabulary(base))
        XCTAssertThrowsError(try writer.apply(TriggerSetDelta(add: [helper.trigger("c", on: "x")], remove: ["zz"])))
        XCTAssertEqual(writer.matcher.triggerSet.triggers.map(\.id), ["a", "b"])
    }

    func testDecoderReadsADeltaAndNamesTheFaultyField() throws {
        let text = """
            {"format": "trigger-delta/1",
             "add": [{"id": "n", "conditions": [{"type": "custom_event", "event_name": "x"}]}],
             "remove": ["a"],
             "replace": [{"id": "b", "priority": 3, "conditions": [{"type": "session_start"}]}]}
            """
        let delta = try DeltaDecoder.decode(bytes: Array(text.utf8))
        XCTAssertEqual(delta.add.map(\.id), ["n"])
        XCTAssertEqual(delta.remove, ["a"])
        XCTAssertEqual(delta.replace.first?.priority, 3)
        let bad = #"{"format": "trigger-delta/1", "replace": [{"id": "b", "conditions": [{"type": "custom_event"}]}]}"#
        XCTAssertThrowsError(try DeltaDecoder.decode(bytes: Array(bad.utf8))) { error in
            XCTAssertTrue("\(error)".contains("replace[0].conditions[0]"), "\(error)")
        }
        XCTAssertThrowsError(try DeltaDecoder.decode(bytes: Array(#"{"format": "trigger-delta/1", "remove": [3]}"#.utf8)))
        XCTAssertThrowsError(try DeltaDecoder.decode(bytes: Array(#"{"format": "trigger-corpus/1"}"#.utf8)))
    }

    func testEngineKeepsStateOfRemainingTriggersAcrossADelta() throws {
        let (e, d) = helper.engine([helper.trigger("once", on: "o", reEligibility: -1), helper.trigger("other", on: "p")], interval: 0)
        _ = e.handle(helper.event("o", at: 1))
        XCTAssertEqual(d.shown.count, 1)
        e.dismiss(at: 2)
        e.beginSync()
        try e.completeSync(with: TriggerSetDelta(add: [helper.trigger("new", on: "n")], remove: ["other"]))
        XCTAssertEqual(e.triggerSet.triggers.map(\.id), ["once", "new"])
        // "once" displayed before the delta and stays consumed after it.
        XCTAssertEqual(e.handle(helper.event("o", at: 3))?.kind, .noMatch)
        XCTAssertEqual(e.lastDisplayOfTrigger["once"], 1)
    }

    func testARemovedTriggersWaitingMessageIsDiscardedAtTheNextAsk() throws {
        let (e, d) = helper.engine([helper.trigger("late", on: "l", delay: 10), helper.trigger("keep", on: "k", delay: 10)], interval: 0)
        _ = e.handle(helper.event("l", at: 1))
        _ = e.handle(helper.event("k", at: 2))
        e.beginSync()
        try e.completeSync(with: TriggerSetDelta(remove: ["late"]))
        e.advance(to: 20)
        let late = d.records.filter { $0.triggerID == "late" }
        XCTAssertEqual(late.map(\.display), [.discarded])
        XCTAssertEqual(late.first?.reason, .triggerRemoved)
        XCTAssertEqual(d.shown.map(\.triggerID), ["keep"])
    }

    func testARefusedDeltaLeavesTheEngineSyncing() {
        let (e, _) = helper.engine([helper.trigger("a", on: "a")], interval: 0)
        e.beginSync()
        XCTAssertNil(e.handle(helper.event("a", at: 1)))
        XCTAssertThrowsError(try e.completeSync(with: TriggerSetDelta(remove: ["absent"])))
        XCTAssertEqual(e.triggerSet.triggers.map(\.id), ["a"])
        XCTAssertNil(e.handle(helper.event("a", at: 2)))
        XCTAssertEqual(e.completeSync(with: e.triggerSet).count, 2)
    }

    func testATriggerAddedBackKeepsItsNewMessagesAndAWholeSetSyncDiscardsNothing() throws {
        let (e, d) = helper.engine([helper.trigger("x", on: "x", delay: 10), helper.trigger("y", on: "y", delay: 10)], interval: 0)
        _ = e.handle(helper.event("x", at: 1))
        e.beginSync()
        try e.completeSync(with: TriggerSetDelta(remove: ["x"]))
        e.beginSync()
        try e.completeSync(with: TriggerSetDelta(add: [helper.trigger("x", on: "x", delay: 10)]))
        _ = e.handle(helper.event("y", at: 2))
        // A whole-set sync without y keeps y's waiting message, as before deltas existed.
        e.beginSync()
        e.completeSync(with: TriggerSet(triggers: [helper.trigger("x", on: "x", delay: 10)], minimumTriggerInterval: 0))
        e.advance(to: 13)
        e.dismiss(at: 14)
        // x added back: its new message is shown, though a delta removed x before.
        _ = e.handle(helper.event("x", at: 15))
        e.advance(to: 30)
        XCTAssertEqual(d.records.filter { $0.reason == .triggerRemoved }.map(\.triggerID), ["x"])
        XCTAssertEqual(d.shown.compactMap(\.triggerID), ["y", "x"])
    }
}

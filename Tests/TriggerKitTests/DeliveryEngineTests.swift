import TriggerKit
import XCTest

/// A scriptable app side: records callbacks and answers the presenter as told.
final class RecordingDelegate: DeliveryDelegate {
    var noMatchEvents: [Event] = []
    var records: [DisplayRecord] = []
    var shown: [PendingMessage] = []
    var decision: DisplayDecision = .now
    var failingTriggers: Set<String> = []

    func beforeDisplay(_ message: PendingMessage) -> DisplayDecision { decision }
    func loadAssets(of message: PendingMessage) -> Bool { !failingTriggers.contains(message.triggerID ?? "") }
    func noMatchingTrigger(for event: Event) { noMatchEvents.append(event) }
    func didRecord(_ record: DisplayRecord, message: PendingMessage) {
        records.append(record)
        if record.display == .displayed { shown.append(message) }
    }
}

final class DeliveryEngineTests: XCTestCase {
    func trigger(_ id: String, on name: String, priority: Double = 0, reEligibility: Double = 0,
                 delay: Double = 0, timeout: Double? = nil, extras: [String: String] = [:]) -> Trigger {
        Trigger(id: id, priority: priority, delay: delay, timeout: timeout, reEligibility: reEligibility,
                conditions: [.customEvent(name: name, filters: FilterCNF(clauses: []))], message: Message(extras: extras))
    }

    func engine(_ triggers: [Trigger], interval: Double = 30) -> (DeliveryEngine, RecordingDelegate) {
        let e = DeliveryEngine(triggerSet: TriggerSet(triggers: triggers, minimumTriggerInterval: interval))
        let d = RecordingDelegate()
        e.delegate = d
        return (e, d)
    }

    func event(_ name: String, at t: Double, _ props: [String: PropertyValue] = [:]) -> Event {
        Event(time: t, kind: .customEvent(name: name), properties: props)
    }

    func testNoMatchCallsTheCallbackButThrottledDoesNot() {
        let (e, d) = engine([trigger("a", on: "a")])
        XCTAssertEqual(e.handle(event("zzz", at: 1))?.kind, .noMatch)
        XCTAssertEqual(d.noMatchEvents.count, 1)
        XCTAssertEqual(e.handle(event("a", at: 2))?.kind, .triggered)
        e.dismiss(at: 3)
        XCTAssertEqual(e.handle(event("a", at: 10))?.kind, .throttled)
        XCTAssertEqual(d.noMatchEvents.count, 1, "throttled must not call the no-matching-trigger callback")
    }

    func testTieGoesToLaterTriggerInCorpusAndLosersBecomeFallbacks() {
        let (e, d) = engine([trigger("first", on: "x", priority: 2), trigger("second", on: "x", priority: 2),
                             trigger("low", on: "x", priority: 1)])
        d.failingTriggers = ["second"]
        let outcome = e.handle(event("x", at: 1))!
        XCTAssertEqual(outcome.winner, 1)
        XCTAssertEqual(d.records.map(\.display), [.discarded, .displayed])
        XCTAssertEqual(d.records.map(\.triggerID), ["second", "first"])
    }

    func testFallbackWhoseTimeoutPassedIsSkipped() {
        let (e, d) = engine([trigger("stale", on: "x", priority: 1, delay: 0, timeout: 5),
                             trigger("main", on: "x", priority: 2, delay: 10, timeout: 60)], interval: 0)
        d.failingTriggers = ["main"]
        _ = e.handle(event("x", at: 0))
        e.advance(to: 10)
        XCTAssertEqual(d.records.map(\.display), [.discarded], "stale expired at 5, so nothing else is shown")
    }

    func testDelegateReenqueueKeepsOneCopyOnTopAndDiscardDrops() {
        let (e, d) = engine([trigger("a", on: "a")], interval: 0)
        d.decision = .reenqueue
        _ = e.handle(event("a", at: 1))
        _ = e.handle(event("a", at: 2))
        XCTAssertEqual(e.stack.count, 1, "re-enqueued, never duplicated")
        XCTAssertEqual(d.records.last?.reason, .delegateReenqueue)
        d.decision = .discard
        _ = e.handle(event("a", at: 3))
        XCTAssertEqual(e.stack.count, 0)
        XCTAssertEqual(d.records.last?.reason, .delegateDiscard)
    }

    func testDisplayTimeNotTriggerTimeStartsTheClocks() {
        let (e, d) = engine([trigger("late", on: "l", delay: 100, timeout: 200), trigger("b", on: "b")], interval: 30)
        _ = e.handle(event("l", at: 0))
        XCTAssertNil(e.lastDisplayAt)
        XCTAssertEqual(e.handle(event("b", at: 80))?.kind, .triggered, "a trigger without display does not start the interval")
        e.dismiss(at: 85)
        e.advance(to: 100)
        XCTAssertEqual(d.records.last?.reason, .minimumInterval, "interval checked again at display time")
        XCTAssertEqual(e.lastDisplayOfTrigger["b"], 80)
        XCTAssertNil(e.lastDisplayOfTrigger["late"])
    }

    func testLocalMessagesSkipTriggerBookkeeping() {
        let (e, d) = engine([trigger("a", on: "a")])
        e.presentLocal(Message(extras: ["local": "yes"]), at: 5)
        XCTAssertEqual(d.shown.first?.message.extras["local"], "yes")
        XCTAssertNil(e.lastDisplayAt)
        e.dismiss(at: 6)
        XCTAssertEqual(e.handle(event("a", at: 7))?.kind, .triggered)
    }

    func testExtrasAreReachableFromTheShownMessage() {
        let (e, d) = engine([trigger("a", on: "a", extras: ["coupon": "GOLD10"])])
        _ = e.handle(event("a", at: 1))
        XCTAssertEqual(d.shown.first?.message.extras, ["coupon": "GOLD10"])
    }

    func testEventsDuringSyncAreMatchedAgainstTheNewSetOnce() {
        let (e, _) = engine([trigger("old", on: "x")], interval: 0)
        e.beginSync()
        XCTAssertNil(e.handle(event("x", at: 1)))
        XCTAssertNil(e.handle(event("y", at: 2)))
        let outcomes = e.completeSync(with: TriggerSet(triggers: [trigger("new", on: "x")], minimumTriggerInterval: 0))
        XCTAssertEqual(outcomes.map(\.kind), [.triggered, .noMatch])
        XCTAssertEqual(e.triggerSet.triggers.map(\.id), ["new"])
        XCTAssertEqual(e.lastDisplayOfTrigger.keys.sorted(), ["new"])
    }

    func testDiscardedMessageCanBeTriggeredAgain() {
        let (e, d) = engine([trigger("once", on: "o", reEligibility: -1)], interval: 0)
        d.decision = .discard
        _ = e.handle(event("o", at: 1))
        d.decision = .now
        XCTAssertEqual(e.handle(event("o", at: 2))?.kind, .triggered)
        XCTAssertEqual(d.records.last?.display, .displayed)
        e.dismiss(at: 3)
        XCTAssertEqual(e.handle(event("o", at: 4))?.kind, .noMatch, "-1 shows only once ever")
    }
}

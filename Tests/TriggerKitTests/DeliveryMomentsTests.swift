import TriggerKit
import XCTest

/// The delivery rules docs/semantics.md settles where the SDK documentation is silent: when the
/// presenter asks, what the display-time re-check does, when a timeout has passed, and what consumes
/// a show-once trigger.
final class DeliveryMomentsTests: XCTestCase {
    func trigger(_ id: String, on name: String, reEligibility: Double = 0, delay: Double = 0, timeout: Double? = nil) -> Trigger {
        Trigger(id: id, delay: delay, timeout: timeout, reEligibility: reEligibility,
                conditions: [.customEvent(name: name, filters: FilterCNF(clauses: []))], message: Message())
    }

    func engine(_ triggers: [Trigger], interval: Double = 0, displaySeconds: Double? = nil) -> (DeliveryEngine, RecordingDelegate) {
        let e = DeliveryEngine(triggerSet: TriggerSet(triggers: triggers, minimumTriggerInterval: interval),
                               configuration: .init(displaySeconds: displaySeconds))
        let d = RecordingDelegate()
        e.delegate = d
        return (e, d)
    }

    func event(_ name: String, at t: Double) -> Event { Event(time: t, kind: .customEvent(name: name)) }

    /// A message re-enqueued behind a showing one waits through a dismiss, a return to the foreground and
    /// the end of a display; it is shown at the next moment the presenter asks: a session start.
    func testPresenterAsksOnlyWhenAMessageIsDueOnSessionStartAndOnPushClick() {
        let (e, d) = engine([trigger("a", on: "a"), trigger("b", on: "b")], displaySeconds: 5)
        e.handle(event("a", at: 10))
        e.handle(event("b", at: 11))
        XCTAssertEqual(d.records.map(\.display), [.displayed, .reenqueued])
        e.dismiss(at: 12)
        e.setAppState(.background, at: 13)
        e.setAppState(.foreground, at: 14)
        e.advance(to: 30)
        XCTAssertEqual(e.stack.map(\.triggerID), ["b"], "no ask on dismiss, on foreground, or at the end of a display")
        e.handle(Event(time: 31, kind: .sessionStart))
        XCTAssertEqual(d.records.last?.display, .displayed)
        XCTAssertEqual(d.records.last?.triggerID, "b")

        let (e2, d2) = engine([trigger("a", on: "a"), trigger("b", on: "b")])
        e2.handle(event("a", at: 10))
        e2.handle(event("b", at: 11))
        e2.dismiss(at: 12)
        e2.handle(Event(time: 13, kind: .pushClick(campaignID: "c", actionID: nil)))
        XCTAssertEqual(d2.records.last.map { [$0.triggerID, $0.display.rawValue] }, ["b", "displayed"], "a push open asks")
    }

    /// A delayed message whose interval is no longer open when it comes due is discarded, not kept.
    func testAFailedDisplayTimeRecheckDiscardsTheMessage() {
        let (e, d) = engine([trigger("late", on: "late", delay: 20), trigger("now", on: "now")], interval: 30)
        e.handle(event("late", at: 100))
        e.handle(event("now", at: 110))
        e.dismiss(at: 111)
        e.advance(to: 125)
        XCTAssertEqual(d.records.map(\.triggerID), ["now", "late"])
        XCTAssertEqual(d.records.last?.display, .discarded)
        XCTAssertEqual(d.records.last?.reason, .minimumInterval)
        XCTAssertTrue(e.stack.isEmpty, "a message failing the re-check is not kept for later")
    }

    /// Due exactly at trigger time + timeout is still in time; a moment later it has passed.
    func testATimeoutHasPassedOnlyWhenNowIsAfterTriggerTimePlusTimeout() {
        let (e, d) = engine([trigger("edge", on: "edge", delay: 10, timeout: 10), trigger("past", on: "past", delay: 11, timeout: 10)])
        e.handle(event("edge", at: 100))
        e.advance(to: 110)
        XCTAssertEqual(d.records.last.map { [$0.triggerID, $0.display.rawValue] }, ["edge", "displayed"])
        e.dismiss(at: 111)
        e.handle(event("past", at: 200))
        e.advance(to: 211)
        XCTAssertEqual(d.records.last?.display, .discarded)
        XCTAssertEqual(d.records.last?.reason, .timeout)
    }

    /// A show-once trigger that fired but whose message was never displayed can fire again.
    func testShowOnceIsConsumedByADisplayNotByATrigger() {
        let (e, d) = engine([trigger("blocker", on: "blocker"), trigger("once", on: "once", reEligibility: -1)])
        e.handle(event("blocker", at: 10))
        XCTAssertEqual(e.handle(event("once", at: 11))?.kind, .triggered)
        XCTAssertEqual(d.records.last?.display, .reenqueued, "not displayed: another message is showing")
        XCTAssertEqual(e.handle(event("once", at: 12))?.kind, .triggered, "still eligible: it has not displayed")
        e.dismiss(at: 13)
        e.handle(Event(time: 14, kind: .sessionStart))
        XCTAssertEqual(d.records.last.map { [$0.triggerID, $0.display.rawValue] }, ["once", "displayed"])
        e.dismiss(at: 15)
        XCTAssertEqual(e.handle(event("once", at: 16))?.kind, .noMatch, "the display consumed it")
    }

    /// Required event fields, and array-valued properties, which are refused.
    func testRequiredFieldsAndArrayPropertiesAreRefused() {
        for line in [#"{"time":1,"type":"purchase"}"#, #"{"time":1,"type":"push_click"}"#,
                     #"{"time":1,"type":"custom_event"}"#, #"{"type":"session_start"}"#,
                     #"{"time":1,"type":"custom_event","name":"x","properties":{"a":[1,2]}}"#,
                     #"{"time":1,"type":"push_click","action_id":"yes","payload":{"aps":{},"campaign_id":"c"}}"#,
                     "{\"time\":1,\"type\":\"push_click\",\"campaign_id\":\"\(String(repeating: "c", count: 256))\"}",
                     "{\"time\":1,\"type\":\"push_click\",\"campaign_id\":\"c\",\"action_id\":\"\(String(repeating: "a", count: 256))\"}"] {
            XCTAssertThrowsError(try EventDecoder.decode(line: Array(line.utf8)), line)
        }
        XCTAssertNoThrow(try EventDecoder.decode(line: Array(#"{"time":1,"type":"push_click","campaign_id":"c"}"#.utf8)))
    }
}

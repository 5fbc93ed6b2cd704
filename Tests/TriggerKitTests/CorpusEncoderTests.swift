import TriggerKit
import XCTest

/// A trigger set written back as JSON (what a plugin is handed after a delta) reads as the same set.
final class CorpusEncoderTests: XCTestCase {
    /// `set` written as JSON and read back, asserting that writing it again gives the same text and
    /// that it holds the same triggers.
    static func writtenBack(_ set: TriggerSet, _ what: String) throws -> TriggerSet {
        let bytes = CorpusEncoder.encode(set)
        let again = try CorpusDecoder.decode(bytes: bytes)
        XCTAssertEqual(CorpusEncoder.encode(again), bytes, what)
        XCTAssertEqual(again.triggers.map(\.id), set.triggers.map(\.id), what)
        return again
    }

    func testEveryFieldAndNumberKindSurvives() throws {
        let text = #"""
        {"format": "trigger-corpus/1",
         "settings": {"minimum_trigger_interval": 12.5, "action_categories": [{"id": "c", "buttons": [{"id": "b", "title": "B é"}]}]},
         "triggers": [{"id": "t", "priority": 3.25, "start_time": "2026-11-22T10:00:00Z", "end_time": 1900000000.5, "delay": 2,
                       "timeout": 9, "re_eligibility": -1, "min_seconds_since_last_trigger": 4,
                       "conditions": [{"type": "custom_event", "event_name": "e", "filters": [[
                           {"property": "n", "type": "number", "op": "eq", "value": 3.0},
                           {"property": "n", "type": "number", "op": "in", "value": [-0.0, 9007199254740993, 1e300]},
                           {"property": "s", "type": "string", "op": "regex", "value": "^a\\d+$"},
                           {"property": "s", "type": "string", "op": "not_in", "value": ["x", "cafe\u0301"]},
                           {"property": "b", "type": "boolean", "op": "ne", "value": false},
                           {"property": "d", "type": "date", "op": "before", "value": {"$date": "2026-01-01T00:00:00Z"}},
                           {"property": "d", "type": "date", "op": "more_than_seconds_ago", "value": 60},
                           {"property": "m", "type": "string", "op": "not_exists"}]]},
                                      {"type": "purchase", "product_id": null},
                                      {"type": "session_start"},
                                      {"type": "push_click", "campaign_id": "c1", "action_id": "b"}],
                       "message": {"type": "slideup", "orientation": "portrait", "assets": ["u"], "extras": {"k": "v", "a": "b"}}}]}
        """#
        let set = try CorpusDecoder.decode(bytes: Array(text.utf8))
        let again = try Self.writtenBack(set, "hand-written")
        let t = again.triggers[0], original = set.triggers[0]
        XCTAssertEqual(again.minimumTriggerInterval, 12.5)
        XCTAssertEqual(again.actionCategories, set.actionCategories)
        XCTAssertEqual([t.priority, t.startTime, t.endTime, t.delay, t.timeout, t.reEligibility, t.minSecondsSinceLastTrigger],
                       [original.priority, original.startTime, original.endTime, original.delay, original.timeout, original.reEligibility, original.minSecondsSinceLastTrigger])
        XCTAssertEqual(t.message, original.message)
        let written = String(decoding: CorpusEncoder.encode(set), as: UTF8.self)
        for kept in [#""value":3.0"#, #"[-0.0,9007199254740993,1e+300]"#, #""value":"^a\\d+$""#, #""product_id":null"#, #""action_id":"b""#] {
            XCTAssertTrue(written.contains(kept), "\(kept) in \(written)")
        }
    }
}

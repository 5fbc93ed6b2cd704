import TriggerKit
import XCTest

final class EventDecoderTests: XCTestCase {
    func decode(_ s: String) throws -> Event { try EventDecoder.decode(line: Array(s.utf8)) }

    func testNestedObjectsFlattenToDotPathsAndDatesAreTyped() throws {
        let e = try decode(#"{"time":1,"type":"custom_event","name":"n","properties":{"a":{"b":1,"c":{"d":"x"}},"t":"2026-11-22T10:00:00Z","u":{"$date":5},"v":null}}"#)
        XCTAssertEqual(e.properties["a.b"], .int(1))
        XCTAssertEqual(e.properties["a.c.d"], .string("x"))
        XCTAssertEqual(e.properties["t"], .date(1_795_341_600))
        XCTAssertEqual(e.properties["u"], .date(5))
        XCTAssertEqual(e.properties["v"], .null)
    }

    func testThreeEqualsThreePointZero() {
        XCTAssertEqual(PropertyValue.int(3), PropertyValue.double(3.0))
        XCTAssertEqual(NumberComparison.compare(.int(Int64.max), .double(9_223_372_036_854_775_807.0)), -1)
        XCTAssertEqual(NumberComparison.compare(.int(-3), .double(-2.5)), -1)
        XCTAssertEqual(NumberComparison.compare(.int(2), .double(2.5)), -1)
    }

    func testCollidingFlattenedKeysAreRefused() {
        XCTAssertThrowsError(try decode(#"{"time":1,"type":"custom_event","name":"n","properties":{"a":{"b":1},"a.b":2}}"#))
    }

    func testPushPayloadsDecodeIntoPushClicks() throws {
        let apns = try decode(#"{"time":1,"type":"push_click","payload":{"aps":{"alert":"hi","category":"ab_cat_yes_no"},"campaign_id":"c1","action_id":"yes","extras":{"k":"v"}}}"#)
        XCTAssertEqual(apns.kind, .pushClick(campaignID: "c1", actionID: "yes"))
        XCTAssertEqual(apns.properties["k"], .string("v"))
        let wt = try decode(#"{"time":1,"type":"push_click","payload":{"RW_push_payload_WP":"{\"RW_push_payload_TT\":\"T\",\"RW_push_payload_BD\":\"B\"}"}}"#)
        XCTAssertEqual(wt.properties["title"], .string("T"))
        XCTAssertThrowsError(try decode(#"{"time":1,"type":"push_click","payload":{"RW_push_payload_WP":{"RW_push_payload_BD":"B"}}}"#)) {
            XCTAssertTrue("\($0)".contains("RW_push_payload_TT"), "\($0)")
        }
        XCTAssertThrowsError(try decode(#"{"time":1,"type":"push_click","payload":{"RW_push_payload_WP":"{not json"}}"#))
    }
}

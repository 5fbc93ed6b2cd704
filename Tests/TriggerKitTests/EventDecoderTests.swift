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

    /// Found by an outside reading: a push whose extras hold a `category` was refused as a duplicate.
    func testExtrasCategoryIsThePropertyBesideAnApsCategory() throws {
        let e = try decode(#"{"time":1,"type":"push_click","payload":{"aps":{"category":"promo_v2"},"campaign_id":"c1","extras":{"category":"shoes"}}}"#)
        XCTAssertEqual(e.properties["category"], .string("shoes"))
        let plain = try decode(#"{"time":1,"type":"push_click","payload":{"aps":{"category":"promo_v2"},"campaign_id":"c1"}}"#)
        XCTAssertEqual(plain.properties["category"], .string("promo_v2"))
    }

    func testThreeEqualsThreePointZero() {
        XCTAssertEqual(PropertyValue.int(3), PropertyValue.double(3.0))
        XCTAssertEqual(NumberComparison.compare(.int(Int64.max), .double(9_223_372_036_854_775_807.0)), -1)
        XCTAssertEqual(NumberComparison.compare(.int(-3), .double(-2.5)), -1)
        XCTAssertEqual(NumberComparison.compare(.int(2), .double(2.5)), -1)
    }

    func testCollidingFlattenedKeysAreRefused() {
        XCTAssertThrowsError(try decode(#"{"time":1,"type":"custom_event","name":"n","properties":{"a":{"b":1},"a.b":2}}"#)) { error in
            XCTAssertTrue("\(error)".hasSuffix("(once nested, once with a dot in its name)"), "\(error)")
        }
        // The same name spelled two canonically equivalent ways, nested and dotted: one name, and the reason says so.
        XCTAssertThrowsError(try decode(#"{"time":1,"type":"custom_event","name":"n","properties":{"x":{"\u00e9":1},"x.e\u0301":2}}"#)) { error in
            XCTAssertTrue("\(error)".hasSuffix("(once nested, once with a dot in its name, in two canonically equivalent spellings)"), "\(error)")
        }
        // At one level, or in a member no one reads, the pair is a duplicate name whatever the object's size.
        for line in [#"{"time":1,"type":"custom_event","name":"n","properties":{"caf\u00e9":1,"cafe\u0301":2}}"#,
                     #"{"time":1,"type":"custom_event","name":"n","properties":{},"meta":{"x":{"\u00e9":1,"e\u0301":1}}}"#] {
            XCTAssertThrowsError(try decode(line)) { XCTAssertTrue("\($0)".contains("duplicate member name"), "\($0)") }
        }
    }

    /// Times and dates are refused beyond ±2^53 seconds, where a double stops holding every whole
    /// second (2^53 + 1 would read as 2^53 and match a window it is outside of).
    func testTimesAndDatesBeyondTwoToThe53AreRefused() throws {
        XCTAssertEqual(try decode(#"{"time":9007199254740992,"type":"session_start"}"#).time, 9007199254740992)
        XCTAssertEqual(try decode(#"{"time":-9007199254740991.0,"type":"session_start"}"#).time, -9007199254740991)
        for bad in [#"{"time":9007199254740993.0,"type":"session_start"}"#, #"{"time":9007199254740992.5,"type":"session_start"}"#,
                    #"{"time":-9007199254740992.0,"type":"session_start"}"#,#"{"time":9007199254740993,"type":"session_start"}"#, #"{"time":-9007199254740993,"type":"session_start"}"#,
                    #"{"time":1e300,"type":"session_start"}"#,
                    #"{"time":1,"type":"custom_event","name":"n","properties":{"d":{"$date":9007199254740993}}}"#] {
            XCTAssertThrowsError(try decode(bad), bad) { error in
                XCTAssertTrue("\(error)".contains("more than 2^53 seconds from 1970"), "\(error)")
            }
        }
        let corpus = #"{"format":"trigger-corpus/1","triggers":[{"id":"t","start_time":9007199254740993,"conditions":[{"type":"session_start"}]}]}"#
        XCTAssertThrowsError(try CorpusDecoder.decode(bytes: Array(corpus.utf8))) { error in
            XCTAssertTrue("\(error)".contains("triggers[0].start_time"), "\(error)")
        }
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

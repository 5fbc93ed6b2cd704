import TriggerKit
import XCTest

final class ActionCategoryTests: XCTestCase {
    func decode(_ payload: String, _ categories: ActionCategories = .standard) throws -> PushPayloadDecoder.Decoded {
        try PushPayloadDecoder.decode(JSONValue.parse(payload), categories: categories)
    }

    func testTheFourDefaultCategoriesAndTheirButtons() {
        let c = ActionCategories.standard
        XCTAssertEqual(c.categories.map(\.id), ["ab_cat_accept_decline", "ab_cat_yes_no", "ab_cat_confirm_cancel", "ab_cat_more"])
        XCTAssertEqual(c.category("ab_cat_accept_decline")?.buttons.map(\.title), ["Accept", "Decline"])
        XCTAssertEqual(c.category("ab_cat_yes_no")?.buttons.map(\.title), ["Yes", "No"])
        XCTAssertEqual(c.category("ab_cat_confirm_cancel")?.buttons.map(\.title), ["Confirm", "Cancel"])
        XCTAssertEqual(c.category("ab_cat_more")?.buttons.map(\.title), ["More"])
    }

    func testATapOnAButtonYieldsItsActionID() {
        XCTAssertEqual(ActionCategories.standard.actionID(tapping: 1, of: "ab_cat_yes_no"), "no")
        XCTAssertNil(ActionCategories.standard.actionID(tapping: 2, of: "ab_cat_yes_no"))
        XCTAssertNil(ActionCategories.standard.actionID(tapping: 0, of: "nope"))
    }

    func testCustomCategoriesRegisterOnceWithDistinctButtons() throws {
        var c = ActionCategories.standard
        try c.register(ActionCategory(id: "rsvp", buttons: [.init(id: "going", title: "Going"), .init(id: "maybe", title: "Maybe")]))
        XCTAssertEqual(c.actionID(tapping: 0, of: "rsvp"), "going")
        XCTAssertThrowsError(try c.register(ActionCategory(id: "rsvp", buttons: [.init(id: "x", title: "X")])))
        XCTAssertThrowsError(try c.register(ActionCategory(id: "ab_cat_more", buttons: [.init(id: "x", title: "X")])))
        XCTAssertThrowsError(try c.register(ActionCategory(id: "twice", buttons: [.init(id: "x", title: "X"), .init(id: "x", title: "Y")])))
        XCTAssertThrowsError(try c.register(ActionCategory(id: "empty", buttons: [])))
    }

    func testAPNsTapOnADefaultButtonCarriesItsActionAndCategory() throws {
        let d = try decode(#"{"aps":{"category":"ab_cat_confirm_cancel"},"campaign_id":"c","action_id":"cancel","extras":{"k":"v"}}"#)
        XCTAssertEqual(d.actionID, "cancel")
        XCTAssertEqual(d.campaignID, "c")
        XCTAssertEqual(d.properties["category"], .string("ab_cat_confirm_cancel"))
        XCTAssertEqual(d.properties["k"], .string("v"))
    }

    func testButtonOutsideItsCategoryIsRefused() {
        XCTAssertThrowsError(try decode(#"{"aps":{"category":"ab_cat_yes_no"},"action_id":"accept"}"#)) {
            XCTAssertTrue("\($0)".contains(#"action id "accept" is not a button of category "ab_cat_yes_no""#), "\($0)")
        }
    }

    func testUnknownCategoryIsAPushOpenWithAWarning() throws {
        let d = try decode(#"{"aps":{"category":"rsvp"},"campaign_id":"c","action_id":"going"}"#)
        XCTAssertEqual(d.campaignID, "c")
        XCTAssertEqual(d.actionID, "going")
        XCTAssertEqual(d.properties["category"], .string("rsvp"), "the category stays on the event")
        XCTAssertEqual(d.warning?.hasPrefix(#"unknown action-button category "rsvp": the push open counts"#), true, "\(d)")
        var c = ActionCategories.standard
        try c.register(ActionCategory(id: "rsvp", buttons: [.init(id: "going", title: "Going")]))
        XCTAssertEqual(try decode(#"{"aps":{"category":"rsvp"},"action_id":"going"}"#, c).actionID, "going")
        XCTAssertNil(try decode(#"{"aps":{"category":"rsvp"},"action_id":"going"}"#, c).warning)
        XCTAssertThrowsError(try decode(#"{"aps":{"category":"rsvp"},"action_id":"maybe"}"#, c), "a registered category still checks its buttons")
    }

    func testAButtonWithoutACategoryIsAPushOpenWithAWarning() throws {
        let d = try decode(#"{"aps":{},"campaign_id":"c","action_id":"accept"}"#)
        XCTAssertEqual(d.actionID, "accept")
        XCTAssertNil(d.properties["category"])
        XCTAssertEqual(d.warning, #"action id "accept" comes with no aps.category: the push open counts with its action id"#)
        XCTAssertNil(try decode(#"{"aps":{},"campaign_id":"c"}"#).warning, "a plain tap without a category is ordinary")
    }

    func testMalformedPayloadsStayInvalid() {
        for payload in [#"{"aps":{"category":""},"action_id":"a"}"#, #"{"aps":{"category":7}}"#, #"{"aps":[]}"#,
                        #"{"aps":{},"action_id":""}"#, "{\"aps\":{},\"action_id\":\"\(String(repeating: "a", count: 256))\"}"] {
            XCTAssertThrowsError(try decode(payload), payload) { XCTAssertTrue($0 is InputError, "\($0)") }
        }
    }

    func testCorpusRegistersCustomCategories() throws {
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","settings":{"action_categories":[{"id":"rsvp","buttons":[{"id":"going","title":"Going"}]}]},"triggers":[]}"#.utf8))
        XCTAssertEqual(set.actionCategories.actionID(tapping: 0, of: "rsvp"), "going")
        XCTAssertThrowsError(try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","settings":{"action_categories":[{"id":"rsvp","buttons":[]}]},"triggers":[]}"#.utf8))) {
            XCTAssertTrue("\($0)".contains("settings.action_categories[0]"), "\($0)")
        }
    }
}

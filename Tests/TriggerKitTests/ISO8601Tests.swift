import TriggerKit
import XCTest

final class ISO8601Tests: XCTestCase {
    func testStrictFormsParseToEpochSeconds() {
        XCTAssertEqual(ISO8601.parse("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(ISO8601.parse("2026-11-22T10:00:00Z"), 1_795_341_600)
        XCTAssertEqual(ISO8601.parse("2026-11-22T12:00:00+02:00"), 1_795_341_600)
        XCTAssertEqual(ISO8601.parse("2026-11-22T10:00:00.250Z"), 1_795_341_600.25)
        XCTAssertEqual(ISO8601.parse("2024-02-29T00:00:00Z"), 1_709_164_800)
    }

    func testNonStrictFormsAreNotDates() {
        for s in ["2026-11-22", "2026-11-22 10:00:00Z", "2026-11-22T10:00:00", "2026-13-01T00:00:00Z",
                  "2025-02-29T00:00:00Z", "2026-11-22T10:00:00.Z", "2026-11-22T10:00:00+0200", "x2026-11-22T10:00:00Z"] {
            XCTAssertNil(ISO8601.parse(s), s)
        }
    }

    /// A fraction is rounded once, with the seconds: the same double `{"$date": …}` gives for the
    /// decimal, before 1970 too (digit-by-digit sums drift at the last bit).
    func testFractionsGiveTheDoubleNearestTheInstant() {
        XCTAssertEqual(ISO8601.parse("1970-01-01T00:00:00.123456789Z"), 0.123456789)
        XCTAssertEqual(ISO8601.parse("1970-01-01T00:00:00.3Z"), 0.3)
        XCTAssertEqual(ISO8601.parse("1969-12-31T23:59:59.75Z"), -0.25)
        XCTAssertEqual(ISO8601.parse("1969-12-31T23:59:59.000Z"), -1)
        XCTAssertEqual(ISO8601.parse("1969-12-31T23:59:58.0100Z"), -1.99)
        XCTAssertEqual(ISO8601.parse("2025-11-24T16:00:00.1Z"), 1764000000.1)
    }
}

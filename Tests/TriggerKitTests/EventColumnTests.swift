import TriggerKit
import XCTest

/// The replay buffers keep value semantics although their columns hand out stable pointers.
final class EventColumnTests: XCTestCase {
    func testACopyIsUnchangedByAppendsToTheOriginalAndItsViewStaysValid() {
        var column = EventColumn<Int32>()
        for i in 0..<1000 { column.append(Int32(i)) }
        let copy = column
        let before = copy.buffer
        column.append(-1)
        XCTAssertEqual(copy.count, 1000)
        XCTAssertEqual(column.count, 1001)
        XCTAssertEqual(before.baseAddress, copy.buffer.baseAddress, "the copy kept its memory")
        XCTAssertEqual(Array(copy.buffer), Array(0..<1000).map(Int32.init))
        XCTAssertEqual(column[1000], -1)
    }

    func testEventsRoundTripThroughTheView() {
        let set = TriggerSet(triggers: [])
        var columns = EventColumns(vocabulary: Vocabulary(set))
        let events = [
            Event(time: 1, kind: .customEvent(name: "a"), properties: ["x": .int(3), "s": .string("t")]),
            Event(time: 2, kind: .pushClick(campaignID: "c", actionID: nil), properties: [:]),
            Event(time: 3, kind: .purchase(productID: "p"), properties: ["d": .date(5), "n": .null, "b": .bool(true)]),
        ]
        for e in events { columns.append(e) }
        let snapshot = columns
        columns.append(Event(time: 4, kind: .sessionStart, properties: [:]))
        XCTAssertEqual(snapshot.count, 3)
        XCTAssertEqual(columns.count, 4)
        for (i, e) in events.enumerated() {
            let back = snapshot.event(at: i)
            XCTAssertEqual(back.time, e.time)
            XCTAssertEqual(back.properties, e.properties)
            XCTAssertEqual("\(back.kind)", "\(e.kind)")
        }
    }
}

import Foundation
import Synchronization
import TriggerKit
import XCTest

/// Readers on explicit threads match through the snapshots a delta writer publishes while it applies
/// deltas (`.ci/run` runs this under ThreadSanitizer): every event must be matched against exactly one
/// state of the set, and old snapshots must be freed.
final class DeltaPublishingTests: XCTestCase {
    func testReadersMatchEveryEventAgainstOneDeltaState() throws {
        let triggers = (0..<40).map {
            #"{"id":"a\#($0)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"n","type":"number","op":"lt","value":\#($0)}]]}]}"#
        }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        for n in 0..<64 { columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: ["n": .int(Int64(n))])) }
        // Odd states flip the first ten triggers' comparison (and add one on a new name); even states are the set itself.
        let flipped = (0..<10).map { k -> Trigger in
            var t = set.triggers[k]
            guard case .customEvent(let name, let filters) = t.conditions[0] else { fatalError() }
            var filter = filters.clauses[0][0]
            filter.op = .gte
            t.conditions = [.customEvent(name: name, filters: FilterCNF(clauses: [[filter]]))]
            return t
        }
        let extra = Trigger(id: "x", conditions: [.customEvent(name: "new-name", filters: FilterCNF(clauses: []))])
        let forward = TriggerSetDelta(add: [extra], replace: flipped)
        let back = TriggerSetDelta(remove: ["x"], replace: Array(set.triggers[0..<10]))
        let states = [set, try set.applying(forward)]
        let expected: [[[Int]]] = states.map { state in
            let oracle = ReferenceMatcher(state)
            return columns.withView { view in (0..<view.count).map { oracle.match(view.event(at: $0)) } }
        }
        XCTAssertNotEqual(expected[0], expected[1])

        let writer = LayeredWriter<CompiledMatcher>(set, vocabulary: vocabulary, symbols: columns.symbols)
        let publisher = SnapshotPublisher(writer.matcher)
        let failures = Atomic<Int>(0), remade = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let finished = DispatchGroup()
        let events = columns
        for _ in 0..<2 {
            finished.enter()
            Thread {
                var reader = publisher.makeReader()
                var owner = reader.current().matcher
                var scratch = owner.makeScratch(for: events)
                var i = 0
                // Relaxed: a stop flag and counters only.
                while !stop.load(ordering: .relaxed) {
                    let snapshot = reader.current()
                    if !snapshot.matcher.canReuseScratch(of: owner) {
                        owner = snapshot.matcher
                        scratch = owner.makeScratch(for: events)
                        remade.wrappingAdd(1, ordering: .relaxed)
                    }
                    let event = i % 64
                    events.withView { snapshot.matcher.match(event, in: $0, scratch: scratch) }
                    if scratch.sortedResults != expected[snapshot.version & 1][event] { failures.wrappingAdd(1, ordering: .relaxed) }
                    i += 1
                }
                finished.leave()
            }.start()
        }
        var weakSnapshots: [WeakSnapshot] = []
        let publications = 4_000
        for v in 1...publications {
            publisher.publish(try writer.apply(v & 1 == 1 ? forward : back))
            if v % 100 == 0 { weakSnapshots.append(WeakSnapshot(publisher.load())) }
        }
        stop.store(true, ordering: .relaxed)
        finished.wait()
        XCTAssertEqual(failures.load(ordering: .relaxed), 0, "some event was matched against a mix of two states")
        XCTAssertEqual(writer.rebuilds, 0)
        XCTAssertEqual(remade.load(ordering: .relaxed), 0, "snapshots of one base must share their readers' scratches")
        let alive = weakSnapshots.filter { $0.snapshot != nil }.count
        XCTAssertLessThanOrEqual(alive, 1, "\(alive) old snapshots still alive after \(publications) deltas")
    }
}

import Foundation
import Synchronization
import TriggerKit
import XCTest

/// Concurrency tests with explicit `Thread`s (ThreadSanitizer misses races inside concurrentPerform).
/// Run them under `swift test --sanitize=thread` (`.ci/run` does).
final class SnapshotPublisherTests: XCTestCase {
    /// Two trigger sets that disagree on every event: "a*" triggers match in even versions, "b*" in odd.
    func makeSets() throws -> (TriggerSet, TriggerSet) {
        func set(_ prefix: String, _ op: String) throws -> TriggerSet {
            let triggers = (0..<40).map {
                #"{"id":"\#(prefix)\#($0)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"n","type":"number","op":"\#(op)","value":\#($0)}]]}]}"#
            }
            return try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        }
        return (try set("a", "lt"), try set("b", "gte"))
    }

    func testEveryEventIsMatchedAgainstExactlyOnePublishedVersion() throws {
        let (setA, setB) = try makeSets()
        let vocabularyA = Vocabulary(setA), vocabularyB = Vocabulary(setB)
        let matchers: [any Matcher] = [CompiledMatcher(setA, vocabulary: vocabularyA), CompiledMatcher(setB, vocabulary: vocabularyB)]
        let publisher = SnapshotPublisher(matchers[0])
        // Events carry only the property "n", interned identically by both vocabularies' columns.
        var columnsA = EventColumns(vocabulary: vocabularyA), columnsB = EventColumns(vocabulary: vocabularyB)
        for n in 0..<64 {
            let e = Event(time: 1, kind: .customEvent(name: "e"), properties: ["n": .int(Int64(n))])
            columnsA.append(e)
            columnsB.append(e)
        }
        let expected: [[[Int]]] = [0, 1].map { v in
            let m = matchers[v]
            let cols = v == 0 ? columnsA : columnsB
            let scratch = m.makeScratch(for: cols)
            return cols.withView { view in (0..<view.count).map { m.match($0, in: view, scratch: scratch); return scratch.sortedResults } }
        }
        let failures = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let finished = DispatchGroup()
        let columns = [columnsA, columnsB]
        for _ in 0..<2 {
            finished.enter()
            Thread {
                var reader = publisher.makeReader()
                let scratches = [matchers[0].makeScratch(for: columns[0]), matchers[1].makeScratch(for: columns[1])]
                var i = 0
                // Relaxed: a stop flag only.
                while !stop.load(ordering: .relaxed) {
                    let snapshot = reader.current()
                    let parity = snapshot.version & 1
                    let event = i % 64
                    columns[parity].withView { snapshot.matcher.match(event, in: $0, scratch: scratches[parity]) }
                    if scratches[parity].sortedResults != expected[parity][event] {
                        failures.wrappingAdd(1, ordering: .relaxed)
                    }
                    i += 1
                }
                finished.leave()
            }.start()
        }
        var weakSnapshots: [WeakSnapshot] = []
        for v in 1...100_000 {
            publisher.publish(matchers[v & 1])
            if v % 1000 == 0 { weakSnapshots.append(WeakSnapshot(publisher.load())) }
        }
        stop.store(true, ordering: .relaxed)
        finished.wait()
        XCTAssertEqual(failures.load(ordering: .relaxed), 0, "some event mixed two versions")
        XCTAssertEqual(publisher.publishedVersion, 100_000)
        // Every replaced snapshot is freed once no reader holds it: only the current one may live.
        let alive = weakSnapshots.filter { $0.snapshot != nil }.count
        XCTAssertLessThanOrEqual(alive, 1, "\(alive) old snapshots still alive after 100,000 publications")
    }

    func testReadersSeeANewSetFromTheirNextEvent() throws {
        let (setA, setB) = try makeSets()
        let publisher = SnapshotPublisher(CompiledMatcher(setA, vocabulary: Vocabulary(setA)))
        var reader = publisher.makeReader()
        XCTAssertEqual(reader.current().version, 0)
        publisher.publish(CompiledMatcher(setB, vocabulary: Vocabulary(setB)))
        XCTAssertEqual(reader.current().version, 1)
        XCTAssertEqual(reader.current().matcher.triggerSet.triggers.first?.id, "b0")
    }

    func testMutexPublisherPublishesInOrder() throws {
        let (setA, _) = try makeSets()
        let m = CompiledMatcher(setA, vocabulary: Vocabulary(setA))
        let publisher = MutexPublisher(m)
        for _ in 0..<10 { publisher.publish(m) }
        XCTAssertEqual(publisher.load().version, 10)
    }

    func testReadersNoticeAPublicationBeforeTheirNextEvent() throws {
        let (setA, setB) = try makeSets()
        let a = CompiledMatcher(setA, vocabulary: Vocabulary(setA)), b = CompiledMatcher(setB, vocabulary: Vocabulary(setB))
        let lockFree = SnapshotPublisher(a)
        var reader = lockFree.makeReader()
        XCTAssertEqual(reader.current().version, 0)
        XCTAssertTrue(reader.isCurrent())
        lockFree.publish(b)
        XCTAssertFalse(reader.isCurrent())
        XCTAssertEqual(reader.current().version, 1)
        XCTAssertTrue(reader.isCurrent())

        let mutex = MutexPublisher(a)
        var mutexReader = mutex.makeReader()
        XCTAssertTrue(mutexReader.isCurrent())
        mutex.publish(b)
        XCTAssertFalse(mutexReader.isCurrent())
        XCTAssertEqual(mutexReader.current().version, 1)
        XCTAssertTrue(mutexReader.isCurrent())
    }
}

final class WeakSnapshot {
    weak var snapshot: MatcherSnapshot?
    init(_ s: MatcherSnapshot) { snapshot = s }
}

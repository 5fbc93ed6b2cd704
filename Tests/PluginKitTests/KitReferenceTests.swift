import Foundation
import TriggerBenchPluginKit
import XCTest

// README begins
/// Every name of the kit with its type (`name as Type`), in the order a matcher meets them.
func kitReference(_ corpus: Corpus, _ events: Events, _ e: Int, _ matches: inout Matches) {
    // The corpus: valid for the matcher's life.
    _ = (corpus.triggerCount, corpus.conditionCount, corpus.clauseCount, corpus.filterCount) as (Int, Int, Int, Int)
    _ = (corpus.numberCount, corpus.stringIDCount, corpus.regexCount) as (Int, Int, Int)
    _ = corpus.option("key") as String?                      // --plugin PATH,key=value (the last one given)
    _ = corpus.options as [(key: String, value: String)]
    _ = corpus.json as UnsafeBufferPointer<UInt8>            // the corpus as trigger-corpus/1 JSON
    _ = (corpus.vocabulary[0], corpus.vocabulary.count) as (String, Int)  // a string id's text
    let trigger = corpus.trigger(0) as Trigger
    _ = (trigger.id, trigger.startTime, trigger.endTime) as (String, Double?, Double?)
    _ = trigger.windowContains(events.time(e)) as Bool
    let condition = corpus.condition(trigger.conditions.lowerBound) as Condition  // conditions: Range<Int>, any may hold
    _ = [.custom, .purchase, .sessionStart, .pushClick] as [EventKind]
    _ = condition.kind as EventKind
    _ = condition.key as Int32?                              // event name, product or campaign id; nil: any
    _ = condition.action as Int32?                           // a push button's id; nil: any
    let filters = corpus.clause(condition.clauses.lowerBound) as Range<Int>  // clauses: all must hold; filters: any
    let filter = corpus.filter(filters.lowerBound) as Filter
    _ = filter.key as Int32                                  // the property's key id
    _ = [.number, .string, .boolean, .date] as [PropertyType]
    _ = filter.type as PropertyType
    _ = [.eq, .ne, .gt, .gte, .lt, .lte, .in, .notIn, .exists, .notExists, .regex, .notRegex, .before, .after,
         .lessThanSecondsAgo, .moreThanSecondsAgo, .inLessThanSeconds, .inMoreThanSeconds] as [FilterOperator]
    _ = filter.op.holdsOnMissing as Bool                     // ne, not_in, not_regex, not_exists
    switch filter.operand as Operand {
    case .none: break                                        // exists, not_exists
    case .number(let n): _ = n as Number                     // .int(Int64) or .double(Double)
    case .numbers(let list): _ = list.map(corpus.number) as [Number]
    case .string(let id): _ = id as Int32                    // a string id: equal strings, equal ids
    case .strings(let list): _ = list.map(corpus.stringID) as [Int32]
    case .bool(let b): _ = b as Bool
    case .seconds(let s): _ = s as Double                    // epoch seconds, or a duration for the relative operators
    case .regex(let r): _ = (corpus.regexPattern(r), corpus.regex(r, matches: events.string(0))) as (String, Bool)
    }
    // The events: valid during one call.
    _ = (events.count, events.kind(e), events.key(e), events.action(e), events.time(e)) as (Int, EventKind, Int32?, Int32?, Double)
    _ = events.corpusStringCount as Int32                   // ids from here on equal no corpus constant
    let properties = events.properties(e) as Properties     // sorted by key id, keys unique
    for (key, value) in properties { _ = (key, value) as (Int32, Value) }
    switch properties[key: filter.key] as Value? {          // binary search
    case .int(let i)?: _ = i as Int64
    case .double(let d)?: _ = d as Double
    case .string(let id)?: _ = events.string(id) as UnsafeBufferPointer<UInt8>  // UTF-8
    case .bool(let b)?: _ = b as Bool
    case .date(let t)?: _ = t as Double                     // epoch seconds
    case .null?, nil: break                                 // null, or no such property
    }
    _ = Value.int(3).number as Number?                      // nil unless .int or .double
    _ = Number.int(1).compare(.double(1.5)) as Int          // -1, 0, 1 by exact value
    // The answer.
    matches.append(0)                                       // each matching trigger index once
    matches.candidates += 1                                 // conditions evaluated: the cand/ev column
    _ = (matches.count, matches.overflowed) as (Int, Bool)
}
// README ends

/// docs/plugins.md's kit reference is this file's code: it compiles here, and the doc shows it as is.
final class KitReferenceTests: XCTestCase {
    func testTheDocumentedKitReferenceCompilesAndIsWhatPluginsMdShows() throws {
        let here = URL(fileURLWithPath: #filePath)
        let doc = try String(contentsOf: here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/plugins.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let section = try XCTUnwrap(doc.components(separatedBy: "### Kit reference").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let tested = try XCTUnwrap(source.components(separatedBy: "// README " + "begins\n").dropFirst().first?
            .components(separatedBy: "// README " + "ends").first)
        XCTAssertEqual(block, tested, "docs/plugins.md's kit reference and Tests/PluginKitTests differ: copy one to the other")
    }
}

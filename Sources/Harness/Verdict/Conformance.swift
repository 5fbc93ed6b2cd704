import Foundation
import Workload
import TriggerKit

/// Checks a matcher against the conformance cases (`Corpora/conformance/<case>`: corpus.json,
/// events.jsonl, expected.jsonl): for every event line, the set of triggers it matches must equal the
/// `matched` list of the expected replay line. This is how a port of the matching rules is checked.
package enum Conformance {
    /// One event on which the matcher and the expected output disagree.
    package struct Disagreement: Sendable {
        /// 1-based line of events.jsonl.
        package var line: Int
        package var expected: [String]
        package var got: [String]
        /// The plugin entry point that answered (`match` or `match_batch`).
        package var entry = "match"

        package var description: String {
            let missing = expected.filter { !got.contains($0) }, extra = got.filter { !expected.contains($0) }
            var text = "line \(line)\(entry == "match" ? "" : " (\(entry))"): expected [\(expected.joined(separator: ", "))], got [\(got.joined(separator: ", "))]"
            if !missing.isEmpty { text += "; missing \(missing.joined(separator: ", "))" }
            if !extra.isEmpty { text += "; extra \(extra.joined(separator: ", "))" }
            return PrintableText.escaped(text)
        }
    }

    package struct CaseResult: Sendable {
        package var name: String
        package var events = 0
        /// One per event and entry point that answered wrongly (`match`, then `match_batch`).
        package var disagreements: [Disagreement] = []
        /// Events at least one entry point answered wrongly.
        package var disagreeingEvents: Int { Set(disagreements.map(\.line)).count }
        /// Trigger indices outside the corpus (or bad counts) the matcher returned.
        package var invalidResults = 0
        /// A plugin's reason for refusing the case's corpus in `create` (a partial port); nothing was matched.
        package var refused: String?
    }

    /// The default case folder: the current directory's, else the source tree's.
    package static var defaultDirectory: String {
        FileManager.default.fileExists(atPath: "Corpora/conformance") ? "Corpora/conformance" : sourceTreeDirectory
    }

    /// `Corpora/conformance` of the checkout this binary was built from.
    package static var sourceTreeDirectory: String {
        SourceTree.root.map { $0 + "/Corpora/conformance" } ?? "Corpora/conformance"
    }

    /// The case directories under `directory` (or `directory` itself when it is a case), sorted.
    package static func cases(in directory: String) throws -> [String] {
        let fm = FileManager.default
        if fm.fileExists(atPath: directory + "/corpus.json") { return [directory] }
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else {
            throw InputError(file: directory, path: "", reason: "no such directory; give a folder of cases (each with corpus.json, events.jsonl, expected.jsonl)")
        }
        let found = names.sorted().map { directory + "/" + $0 }.filter { fm.fileExists(atPath: $0 + "/corpus.json") }
        guard !found.isEmpty else {
            throw InputError(file: directory, path: "", reason: "holds no case (a folder with corpus.json, events.jsonl and expected.jsonl)")
        }
        return found
    }

    /// Runs one case through the matcher `strategy` builds.
    package static func check(case directory: String, strategy make: (LoadedCorpus) throws -> StrategyRegistry.Strategy) throws -> CaseResult {
        let corpus = try LoadedCorpus(path: directory + "/corpus.json")
        let expectedPath = directory + "/expected.jsonl", eventsPath = directory + "/events.jsonl"
        let expected = try BoundedFile.read(expectedPath, limit: 1 << 28).split(separator: 0x0A, omittingEmptySubsequences: false)
        var columns = EventColumns(vocabulary: corpus.vocabulary)
        var lines: [(line: Int, expected: [String])] = []
        let reader = try LineReader(path: eventsPath, maxLineBytes: EventDecoder.maxLineBytes)
        var number = 0
        while let line = try reader.next() {
            number += 1
            guard number <= expected.count, number < expected.count || !expected[number - 1].isEmpty else {
                throw InputError(file: expectedPath, path: "", reason: "has fewer lines than events.jsonl (\(number) or more); every event line needs its expected line: regenerate it with bench replay --strategy reference")
            }
            let want: JSONValue
            do { want = try EventDecoder.parseLine(Array(expected[number - 1])) } catch let error as InputError {
                throw error.inFile(expectedPath)
            }
            // Lines the expected output reports without a matched list (invalid, control) are not matched.
            guard case .array(let ids)? = want["matched"], case .text(let bytes) = line else { continue }
            let event: Event
            do { event = try EventDecoder.decode(EventDecoder.parseLine(bytes), categories: corpus.set.actionCategories) } catch let error as InputError {
                throw InputError(file: eventsPath, path: "line \(number)", reason: "expected.jsonl lists its matches but the line does not decode: \(error.reason)")
            }
            columns.append(event)
            lines.append((number, ids.compactMap { if case .string(let s) = $0 { return s } else { return nil } }))
        }
        if number < expected.count, expected[number...].contains(where: { !$0.isEmpty }) {
            throw InputError(file: expectedPath, path: "line \(number + 1)", reason: "\(expected.count - number) more expected lines than events.jsonl has lines (\(number)); regenerate it with bench replay --strategy reference")
        }
        guard !lines.isEmpty else {
            throw InputError(file: eventsPath, path: "", reason: "no event of the case has an expected matched list, so it checks nothing; add events")
        }
        let name = (directory as NSString).lastPathComponent
        let matcher: any Matcher
        do {
            matcher = try make(corpus).make(corpus.set, corpus.vocabulary)
        } catch let error as InputError where error.path == PluginMatcher.refusalPath {
            return CaseResult(name: name, events: lines.count, refused: error.reason)
        } catch let error as InputError {
            throw InputError(file: error.file, path: error.path, reason: "case \(name): \(error.reason)")
        }
        var result = CaseResult(name: name)
        result.events = lines.count
        func compare(_ i: Int, _ scratch: MatchScratch, via entry: String) {
            let got = Set(scratch.sortedResults), expected = lines[i].expected
            let want = Set(expected.compactMap { corpus.set.indexByID[$0] })
            if got != want || want.count != expected.count {
                result.disagreements.append(Disagreement(line: lines[i].line, expected: expected,
                                                         got: got.sorted().map { corpus.set.triggers[$0].id }, entry: entry))
            }
        }
        let invalid = answer(matcher, columns: columns, count: lines.count, compare: compare)
        result.invalidResults = invalid
        return result
    }

    /// Has `matcher` answer events `0..<count` one at a time (`match`), then, for a plugin with a batch
    /// entry point, all in batches; `compare` sees each answer in the scratch with the entry's name.
    /// Returns how many results broke the plugin ABI.
    static func answer(_ matcher: any Matcher, columns: EventColumns, count: Int,
                       compare: (Int, MatchScratch, String) -> Void) -> Int {
        let scratch = matcher.makeScratch(for: columns)
        columns.withView { view in
            for i in 0..<count {
                matcher.match(i, in: view, scratch: scratch)
                compare(i, scratch, "match")
            }
        }
        var invalid = PluginMatcher.invalidResults(in: scratch).count
        if let plugin = matcher as? PluginMatcher, plugin.library.table.match_batch != nil {
            let batchScratch = matcher.makeScratch(for: columns)
            columns.withView { view in
                plugin.matchBatch(0..<count, in: view, scratch: batchScratch) { compare($0, batchScratch, "match_batch") }
            }
            invalid += PluginMatcher.invalidResults(in: batchScratch).count
        }
        return invalid
    }
}

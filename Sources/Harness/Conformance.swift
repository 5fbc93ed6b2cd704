import Foundation
import TriggerKit

/// Checks a matcher against the conformance cases (`Corpora/conformance/<case>`: corpus.json,
/// events.jsonl, expected.jsonl): for every event line, the set of triggers it matches must equal the
/// `matched` list of the expected replay line. This is how a port of the matching rules is checked.
public enum Conformance {
    /// One event on which the matcher and the expected output disagree.
    public struct Disagreement: Sendable {
        /// 1-based line of events.jsonl.
        public var line: Int
        public var expected: [String]
        public var got: [String]

        public var description: String {
            let missing = expected.filter { !got.contains($0) }, extra = got.filter { !expected.contains($0) }
            var text = "line \(line): expected [\(expected.joined(separator: ", "))], got [\(got.joined(separator: ", "))]"
            if !missing.isEmpty { text += "; missing \(missing.joined(separator: ", "))" }
            if !extra.isEmpty { text += "; extra \(extra.joined(separator: ", "))" }
            return PrintableText.escaped(text)
        }
    }

    public struct CaseResult: Sendable {
        public var name: String
        public var events = 0
        public var disagreements: [Disagreement] = []
        /// Trigger indices outside the corpus (or bad counts) the matcher returned.
        public var invalidResults = 0
    }

    /// The default case folder: the current directory's, else the source tree's.
    public static var defaultDirectory: String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/conformance").path
        return FileManager.default.fileExists(atPath: "Corpora/conformance") ? "Corpora/conformance" : source
    }

    /// The case directories under `directory` (or `directory` itself when it is a case), sorted.
    public static func cases(in directory: String) throws -> [String] {
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
    public static func check(case directory: String, strategy make: (LoadedCorpus) throws -> StrategyRegistry.Strategy) throws -> CaseResult {
        let corpus = try LoadedCorpus(path: directory + "/corpus.json")
        let expectedPath = directory + "/expected.jsonl", eventsPath = directory + "/events.jsonl"
        let expected = try InputFile.read(expectedPath, limit: 1 << 28).split(separator: 0x0A, omittingEmptySubsequences: false)
        var columns = EventColumns(vocabulary: corpus.vocabulary)
        var lines: [(line: Int, expected: [String])] = []
        let reader = try LineReader(path: eventsPath, maxLineBytes: EventDecoder.maxLineBytes)
        var number = 0
        while let line = try reader.next() {
            number += 1
            guard number <= expected.count else {
                throw InputError(file: expectedPath, path: "line \(number)", reason: "missing: every events.jsonl line needs an expected line")
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
        let strategy = try make(corpus)
        let matcher = try strategy.make(corpus.set, corpus.vocabulary)
        let scratch = matcher.makeScratch(for: columns)
        var result = CaseResult(name: (directory as NSString).lastPathComponent)
        columns.withView { view in
            for (i, entry) in lines.enumerated() {
                matcher.match(i, in: view, scratch: scratch)
                let got = Set(scratch.sortedResults)
                let want = Set(entry.expected.compactMap { corpus.set.indexByID[$0] })
                result.events += 1
                if got != want || want.count != entry.expected.count {
                    result.disagreements.append(Disagreement(
                        line: entry.line, expected: entry.expected,
                        got: got.sorted().map { corpus.set.triggers[$0].id }))
                }
            }
        }
        result.invalidResults = PluginMatcher.invalidResults(in: scratch).count
        return result
    }
}

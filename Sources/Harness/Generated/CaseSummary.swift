import Foundation
import TriggerKit

/// A shrunk disagreement in words, and as a conformance case folder a user can replay and fix against.
package enum CaseSummary {
    /// One line: which triggers were missed or wrongly matched, with their conditions, on which event.
    static func line(_ c: RuleCase, _ d: GeneratedCheck.Disagreement) -> String { ascii(words(c, d)) }

    /// Non-ASCII text as JSON escapes: the Ohm sign and Omega look alike on a screen, `\u2126` and `\u03a9` do not.
    static func ascii(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            if scalar.isASCII { out.unicodeScalars.append(scalar); continue }
            for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
        }
        return out
    }

    static func words(_ c: RuleCase, _ d: GeneratedCheck.Disagreement) -> String {
        switch d.entry {
        case "build": return "refuses to build a matcher for this valid corpus of \(c.triggers.count) trigger\(c.triggers.count == 1 ? "" : "s")"
        case "ABI": return "reports a trigger index outside the corpus, or one twice (a plugin ABI rule)"
        default: break
        }
        let missing = Set(d.expected).subtracting(d.got).sorted(), extra = Set(d.got).subtracting(d.expected).sorted()
        var parts: [String] = []
        if !missing.isEmpty { parts.append("misses " + missing.map { trigger(c, $0) }.joined(separator: "; ")) }
        if !extra.isEmpty { parts.append("wrongly matches " + extra.map { trigger(c, $0) }.joined(separator: "; ")) }
        var text = parts.joined(separator: " and ") + " on the event " + clipped(RuleCase.text(c.events[d.event]))
        let others = c.triggers.count - missing.count - extra.count
        if others > 0 { text += " (\(others) other trigger\(others == 1 ? "" : "s") kept: without them it agrees)" }
        if d.entry != "match" { text += " (through \(d.entry))" }
        return text
    }

    static func trigger(_ c: RuleCase, _ index: Int) -> String {
        guard index >= 0, index < c.triggers.count else { return "an index outside the corpus (#\(index))" }
        let t = c.triggers[index]
        var text = "\"\(t["id"]?.stringValue ?? "?")\" ("
        text += (t["conditions"]?.arrayItems ?? []).map(condition).joined(separator: " or ")
        if t["start_time"] != nil || t["end_time"] != nil {
            text += "; window [\(t["start_time"].map(RuleCase.text) ?? "open"), \(t["end_time"].map(RuleCase.text) ?? "open")]"
        }
        return clipped(text + ")", 300)
    }

    static func condition(_ c: JSONValue) -> String {
        let type = c["type"]?.stringValue ?? "?"
        var text = type
        for key in ["event_name", "product_id", "campaign_id", "action_id"] {
            if let v = c[key] { text += " \(key == "action_id" ? "action " : "")\(RuleCase.text(v))" }
        }
        guard let clauses = c["filters"]?.arrayItems, !clauses.isEmpty else { return text }
        let written = clauses.map { clause -> String in
            let filters = (clause.arrayItems ?? []).map { f in
                [f["property"]?.stringValue ?? "?", f["type"]?.stringValue ?? "?", f["op"]?.stringValue ?? "?"].joined(separator: " ")
                    + (f["value"].map { " " + RuleCase.text($0) } ?? "")
            }
            return "[" + (filters.isEmpty ? "an empty clause" : filters.joined(separator: " or ")) + "]"
        }
        return text + " where " + written.joined(separator: " and ")
    }

    static func clipped(_ s: String, _ most: Int = 400) -> String { s.count <= most ? s : String(s.prefix(most)) + "…" }

    /// Writes the case as `folder/corpus.json`, `events.jsonl`, `expected.jsonl` (the reference replay,
    /// as `bench replay --strategy reference` prints it) and `rule.txt` (the summary), each whole or not at all.
    package static func write(_ finding: GeneratedCheck.Finding, to folder: String, rerun: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: folder, path: "", reason: "cannot create the case folder (\(error.localizedDescription)); give a writable --write-cases folder")
        }
        let c = finding.shrunk
        let set = try CorpusDecoder.decode(bytes: Array(c.corpusText.utf8))
        let session = ReplaySession(triggerSet: set)
        let lines = c.eventLines
        let expected = lines.map { session.process(.text(Array($0.utf8))) }
        var files = [("corpus.json", c.corpusText), ("events.jsonl", lines.map { $0 + "\n" }.joined()),
                     ("expected.jsonl", expected.map { $0 + "\n" }.joined()),
                     ("rule.txt", "\(finding.contender) \(finding.summary)\nfound by: \(rerun)\n")]
        if finding.throughDelta {
            // The matcher was built on base.json and given delta.json, which make corpus.json.
            let split = DeltaSplit(count: c.triggers.count)
            var base = c
            base.triggers = split.base(c.triggers, renamed: { $0.setting("id", .string($1)) }, id: { $0["id"]?.stringValue ?? "" })
            files.append(("base.json", base.corpusText))
            files.append(("delta.json", RuleCase.text(split.deltaJSON(c.triggers)) + "\n"))
            files[3].1 += "the matcher was built from base.json and then given delta.json, which turns it into corpus.json\n"
        }
        for (name, text) in files {
            let file = try AtomicFile(path: folder + "/" + name)
            try file.write(text)
            try file.commit()
        }
    }
}

import Foundation

/// What `bench lint` prints: the files read, every invalid line (up to a bound), and each finding,
/// as text for a person or as `trigger-lint/1` JSON for a tool.
package struct LintReport: Encodable {
    package struct InvalidLines: Encodable {
        package let count: Int
        package let listed: [RunReport.ReplayedFiles.LineError]
        /// Invalid lines past the bound, counted and not listed.
        package let notListed: Int
    }

    package struct FindingRecord: Encodable {
        package let code, kind, what: String
        package let count: Int
        package let examples: [String]
        package let fix: String
        package let byEvent: [RateRecord]
        package let names: [NameRecord]
    }

    package struct RateRecord: Encodable {
        package let eventType: String
        package let event: String?
        package let property: String
        package let count, of: Int
        package let firstLine: Int?
        package let didYouMean: String?
        /// Values of the filters' own type seen after the first of another (value types only).
        package let ofTheFiltersType: Int?
    }

    package struct NameRecord: Encodable {
        package let name: String
        package let count, firstLine: Int
        package let didYouMean: String
    }

    package let format = "trigger-lint/1"
    package let corpus, eventLog: String
    package let triggers, lines, events: Int
    package let invalidLines: InvalidLines
    package let findings: [FindingRecord]
    /// Kept for the text form, which shows a few per finding.
    private let found: [DataLint.Finding]

    package init(corpus: String, eventLog: String, triggers: Int, log: LoadedEventLog, findings: [DataLint.Finding]) {
        self.corpus = corpus
        self.eventLog = eventLog
        self.triggers = triggers
        lines = log.lines
        events = log.columns.count
        invalidLines = InvalidLines(count: log.invalidLines, listed: log.firstErrors, notListed: log.invalidLines - log.firstErrors.count)
        found = findings
        self.findings = findings.map { f in
            FindingRecord(code: f.code, kind: Self.kindName(f.kind), what: f.what, count: f.count, examples: f.examples, fix: f.fix,
                          byEvent: f.rates.map { RateRecord(eventType: $0.eventType, event: $0.event, property: $0.property, count: $0.count, of: $0.of, firstLine: $0.firstLine, didYouMean: $0.meant, ofTheFiltersType: $0.fitting) },
                          names: f.names.map { NameRecord(name: $0.name, count: $0.count, firstLine: $0.firstLine, didYouMean: $0.meant) })
        }
    }

    enum CodingKeys: String, CodingKey {
        case format, corpus, eventLog = "event_log", triggers, lines, events, invalidLines = "invalid_lines", findings
    }

    static func kindName(_ kind: DataLint.Kind) -> String {
        switch kind {
        case .time: "time"
        case .valueType: "value_type"
        case .nearName: "near_name"
        case .nearProperty: "near_property"
        case .unseenProperty: "unseen_property"
        }
    }

    /// Rates shown per finding in the text form; the JSON has them all.
    static let ratesShown = 5

    package var text: String {
        var out = ["\(PrintableText.escaped(corpus)): \(triggers) triggers · \(PrintableText.escaped(eventLog)): \(lines) lines, \(events) events"
                   + (invalidLines.count > 0 ? ", \(invalidLines.count) invalid" : "")]
        if invalidLines.count > 0 {
            out.append("\(invalidLines.count) invalid line\(invalidLines.count == 1 ? "" : "s") (skipped by bench run; --strict there refuses the first):")
            out += invalidLines.listed.map { "    line \($0.line): \($0.error)" }
            if invalidLines.notListed > 0 { out.append("    … and \(invalidLines.notListed) more, not listed (the first \(invalidLines.listed.count) are)") }
        }
        if found.isEmpty { out.append("nothing looks wrong") }
        for f in found {
            out.append("\(f.count) \(f.what)")
            out += f.examples.map { "    \($0)" }
            if f.kind != .nearProperty, !f.rates.isEmpty {
                out.append("    by event, worst share first:")
                out += f.rates.prefix(Self.ratesShown).map { "      \($0.text)" }
                if f.rates.count > Self.ratesShown { out.append("      … and \(f.rates.count - Self.ratesShown) more (bench lint --json lists them all)") }
            } else if f.rates.count > f.examples.count {
                out.append("    … and \(f.rates.count - f.examples.count) more (bench lint --json lists them all)")
            }
            out.append("    fix: \(f.fix)")
        }
        // Names and keys from the files may hold control characters: each line escaped as a whole.
        return out.map(PrintableText.escaped).joined(separator: "\n")
    }

    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try encoder.encode(self)
    }
}

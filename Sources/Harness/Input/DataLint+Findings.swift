import Foundation

extension DataLint {
    /// One kind of trouble: how often, a few examples, what to do, and where it is frequent.
    package struct Finding: Sendable {
        /// A stable name for tools (`bench lint --json`): `numbers_as_strings`, `near_properties`, ….
        package let code: String
        package let what: String
        /// What kind it is, for the one-line warning's rules (`summary`).
        package let kind: Kind
        package let count: Int
        package let examples: [String]
        package let fix: String
        /// Per event name and property, worst rate first (value types and near properties only).
        package var rates: [Rate] = []
        /// Per near-miss event name or id, most events first (near names only).
        package var names: [NameMiss] = []
    }

    /// A name or id no trigger uses, the events that carried it, and the trigger's spelling it is near.
    package struct NameMiss: Sendable, Equatable {
        package let name: String
        package let count: Int
        package let firstLine: Int
        package let meant: String
    }

    /// How often one event's property carried the mistake: `count` of the `of` events of that name.
    package struct Rate: Sendable, Equatable {
        /// `custom_event` or `purchase`, and the event's name or the purchase's product (nil: any purchase).
        package let eventType: String
        package let event: String?
        package let property: String
        package let count: Int
        package let of: Int
        package var firstLine: Int?
        /// The property the filters read that this spelling was likely meant to be.
        package var meant: String?
        /// For a value of the other type: values of the filters' own type seen after the first miss.
        package var fitting: Int?

        init(_ key: EventKey, property: String, count: Int, of: Int, firstLine: Int? = nil, meant: String? = nil, fitting: Int? = nil) {
            switch key {
            case .custom(let name): (eventType, event) = ("custom_event", name)
            case .purchase(let product): (eventType, event) = ("purchase", product)
            }
            self.property = property
            self.count = count
            self.of = of
            self.firstLine = firstLine
            self.meant = meant
            self.fitting = fitting
        }

        /// How a person reads the event: its name, or the purchases of one product or of any.
        package var label: String {
            switch (eventType, event) {
            case ("purchase", let product?): "purchase of \"\(PrintableText.cut(product))\""
            case ("purchase", nil): "purchase"
            default: "\"\(PrintableText.cut(event ?? ""))\""
            }
        }

        /// `"view_paywall" · "sesions_count": 120 of 600 events (20 %)`, and the suggestion if any.
        package var text: String {
            let near = meant.map { ", first line \(firstLine ?? 0): did you mean \"\(PrintableText.cut($0))\"?" } ?? ""
            let beside = fitting.map { "; \($0) of the filters' type" } ?? ""
            return "\(label) · \"\(PrintableText.cut(property))\": \(count) of \(of) event\(of == 1 ? "" : "s") (\(Self.percent(count, of))\(beside))\(near)"
        }

        /// Whether the events have a habit worth one line: 5 % of that event's events (five at least),
        /// and for a value of the other type fewer than those of the filters' type. A property that
        /// mostly arrives in the other type points at the filter (the generated workloads mistype a
        /// few filters on purpose); `bench lint` lists it either way.
        var frequent: Bool { count >= 5 && count * 20 >= of && fitting.map { count < $0 } ?? true }

        static func percent(_ part: Int, _ whole: Int) -> String {
            let p = Double(part) * 100 / Double(max(whole, 1))
            return p >= 10 || p == p.rounded() ? "\(Int(p.rounded())) %" : String(format: "%.1f %%", p)
        }
    }

    /// What was found, worst first; empty when nothing looks wrong.
    package var findings: [Finding] {
        var out: [Finding] = []
        func add(_ tally: Tally, _ code: String, _ kind: Kind, _ what: String, fix: String, rates: [Rate] = []) {
            if tally.count > 0 { out.append(Finding(code: code, what: what, kind: kind, count: tally.count, examples: tally.examples, fix: fix, rates: rates)) }
        }
        let late = "(past the year 5138 read as seconds)"
        add(microseconds, "microsecond_times", .time, "event times that look like microseconds \(late)", fix: "write times in seconds since 1970 (divide by 1,000,000)")
        add(milliseconds, "millisecond_times", .time, "event times that look like milliseconds \(late)", fix: "write times in seconds since 1970 (divide by 1,000)")
        add(dateMilliseconds, "millisecond_dates", .time, "date properties that look like milliseconds \(late)", fix: "write dates in seconds since 1970, or as ISO-8601 text")
        add(windowMilliseconds, "millisecond_windows", .time, "trigger windows that look like milliseconds \(late)", fix: "write start_time and end_time in seconds since 1970")
        let missing = "such a filter sees the property as missing"
        add(numbersAsStrings, "numbers_as_strings", .valueType, "numbers sent as strings to properties that number filters of the same event compare (a string is no number: \(missing))",
            fix: "send the number unquoted", rates: rates(of: .numberAsString))
        add(stringsAsNumbers, "numbers_for_strings", .valueType, "numbers sent to properties that string filters of the same event compare (a number is no string: \(missing))",
            fix: "send the value as a string, or filter it as a number", rates: rates(of: .stringAsNumber))
        add(booleansAsStrings, "booleans_as_strings", .valueType, "booleans sent as strings to properties that boolean filters of the same event compare (a string is no boolean: \(missing))",
            fix: "send true or false unquoted", rates: rates(of: .booleanAsString))
        let near = nearNames.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }
        if !near.isEmpty {
            let names = near.map { NameMiss(name: $0.key, count: $0.value.count, firstLine: $0.value.line, meant: $0.value.used) }
            out.append(Finding(code: "near_names", what: "event names and ids no trigger uses, near one it does (another case or Unicode form, or one letter added, dropped, changed or swapped)", kind: .nearName,
                               count: near.reduce(nearNamesBeyondLimit) { $0 + $1.value.count },
                               examples: near.prefix(3).map { "\"\(PrintableText.cut($0.key))\" (\($0.value.count) event\($0.value.count == 1 ? "" : "s"), first line \($0.value.line)): did you mean the trigger's \"\(PrintableText.cut($0.value.used))\"?" },
                               fix: "spell them as the triggers do (names match exactly, after canonical Unicode normalization)", names: names))
        }
        let nearRates = nearProperties.map { pair, seen in
            Rate(pair.key, property: pair.property, count: seen.count, of: eventUses[pair.key]?.events ?? seen.count, firstLine: seen.line, meant: seen.meant)
        }.sorted(by: Self.worstFirst)
        if !nearRates.isEmpty {
            out.append(Finding(code: "near_properties", what: "event properties no filter of their event reads, near one that does (another case or Unicode form, or one letter): such a filter sees the property as missing",
                               kind: .nearProperty, count: nearRates.reduce(0) { $0 + $1.count }, examples: nearRates.prefix(3).map(\.text),
                               fix: "send the property under the name the filters read", rates: nearRates))
        }
        let unseen = filteredProperties.filter { !seenProperties.contains($0.key) }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        if events > 0, !unseen.isEmpty {
            out.append(Finding(code: "unseen_properties", what: "properties filters read that no event of the log holds", kind: .unseenProperty, count: unseen.count,
                               examples: unseen.prefix(3).map { p in
                                   let near = nearKeys[p.key].map { "; events hold \"\(PrintableText.cut($0))\"" } ?? ""
                                   return "\"\(PrintableText.cut(p.key))\" (\(p.value) filter\(p.value == 1 ? "" : "s")\(near))"
                               },
                               fix: "check the names against your events' properties (nested objects read as dot paths: a.b)"))
        }
        return out
    }

    func rates(of kind: Mistyped) -> [Rate] {
        typeMisses.compactMap { miss, count in
            miss.kind == kind ? Rate(miss.key, property: miss.property, count: count, of: eventUses[miss.key]?.events ?? count, fitting: typeHits[miss] ?? 0) : nil
        }.sorted(by: Self.worstFirst)
    }

    /// Highest share of its event first, then most events, then by name (the same order every run).
    static func worstFirst(_ a: Rate, _ b: Rate) -> Bool {
        let (x, y) = (a.count * max(b.of, 1), b.count * max(a.of, 1))
        if x != y { return x > y }
        return (a.count, b.label, b.property) > (b.count, a.label, a.property)
    }

    /// The findings in one line, for `bench run` and `bench fit` to say once; nil when there are none.
    /// Properties no event held are left out below 1,000 events (a short script holds few properties
    /// by design), and values of the other type or near-miss properties below 1 % of the events
    /// unless they are 5 % of one event's (five at least).
    package func summary(corpusPath: String, eventLogPath: String) -> String? {
        // A value of the other type now and then (the generated workloads send some on purpose, to
        // exercise the rule) is left to `bench lint`; a habit, of the log or of one event, is said.
        let found = findings.filter { f in
            switch f.kind {
            case .unseenProperty: events >= 1_000
            case .valueType, .nearProperty: f.count * 100 >= events || f.rates.contains(where: \.frequent)
            case .time, .nearName: true
            }
        }
        guard !found.isEmpty else { return nil }
        let list = found.map { f in
            let worst = f.rates.first(where: \.frequent).map { " (\(Rate.percent($0.count, $0.of)) of \($0.label)'s \"\(PrintableText.cut($0.property))\")" } ?? ""
            return "\(f.count) \(f.what.prefix { $0 != "(" && $0 != ":" }.trimmingCharacters(in: .whitespaces))\(worst)"
        }.joined(separator: "; ")
        return "warning: your data may not mean what you think: \(PrintableText.escaped(list)); see bench lint --corpus \(ShellWord.quoted(corpusPath)) --event-log \(ShellWord.quoted(eventLogPath))"
    }
}

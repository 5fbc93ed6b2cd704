import TriggerKit

/// `bench explain`: for one event, every trigger whose condition was considered, which filter
/// failed on which value, and what delivery decided and why.
package enum Explain {
    /// A human-readable report on `event` (given as its input line too), delivered through `session`
    /// after whatever history the session has replayed: the matching detail, the state the event finds,
    /// and the decision, which is the one `bench replay` prints for this line because the same session
    /// code makes it.
    package static func report(session: ReplaySession, eventLine: [UInt8], event: Event) -> String {
        var lines: [String] = []
        lines.append("event: \(describe(event))")
        let triggerSet = session.engine.triggerSet
        let triggers = triggerSet.triggers
        var considered = 0
        for (index, trigger) in triggers.enumerated() {
            let applicable = trigger.conditions.enumerated().filter { $0.element.appliesTo(event.kind) }
            guard !applicable.isEmpty else { continue }
            considered += 1
            let window = trigger.windowHolds(event.time)
            var conditionLines: [String] = []
            var anyCondition = false
            for (ci, condition) in applicable {
                let (holds, detail) = explain(condition.filters, event: event)
                anyCondition = anyCondition || holds
                conditionLines.append("    conditions[\(ci)] \(condition.typeName)\(conditionKey(condition)): \(holds ? "matches" : "does not match")")
                conditionLines.append(contentsOf: detail.map { "      " + $0 })
            }
            let matched = window && anyCondition
            lines.append("trigger \(quote(trigger.id)) (triggers[\(index)], priority \(JSONValue.format(trigger.priority))): \(matched ? "MATCHED" : "not matched")")
            if !window {
                lines.append("    window: event time \(JSONValue.format(event.time)) is outside [\(trigger.startTime.map(JSONValue.format) ?? "open"), \(trigger.endTime.map(JSONValue.format) ?? "open")]")
            }
            lines.append(contentsOf: conditionLines)
        }
        if considered == 0 { lines.append("no trigger has a condition for this event kind and name") }

        // Due messages and auto-dismissals up to the event's time happen first, as in replay.
        session.engine.advance(to: event.time)
        lines.append(contentsOf: DeliveryStateLines.describe(session.engine, at: event.time))
        let replayLine = session.process(.text(eventLine))
        guard let outcome = session.lastOutcome else {
            lines.append("delivery: invalid: \(session.lastError.map { "\($0)" } ?? "unknown error")")
            return printable(lines)
        }
        lines.append("delivery: \(outcome.kind.rawValue)" + (outcome.winner.map { " \(quote(triggers[$0].id))" } ?? ""))
        for (k, m) in outcome.matched.enumerated() {
            lines.append("    \(quote(triggers[m].id)): \(describe(outcome.verdicts[k], triggers[m], triggerSet))")
        }
        switch outcome.kind {
        case .noMatch: lines.append("    no re-eligible trigger matched: the no-matching-trigger callback is called")
        case .throttled: lines.append("    every candidate is inside its minimum interval: no message, no callback")
        case .triggered:
            let w = triggers[outcome.winner!]
            lines.append("    due at \(JSONValue.format(event.time + w.delay)), expires at \(JSONValue.format(event.time + w.effectiveTimeout))")
        }
        for r in session.lastDisplays {
            lines.append("    at \(JSONValue.format(r.time)): \(r.triggerID.map(quote) ?? "local message") \(r.display.rawValue)" + (r.reason.map { " (\($0.rawValue))" } ?? ""))
        }
        lines.append("replay prints: \(replayLine)")
        return printable(lines)
    }

    /// The report's lines joined, each escaped: a newline or an escape sequence inside an event's or a
    /// corpus's strings cannot split a line or paint the terminal.
    static func printable(_ lines: [String]) -> String {
        lines.map(PrintableText.escaped).joined(separator: "\n")
    }

    /// A trigger id as a JSON string: a newline or an escape sequence in an id cannot break the report.
    static func quote(_ id: String) -> String {
        var out = ""
        JSONValue.quote(id, into: &out)
        return out
    }

    static func conditionKey(_ c: Condition) -> String {
        switch c {
        case .customEvent(let name, _): return " \(quote(name))"
        case .purchase(let p, _): return p.map { " product \(quote($0))" } ?? " (any product)"
        case .sessionStart: return ""
        case .pushClick(let c, let a):
            return (c.map { " campaign \(quote($0))" } ?? " (any campaign)") + (a.map { " action \(quote($0))" } ?? "")
        }
    }

    static func explain(_ cnf: FilterCNF, event: Event) -> (Bool, [String]) {
        guard !cnf.isEmpty else { return (true, ["no filters: always holds"]) }
        var all = true
        var out: [String] = []
        for (k, clause) in cnf.clauses.enumerated() {
            var parts: [String] = []
            var clauseHolds = false
            for f in clause {
                let holds = FilterEvaluation.holds(f, properties: event.properties, eventTime: event.time)
                clauseHolds = clauseHolds || holds
                let seen: String
                if let v = event.properties[f.property] {
                    seen = v.type == f.type ? "value \(v)" : "missing (value \(v) is not a \(f.type.rawValue))"
                } else {
                    seen = "missing"
                }
                parts.append("\(f.property) \(f.type.rawValue) \(f.op.rawValue)\(operand(f.operand)): \(seen) -> \(holds)")
            }
            all = all && clauseHolds
            out.append("clause \(k) \(clauseHolds ? "holds" : "FAILS"): " + parts.joined(separator: " | "))
        }
        return (all, out)
    }

    static func operand(_ o: Filter.Operand) -> String {
        switch o {
        case .none: return ""
        case .number(let v): return " \(v)"
        case .numbers(let l): return " [" + l.map(\.description).joined(separator: ", ") + "]"
        case .string(let s): return " " + PropertyValue.string(s).description
        case .strings(let l): return " [" + l.map { PropertyValue.string($0).description }.joined(separator: ", ") + "]"
        case .bool(let b): return " \(b)"
        case .seconds(let s): return " \(JSONValue.format(s))"
        case .regex(let r): return " /\(r.pattern)/i"
        }
    }

    static func describe(_ event: Event) -> String {
        let what: String
        switch event.kind {
        case .customEvent(let n): what = "custom_event \(quote(n))"
        case .purchase(let p): what = "purchase of \(quote(p))"
        case .sessionStart: what = "session_start"
        case .pushClick(let c, let a): what = "push_click campaign \(c.map(quote) ?? "none")" + (a.map { " action \(quote($0))" } ?? "")
        }
        let props = event.properties.keys.sorted().map { "\($0)=\(event.properties[$0]!)" }.joined(separator: ", ")
        return "\(what) at \(JSONValue.format(event.time))" + (props.isEmpty ? "" : " {\(props)}")
    }

    static func describe(_ v: DeliveryOutcome.Verdict, _ t: Trigger, _ set: TriggerSet) -> String {
        switch v {
        case .won: return "wins (priority \(JSONValue.format(t.priority)); ties go to the trigger listed later)"
        case .lost(let to): return "loses to \(quote(to)) (priority \(JSONValue.format(t.priority))); kept as a fallback"
        case .notReEligible(let rule, let last):
            return rule < 0 ? "not re-eligible: shows only once and displayed at \(JSONValue.format(last))"
                : "not re-eligible: displayed at \(JSONValue.format(last)), needs \(JSONValue.format(rule)) s"
        case .throttled(let interval, let since):
            return "throttled: last display \(JSONValue.format(since)) s ago, interval \(JSONValue.format(interval)) s"
        }
    }
}

import Foundation
import TriggerKit

/// Cuts a disagreeing case down to what the disagreement needs: the one event, then as few triggers,
/// conditions, clauses, filters, list members and event properties as still disagree (chunks first,
/// then one by one). A crowd the index needs survives, since removing it ends the disagreement.
package struct CaseShrinker {
    let contender: GeneratedCheck.Contender
    /// Shrinking stops here and keeps what it has: a case past 4,096 triggers can take many checks.
    var budget: TimeInterval = 30

    func check(_ c: RuleCase) -> GeneratedCheck.Disagreement? {
        GeneratedCheck.evaluate(c).flatMap { GeneratedCheck.firstDisagreement(contender, on: $0) }
    }

    /// The smallest case found so far and its disagreement.
    final class State {
        var best: RuleCase
        var found: GeneratedCheck.Disagreement
        let deadline: Date
        let check: (RuleCase) -> GeneratedCheck.Disagreement?

        init(_ best: RuleCase, _ found: GeneratedCheck.Disagreement, deadline: Date, check: @escaping (RuleCase) -> GeneratedCheck.Disagreement?) {
            (self.best, self.found, self.deadline, self.check) = (best, found, deadline, check)
        }

        /// Takes `candidate` when it still disagrees.
        func accept(_ candidate: RuleCase) -> Bool {
            guard Date() < deadline, let d = check(candidate) else { return false }
            (best, found) = (candidate, d)
            return true
        }
    }

    func shrink(_ original: RuleCase, first: GeneratedCheck.Disagreement) -> (case: RuleCase, disagreement: GeneratedCheck.Disagreement) {
        let s = State(original, first, deadline: Date().addingTimeInterval(budget), check: check)
        if first.event >= 0 { _ = s.accept(RuleCase(settings: original.settings, triggers: original.triggers, events: [original.events[first.event]])) }
        // Passes until one changes nothing (or the budget ends).
        func text() -> String { s.best.corpusText + s.best.eventLines.joined() }
        var previous = ""
        var current = text()
        while previous != current, Date() < s.deadline {
            previous = current
            _ = Self.reduce(s.best.events) { var c = s.best; c.events = $0; return s.accept(c) }
            _ = Self.reduce(s.best.triggers) { var c = s.best; c.triggers = $0; return s.accept(c) }
            for t in s.best.triggers.indices {
                for key in ["start_time", "end_time", "re_eligibility"] where s.best.triggers[t][key] != nil {
                    var c = s.best
                    c.triggers[t] = c.triggers[t].setting(key, nil)
                    _ = s.accept(c)
                }
                simplify(trigger: t, s)
            }
            for e in s.best.events.indices {
                // A plainer time where the time does not matter: 0, else whole seconds.
                for time in [JSONValue.int(0), s.best.events[e]["time"]?.number.flatMap { $0.magnitude < 9e15 ? .int(Int64($0.rounded(.towardZero))) : nil }].compactMap({ $0 }) {
                    var c = s.best
                    c.events[e] = c.events[e].setting("time", time)
                    if c.events[e]["time"] != s.best.events[e]["time"], s.accept(c) { break }
                }
                guard case .object(let members)? = s.best.events[e]["properties"] else { continue }
                _ = Self.reduce(members.map { $0 }) { kept in
                    var c = s.best
                    c.events[e] = c.events[e].setting("properties", .object(kept))
                    return s.accept(c)
                }
            }
            current = text()
        }
        return (s.best, s.found)
    }

    /// Reduces trigger `t`'s conditions, then each condition's clauses, filters and lists.
    func simplify(trigger t: Int, _ s: State) {
        func conditions() -> [JSONValue] { s.best.triggers[t]["conditions"]?.arrayItems ?? [] }
        func with(_ list: [JSONValue]) -> RuleCase {
            var c = s.best
            c.triggers[t] = c.triggers[t].setting("conditions", .array(list))
            return c
        }
        _ = Self.reduce(conditions()) { s.accept(with($0)) }
        for k in conditions().indices {
            func clauses() -> [JSONValue] { conditions()[k]["filters"]?.arrayItems ?? [] }
            func withClauses(_ list: [JSONValue]) -> RuleCase {
                var all = conditions()
                all[k] = all[k].setting("filters", .array(list))
                return with(all)
            }
            guard conditions()[k]["filters"]?.arrayItems != nil else { continue }
            _ = Self.reduce(clauses()) { s.accept(withClauses($0)) }
            for j in clauses().indices {
                func filters() -> [JSONValue] { clauses()[j].arrayItems ?? [] }
                func withFilters(_ list: [JSONValue]) -> RuleCase {
                    var all = clauses()
                    all[j] = .array(list)
                    return withClauses(all)
                }
                _ = Self.reduce(filters()) { s.accept(withFilters($0)) }
                for f in filters().indices {
                    guard let members = filters()[f]["value"]?.arrayItems else { continue }
                    _ = Self.reduce(members) { kept in
                        var list = filters()
                        list[f] = list[f].setting("value", .array(kept))
                        return s.accept(withFilters(list))
                    }
                }
            }
        }
    }

    /// Removes chunks of `items`, halving the chunk down to single items, keeping every removal after
    /// which `keeps` still holds; returns what is left.
    package static func reduce<T>(_ items: [T], keeps: ([T]) -> Bool) -> [T] {
        var items = items
        var chunk = max(items.count / 2, 1)
        while !items.isEmpty {
            var i = 0
            var removed = false
            while i < items.count {
                var trial = items
                trial.removeSubrange(i..<min(i + chunk, items.count))
                if keeps(trial) { items = trial; removed = true } else { i += chunk }
            }
            if chunk == 1, !removed { break }
            chunk = max(chunk / 2, 1)
        }
        return items
    }
}

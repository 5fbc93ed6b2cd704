import TriggerKit

/// The deltas `--delta-triggers N` publishes (docs/deltas.md): deterministic, and alternating between two
/// states so that readers' matches, and so the run's checksums, do not depend on when a delta lands.
///
/// A pool of ⌈N/2⌉ triggers spread evenly over the set is replaced by edited copies (priority raised,
/// clause order reversed: the same events match), then back by the originals. The other ⌊N/2⌋ of each
/// delta are triggers added on event names no event carries (new strings: the symbol table grows) and
/// removed by the next delta.
package struct BenchDeltas {
    let pool: [Trigger]
    let edited: [Trigger]
    let added: [Trigger]
    private(set) var step = 0

    package init(_ set: TriggerSet, triggers n: Int) {
        let replaced = min((n + 1) / 2, set.triggers.count)
        let count = set.triggers.count
        pool = (0..<replaced).map { set.triggers[$0 * count / max(replaced, 1)] }
        edited = pool.map { t in
            var t = t
            t.priority += 1
            t.conditions = t.conditions.map { c in
                switch c {
                case .customEvent(let name, let f): .customEvent(name: name, filters: FilterCNF(clauses: f.clauses.reversed().map(Array.init)))
                case .purchase(let product, let f): .purchase(productID: product, filters: FilterCNF(clauses: f.clauses.reversed().map(Array.init)))
                case .sessionStart, .pushClick: c
                }
            }
            return t
        }
        let template = set.triggers.first
        added = (0..<(n - replaced)).map { k in
            var t = template ?? Trigger(id: "", conditions: [])
            t.id = "bench-delta-\(k)"
            t.conditions = [.customEvent(name: "bench-delta-event-\(k)", filters: template?.conditions.first?.filters ?? FilterCNF(clauses: []))]
            return t
        }
    }

    /// The next delta: even steps edit the pool and add, odd steps restore the pool and remove.
    package mutating func next() -> TriggerSetDelta {
        defer { step += 1 }
        if step % 2 == 0 { return TriggerSetDelta(add: added, replace: edited) }
        return TriggerSetDelta(remove: added.map(\.id), replace: pool)
    }
}

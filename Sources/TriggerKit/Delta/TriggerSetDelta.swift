/// A change to a trigger set by trigger id (docs/deltas.md): triggers added, removed and replaced.
///
/// Order after a delta: a replaced trigger keeps its place, removed ones leave, and added ones come
/// after every trigger already in the set, in the delta's order. The place decides priority ties
/// (the later trigger wins), so it is part of what a delta means.
public struct TriggerSetDelta: Sendable {
    public var add: [Trigger]
    public var remove: [String]
    public var replace: [Trigger]

    public init(add: [Trigger] = [], remove: [String] = [], replace: [Trigger] = []) {
        self.add = add
        self.remove = remove
        self.replace = replace
    }

    public var isEmpty: Bool { add.isEmpty && remove.isEmpty && replace.isEmpty }
    /// Triggers the delta touches.
    public var count: Int { add.count + remove.count + replace.count }

    /// Refuses the whole delta when it would break a rule of the set it applies to: an added id
    /// already present (or added twice), a removed or replaced id absent, an id named by two
    /// operations, or a set grown past `CorpusDecoder.maxTriggers`. `contains` answers for the current set.
    public func validate(count: Int, contains: (String) -> Bool) throws {
        // The operation and index that named each id; paths are spelled out only for an error.
        var seen: [String: (list: String, index: Int)] = [:]
        seen.reserveCapacity(self.count)
        func path(_ list: String, _ k: Int) -> String { list == "remove" ? "remove[\(k)]" : "\(list)[\(k)].id" }
        func claim(_ id: String, _ list: String, _ k: Int) throws {
            if let earlier = seen.updateValue((list, k), forKey: id) {
                throw InputError(path: path(list, k), reason: "trigger id also named by \(path(earlier.list, earlier.index)); a delta may name each id once",
                                 triggerID: id)
            }
        }
        for k in remove.indices {
            let id = remove[k]
            try claim(id, "remove", k)
            guard contains(id) else { throw InputError(path: path("remove", k), reason: "no trigger with this id is in the set", triggerID: id) }
        }
        // By index: copying each Trigger out retains every field (a delta's cost is the writer's).
        for k in replace.indices {
            let id = replace[k].id
            try claim(id, "replace", k)
            guard contains(id) else {
                throw InputError(path: path("replace", k), reason: "no trigger with this id is in the set; add it instead", triggerID: id)
            }
        }
        for k in add.indices {
            let id = add[k].id
            try claim(id, "add", k)
            guard !contains(id) else {
                throw InputError(path: path("add", k), reason: "a trigger with this id is already in the set; replace it instead", triggerID: id)
            }
        }
        let after = count - remove.count + add.count
        guard after <= CorpusDecoder.maxTriggers else {
            throw InputError(path: "add", reason: "the set would hold \(after) triggers; at most \(CorpusDecoder.maxTriggers) are allowed: add fewer or remove more")
        }
    }
}

extension TriggerSet {
    /// The set this delta makes of this one (validated first; nothing changes when it is refused).
    /// Copies every trigger: what the engine and the rebuilding strategies use.
    public func applying(_ delta: TriggerSetDelta) throws -> TriggerSet {
        try delta.validate(count: triggers.count) { indexByID[$0] != nil }
        let removed = Set(delta.remove)
        var replacement: [String: Trigger] = [:]
        for t in delta.replace { replacement[t.id] = t }
        var out: [Trigger] = []
        out.reserveCapacity(triggers.count - removed.count + delta.add.count)
        for t in triggers where !removed.contains(t.id) { out.append(replacement[t.id] ?? t) }
        out.append(contentsOf: delta.add)
        return TriggerSet(triggers: out, minimumTriggerInterval: minimumTriggerInterval, actionCategories: actionCategories)
    }
}

extension Trigger {
    /// Every string a matcher looks up for this trigger: event names, product, campaign and action ids,
    /// filter property keys and string constants (what a delta interns).
    public func forEachString(_ body: (String) -> Void) {
        for k in conditions.indices {
            let condition = conditions[k]
            switch condition {
            case .customEvent(let name, _): body(name)
            case .purchase(let product, _): if let product { body(product) }
            case .sessionStart: break
            case .pushClick(let campaign, let action):
                if let campaign { body(campaign) }
                if let action { body(action) }
            }
            for clause in condition.filters.clauses {
                for filter in clause {
                    body(filter.property)
                    switch filter.operand {
                    case .string(let s): body(s)
                    case .strings(let list): for s in list { body(s) }
                    default: break
                    }
                }
            }
        }
    }
}

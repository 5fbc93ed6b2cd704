import Foundation
import TriggerKit

/// Generates a twin's trigger corpus from its shape: conditions land on names, products and
/// campaigns as the fitted ones did, scaled to the spec's trigger count, and each filter gets a
/// constant that makes it hold on the twin's events about as often as its class did on the data's.
struct TwinCorpus {
    let shape: TwinShape
    let keys: [TwinKey]
    let names: TwinPopulation, products: TwinPopulation, campaigns: TwinPopulation

    init(_ shape: TwinShape, seed: UInt64) {
        self.shape = shape
        keys = shape.keys.map(TwinKey.init)
        names = TwinPopulation(shape.names, prefix: "n", kind: .customEvent, seed: seed &+ 11)
        products = TwinPopulation(shape.products, prefix: "prod", kind: .purchase, seed: seed &+ 12)
        campaigns = TwinPopulation(shape.campaigns, prefix: "c", kind: .pushClick, seed: seed &+ 13)
    }

    static func keyName(_ k: Int) -> String { "p\(k)" }
    /// Button `rank` of the twin's clicks; `actions.count` names a button no click has.
    static func action(_ rank: Int) -> String { "a\(rank)" }

    /// Where a condition goes: a population's bin (or its unseen members, or any member), or a session start.
    enum Slot {
        case bin(EventKindCode, Int)
        case unseen(EventKindCode)
        case any(EventKindCode)
        case session
    }

    var slots: [(slot: Slot, weight: Int)] {
        var out: [(Slot, Int)] = []
        for (population, kind) in [(shape.names, EventKindCode.customEvent), (shape.products, .purchase), (shape.campaigns, .pushClick)] {
            for (b, bin) in population.bins.enumerated() where bin.conditions > 0 && bin.targeted > 0 { out.append((.bin(kind, b), bin.conditions)) }
            if population.unseen.conditions > 0 { out.append((.unseen(kind), population.unseen.conditions)) }
            if population.anyConditions > 0 { out.append((.any(kind), population.anyConditions)) }
        }
        if shape.sessionConditions > 0 { out.append((.session, shape.sessionConditions)) }
        return out
    }

    /// Each of the corpus's `triggers` triggers, in order, made one at a time.
    func forEachTrigger(triggers: Int, seed: UInt64, _ body: (JSONValue) throws -> Void) rethrows {
        var rng = DeterministicRandom(seed: seed &* 0x9E37_79B9 &+ 1)
        let slots = self.slots
        let decks = Decks()
        // Scaled to the trigger count asked for: the fitted count gives the data's counts exactly.
        let scale = Double(triggers) / Double(shape.fittedTriggers)
        let conditionCount = slots.reduce(0) { $0 + $1.weight }
        for t in 0..<triggers {
            let n = decks.deal("conditions per trigger", &rng) { Deck(shares: shape.conditionsPerTrigger, size: triggers) } + 1
            var conditions: [JSONValue] = []
            for _ in 0..<n {
                guard conditionCount > 0 else { conditions.append(.object([("type", .string("session_start"))])); continue }
                let slot = slots[decks.deal("slots", &rng) { Deck(shares: slots.map { Double($0.weight) }, size: Int((Double(conditionCount) * scale).rounded())) }].slot
                conditions.append(condition(slot, decks, &rng))
            }
            var members: [(key: String, value: JSONValue)] = [("id", .string("t\(t)")), ("priority", .int(Int64(rng.below(10))))]
            if shape.windows.share > 0, rng.chance(shape.windows.share) {
                let length = shape.windows.coverage * shape.time.span
                let start = shape.time.start + rng.unit() * max(0, shape.time.span - length)
                members.append(("start_time", .double((start * 1000).rounded(.down) / 1000)))
                members.append(("end_time", .double(((start + length) * 1000).rounded(.up) / 1000)))
            }
            members.append(("re_eligibility", .int(0)))
            members.append(("conditions", .array(conditions)))
            try body(.object(members))
        }
    }

    func condition(_ slot: Slot, _ decks: Decks, _ rng: inout DeterministicRandom) -> JSONValue {
        func member(_ population: TwinPopulation, _ slot: Slot) -> (name: String?, rank: Int) {
            switch slot {
            case .bin(_, let b):
                let rank = population.target(bin: b, &rng)
                return (population.name(rank), rank)
            case .unseen:
                return (population.unseenName(rng.below(max(1, population.ranked.unseen.targeted))), -1)
            default:
                return (nil, -1)
            }
        }
        switch slot {
        case .session:
            return .object([("type", .string("session_start"))])
        case .bin(.customEvent, _), .unseen(.customEvent), .any(.customEvent):
            let (name, rank) = member(names, slot)
            let group = names.filters(ofRank: rank, shared: nil)
            return .object([("type", .string("custom_event")), ("event_name", .string(name ?? names.name(0))),
                            ("filters", filters(group, kind: .customEvent, rank: rank, deck: "names \(slotName(slot))", decks, &rng))])
        case .bin(.purchase, _), .unseen(.purchase), .any(.purchase):
            let (name, rank) = member(products, slot)
            return .object([("type", .string("purchase")), ("product_id", name.map { .string($0) } ?? .null),
                            ("filters", name == nil ? filters(shape.anyPurchases, kind: .purchase, rank: -2, deck: "purchases any", decks, &rng)
                                : filters(shape.purchases, kind: .purchase, rank: rank, deck: "purchases", decks, &rng))])
        default:
            let (name, _) = member(campaigns, slot)
            var members: [(key: String, value: JSONValue)] = [("type", .string("push_click")), ("campaign_id", name.map { .string($0) } ?? .null)]
            if shape.push.actionConditions.reduce(0, +) > 0, rng.chance(shape.push.conditionsWithAction) {
                let rank = decks.deal("buttons", &rng) { Deck(weights: shape.push.actionConditions) }
                members.append(("action_id", .string(Self.action(rank))))
            }
            return .object(members)
        }
    }

    /// A condition's filters: its clause structure and filter classes drawn from the group's mix,
    /// each constant chosen for the drawn pass rate on the member's events. `rank` -1 is a member no
    /// event carries, -2 any member (any product).
    func slotName(_ slot: Slot) -> String {
        switch slot {
        case .bin(_, let b): "\(b)"
        case .unseen: "unseen"
        case .any: "any"
        case .session: "session"
        }
    }

    /// How many conditions a group of filters was fitted on (the size of its decks).
    func conditions(of deck: String) -> Int {
        if deck == "purchases" { return shape.products.bins.reduce(shape.products.unseen.conditions) { $0 + $1.conditions } }
        if deck == "purchases any" { return shape.products.anyConditions }
        if deck == "names unseen" { return shape.names.unseen.conditions }
        return Int(deck.split(separator: " ").last.flatMap { Int($0) }.map { shape.names.bins[$0].conditions } ?? 1)
    }

    /// A condition's filters: a fitted template, or clauses drawn from the group's mix; each constant
    /// is chosen for the drawn pass rate on the member's events. `rank` -1 is a member no event
    /// carries, -2 any member (any product).
    func filters(_ group: TwinShape.Filters?, kind: EventKindCode, rank: Int, deck: String, _ decks: Decks,
                 _ rng: inout DeterministicRandom) -> JSONValue {
        guard let group else { return .array([]) }
        let carried = rank >= 0 ? (kind == .purchase ? products : names).carried(group, rank: rank) : []
        let presence: (Int) -> Double = { key in
            guard key >= 0 else { return 0 }
            switch rank {
            case -1: return 0
            case -2: return group.presence.first { $0.key == key }.map { $0.members * $0.share } ?? 0
            default: return carried.first { $0.key == key }?.share ?? 0
            }
        }
        var plan: [[Planned]] = []
        let correlation: Double
        let size = conditions(of: deck)
        let templated = group.templates.reduce(0) { $0 + $1.weight }
        let choice = decks.deal(deck + " structure", &rng) { Deck(weights: group.templates.map(\.weight) + [max(0, size - templated)]) }
        if choice < group.templates.count {
            let template = group.templates[choice]
            let row = template.rows[decks.deal("\(deck) template \(choice)", &rng) { Deck(weights: template.rows.map(\.weight)) }]
            var next = 0
            plan = template.clauses.map { slots in
                slots.map { slot in
                    next += 1
                    return (slot.key, PropertyType(rawValue: slot.type)!, FilterOperator(rawValue: slot.op)!, row.rates[next - 1], row.present[next - 1])
                }
            }
            correlation = row.correlation
        } else {
            guard !group.classes.isEmpty else { return .array([]) }
            let clauseCount = decks.deal(deck + " clauses", &rng) { Deck(shares: group.clauses, size: size) }
            for _ in 0..<clauseCount {
                let width = decks.deal(deck + " widths", &rng) { Deck(shares: group.widths, size: size * 2) } + 1
                plan.append((0..<width).map { _ in
                    let ci = decks.deal(deck + " classes", &rng) { Deck(weights: group.classes.map(\.weight)) }
                    let cls = group.classes[ci]
                    let level = decks.deal(deck + " class \(ci)", &rng) { Deck(weights: cls.pass.map(\.weight)) }
                    return (cls.key, PropertyType(rawValue: cls.type)!, FilterOperator(rawValue: cls.op)!, cls.pass[level].rate, 1)
                })
            }
            correlation = group.correlation
        }
        // A key this member does not carry but the data's member did (members carry keys by a draw):
        // another key of the type that it carries, the same one for every filter of the condition on
        // that key (a range stays a range). A heavy member carries exactly its own keys.
        var substituted: [Int: Int] = [:]
        let exact = rank >= 0 && (kind == .purchase ? products : names).isHeavy(rank)
        for c in plan.indices {
            for f in plan[c].indices where !exact && rank != -2 && presence(plan[c][f].key) == 0 && plan[c][f].carried > 0 {
                let key = plan[c][f].key
                if substituted[key] == nil {
                    let same = carried.filter { (keys[$0.key].typed(plan[c][f].type)?.share ?? 0) > 0 }
                    substituted[key] = same.isEmpty ? key : same[rng.below(same.count)].key
                }
                plan[c][f].key = substituted[key]!
            }
        }
        // A band's bounds see only the key's values of their type (the rest are missing to them).
        Self.correlate(&plan, correlation) { key, type in presence(key) * (key >= 0 ? keys[key].typed(type)?.share ?? 0 : 1) }
        return .array(plan.map { clause in
            .array(clause.map { filter(key: $0.key, type: $0.type, op: $0.op, target: $0.target, presence: presence($0.key), &rng) })
        })
    }

    /// A filter to make: its key, type, operator, the share of events it should hold on, and the share
    /// of the data's events that carried its key (a filter on a key its name lacks stays so).
    typealias Planned = (key: Int, type: PropertyType, op: FilterOperator, target: Double, carried: Double)

    /// Makes a condition of independent clauses hold as often as the fitted ones did together
    /// (`correlation` is that ratio). A bound of a range whose other bound is in an earlier clause
    /// takes it all: a narrow band is two bounds that each hold on half the events. Otherwise the
    /// last clause whose filter can take any share (not a boolean or an existence test) does.
    static func correlate(_ plan: inout [[Planned]], _ correlation: Double, presence: (Int, PropertyType) -> Double) {
        guard plan.count >= 2, correlation != 1 else { return }
        let lower: Set<FilterOperator> = [.gt, .gte, .after], upper: Set<FilterOperator> = [.lt, .lte, .before]
        let single = plan.indices.filter { plan[$0].count == 1 }
        for c in single.reversed() {
            let f = plan[c][0]
            guard let g = single.first(where: { $0 < c && plan[$0][0].key == f.key && f.key >= 0
                && (lower.contains(f.op) && upper.contains(plan[$0][0].op) || upper.contains(f.op) && lower.contains(plan[$0][0].op)) })
            else { continue }
            // On the events carrying the key, the band holds on t_g + t_f' − 1; make that the correlated
            // share (bounds fail on events without the key, so event shares are q times these).
            let q = presence(f.key, f.type)
            guard q > 0 else { return }
            let tg = min(1, plan[g][0].target / q), tf = min(1, f.target / q)
            plan[c][0].target = q * min(1, max(0, (1 - tg) + correlation * tg * tf))
            return
        }
        let adjustable: Set<PropertyType> = [.number, .string, .date]
        guard let c = plan.indices.last(where: { !plan[$0].isEmpty && adjustable.contains(plan[$0][0].type)
            && ![.exists, .notExists].contains(plan[$0][0].op) }) else { return }
        plan[c][0].target = min(1, plan[c][0].target * correlation)
    }

    func filter(key: Int, type: PropertyType, op: FilterOperator, target: Double, presence q: Double, _ rng: inout DeterministicRandom) -> JSONValue {
        let property = key >= 0 ? Self.keyName(key) : "p-none"
        var value: JSONValue?
        if key >= 0, let (typed, share) = keys[key].typed(type), q * share > 0 {
            // What the present values must give so that, with missing ones, the filter holds on `target`
            // (to this filter, the key's values of another type are missing too).
            let q = q * share
            let missing = op.holdsOnMissing ? 1 - q : 0
            value = typed.constant(op, target: (target - missing) / q, time: shape.time, &rng)
        } else {
            value = TwinKey.anyConstant(type, op, time: shape.time)
        }
        var members: [(key: String, value: JSONValue)] = [("property", .string(property)), ("type", .string(type.rawValue)), ("op", .string(op.rawValue))]
        if let value { members.append(("value", value)) }
        return .object(members)
    }

    /// An index drawn by the shares in `shares` (0 when there are none).
    static func draw(_ shares: [Double], _ rng: inout DeterministicRandom) -> Int {
        let total = shares.reduce(0, +)
        guard total > 0 else { return 0 }
        var u = rng.unit() * total
        for (i, s) in shares.enumerated() {
            if u < s { return i }
            u -= s
        }
        return shares.lastIndex { $0 > 0 }!
    }
}

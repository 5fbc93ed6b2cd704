import Foundation
import TriggerKit

/// The second half of a fit: walks the triggers, measures their filters on sampled events, and
/// assembles the shape.
struct ConditionPass {
    let set: TriggerSet
    let events: EventPass
    let symbols: SymbolTable
    let names: Ranking, products: Ranking, campaigns: Ranking
    /// Twin key index by the data's key string, and the interned ids in that order.
    let keyIndex: [String: Int]
    let keyOrder: [Int32]
    var decoded: [Member: [Event]] = [:]

    init(set: TriggerSet, events: EventPass, symbols: SymbolTable) {
        self.set = set
        self.events = events
        self.symbols = symbols
        let strings = events.view.strings
        names = Ranking(events.memberEvents, kind: .customEvent, strings: strings)
        products = Ranking(events.memberEvents, kind: .purchase, strings: strings)
        campaigns = Ranking(events.memberEvents, kind: .pushClick, strings: strings)
        // Ties by the key's text, as `Ranking`'s.
        keyOrder = Array(events.keys.sorted { $0.value.present != $1.value.present ? $0.value.present > $1.value.present
                                                  : strings[Int($0.key)] < strings[Int($1.key)] }
            .prefix(TwinFitter.keptKeys).map(\.key))
        var index: [String: Int] = [:]
        for (i, id) in keyOrder.enumerated() { index[events.view.strings[Int(id)]] = i }
        keyIndex = index
    }

    mutating func sample(_ member: Member?) -> [Event] {
        guard let member else { return events.purchaseSample.map { events.view.event(at: $0) } }
        if let cached = decoded[member] { return cached }
        let list = (events.samples[member] ?? []).map { events.view.event(at: $0) }
        // Decoded samples of up to ~2,700 members at once: a trigger set over millions of names must not
        // hold them all.
        if decoded.count >= 1 << 18 / TwinFitter.samplesPerMember { decoded.removeAll(keepingCapacity: true) }
        decoded[member] = list
        return list
    }

    func member(_ s: String, _ kind: EventKindCode) -> Member? {
        symbols.lookup(s).map { Member(kind: kind.rawValue, id: $0) }
    }

    /// Where a condition's name, product or campaign sits among the ones events carry: its member
    /// and rank bin, or nil for one no event carries.
    func place(_ s: String, _ kind: EventKindCode, in ranking: Ranking) -> Tally.Place? {
        guard let m = member(s, kind), let r = ranking.rank[m.id] else { return nil }
        return Tally.Place(member: m, bin: TwinShape.bin(ofRank: r))
    }

    /// Which keys a group of members' events carry.
    func presence(_ members: [Member]) -> [TwinShape.KeyShare] {
        let total = members.reduce(0) { $0 + events.memberEvents[$1, default: 0] }
        guard total > 0 else { return [] }
        return keyOrder.enumerated().compactMap { index, key in
            var carryingEvents = 0, present = 0
            for m in members {
                let c = events.carrying[EventPass.MemberKey(member: m, key: key), default: 0]
                if c > 0 {
                    carryingEvents += events.memberEvents[m, default: 0]
                    present += c
                }
            }
            guard present > 0 else { return nil }
            return TwinShape.KeyShare(key: index, members: Double(carryingEvents) / Double(total), share: Double(present) / Double(carryingEvents))
        }
    }

    mutating func shape() -> TwinShape {
        var perTrigger: [Int] = []
        var nameBins = [FilterAccumulator](repeating: .init(), count: names.binCount)
        var unseenNames = FilterAccumulator(), purchases = FilterAccumulator(), anyPurchases = FilterAccumulator()
        var nameTally = Tally(names), productTally = Tally(products), campaignTally = Tally(campaigns)
        var sessions = 0, pushConditions = 0, pushWithAction = 0
        let strings = events.view.strings
        let actionOrder = events.actions.sorted { $0.value != $1.value ? $0.value > $1.value : strings[Int($0.key)] < strings[Int($1.key)] }
            .prefix(64).map(\.key)
        var actionConditions = [Int](repeating: 0, count: actionOrder.count + 1)
        var windowed = 0, coverage = 0.0
        let start = events.firstTime.isFinite ? events.firstTime : 0
        let end = events.lastTime.isFinite ? events.lastTime : 0
        for trigger in set.triggers {
            let n = max(trigger.conditions.count, 1)
            while perTrigger.count < n { perTrigger.append(0) }
            perTrigger[n - 1] += 1
            if trigger.startTime != nil || trigger.endTime != nil {
                windowed += 1
                let lo = max(trigger.startTime ?? -.infinity, start), hi = min(trigger.endTime ?? .infinity, end)
                coverage += end > start ? max(0, hi - lo) / (end - start) : (lo <= hi ? 1 : 0)
            }
            for condition in trigger.conditions {
                switch condition {
                case .customEvent(let name, let cnf):
                    let place = nameTally.add(name, at: self.place(name, .customEvent, in: names))
                    if let place {
                        nameBins[place.bin].add(cnf, events: sample(place.member), keyIndex: keyIndex)
                    } else {
                        unseenNames.add(cnf, events: [], keyIndex: keyIndex)
                    }
                case .purchase(let product, let cnf):
                    if let product {
                        let place = productTally.add(product, at: self.place(product, .purchase, in: products))
                        purchases.add(cnf, events: place.map { sample($0.member) } ?? [], keyIndex: keyIndex)
                    } else {
                        productTally.any += 1
                        anyPurchases.add(cnf, events: sample(nil), keyIndex: keyIndex)
                    }
                case .sessionStart:
                    sessions += 1
                case .pushClick(let campaign, let action):
                    pushConditions += 1
                    if let action {
                        pushWithAction += 1
                        let id = symbols.lookup(action)
                        actionConditions[actionOrder.firstIndex { $0 == id } ?? actionOrder.count] += 1
                    }
                    if let campaign {
                        campaignTally.add(campaign, at: place(campaign, .pushClick, in: campaigns))
                    } else {
                        campaignTally.any += 1
                    }
                }
            }
        }
        func members(_ ranking: Ranking, _ kind: EventKindCode, bin b: Int) -> [Member] {
            TwinShape.binRange(b, count: ranking.order.count).map { Member(kind: kind.rawValue, id: ranking.order[$0]) }
        }
        func ranked(_ ranking: Ranking, _ kind: EventKindCode, _ tally: Tally,
                    filters: [TwinShape.Filters]?, unseenFilters: TwinShape.Filters?) -> TwinShape.Ranked {
            let targeted = tally.byBin
            let total = Double(max(1, ranking.counts.reduce(0, +)))
            let fit = ZipfFit.fit(ranking.counts)
            let bins = (0..<ranking.binCount).map { b in
                let binEvents = TwinShape.binRange(b, count: ranking.counts.count).reduce(0) { $0 + ranking.counts[$1] }
                let heavy = targeted[b].sorted { $0.value != $1.value ? $0.value > $1.value : ranking.rank[$0.key]! < ranking.rank[$1.key]! }
                    .prefix(TwinShape.maxHeavy)
                    .map { TwinShape.Heavy(conditions: $0.value, share: Double(ranking.counts[ranking.rank[$0.key]!]) / Double(max(1, binEvents)),
                                           presence: presence([Member(kind: kind.rawValue, id: $0.key)])) }
                return TwinShape.Bin(share: Double(binEvents) / total, conditions: targeted[b].values.reduce(0, +), targeted: targeted[b].count,
                                     filters: filters?[b],
                                     heavy: heavy.isEmpty ? nil : heavy)
            }
            return TwinShape.Ranked(count: ranking.order.count, zipf: fit.exponent, fitKS: fit.ks, bins: bins,
                                    unseen: .init(share: 0, conditions: tally.unseenConditions, targeted: tally.unseen.count, filters: unseenFilters,
                                                  heavy: nil),
                                    anyConditions: tally.any)
        }
        let nameFilters = (0..<names.binCount).map { nameBins[$0].filters(presence: presence(members(names, .customEvent, bin: $0))) }
        let allProducts = (0..<products.binCount).flatMap { members(products, .purchase, bin: $0) }
        let pushes = Double(max(1, events.kindCounts[Int(EventKindCode.pushClick.rawValue)]))
        return TwinShape(
            fittedTriggers: set.triggers.count,
            conditionsPerTrigger: perTrigger.map { Double($0) / Double(max(1, set.triggers.count)) },
            windows: .init(share: Double(windowed) / Double(max(1, set.triggers.count)), coverage: windowed > 0 ? coverage / Double(windowed) : 0),
            time: .init(start: min(TwinShape.maxTime, max(-TwinShape.maxTime, start)), span: min(TwinShape.maxTime, max(0, end - start))),
            names: ranked(names, .customEvent, nameTally, filters: nameFilters, unseenFilters: unseenNames.filters(presence: [])),
            products: ranked(products, .purchase, productTally, filters: nil, unseenFilters: nil),
            purchases: purchases.filters(presence: presence(allProducts)),
            anyPurchases: anyPurchases.filters(presence: presence(allProducts)),
            campaigns: ranked(campaigns, .pushClick, campaignTally, filters: nil, unseenFilters: nil),
            push: .init(withoutCampaign: Double(events.pushWithoutCampaign) / pushes, withAction: Double(events.pushWithAction) / pushes,
                        conditionsWithAction: Double(pushWithAction) / Double(max(1, pushConditions)),
                        actions: actionOrder.map { Double(events.actions[$0]!) / Double(max(1, events.pushWithAction)) },
                        actionConditions: actionConditions),
            sessionConditions: sessions,
            keys: keyOrder.map { events.keys[$0]!.shape })
    }
}

/// The conditions on one population: per rank bin, how many name each member; those on members no
/// event carries; those on any member.
struct Tally {
    struct Place {
        var member: Member
        var bin: Int
    }
    var byBin: [[Int32: Int]]
    var unseen = Set<String>(), unseenConditions = 0, any = 0

    init(_ ranking: Ranking) { byBin = Array(repeating: [:], count: ranking.binCount) }

    /// Counts a condition on `name`, found at `place` (nil: unseen); returns `place`.
    @discardableResult
    mutating func add(_ name: String, at place: Place?) -> Place? {
        if let place {
            byBin[place.bin][place.member.id, default: 0] += 1
        } else {
            unseenConditions += 1
            unseen.insert(name)
        }
        return place
    }
}

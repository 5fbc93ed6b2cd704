import Foundation
import TriggerKit

extension TwinCorpus {
    /// The twin's events straight into replay buffers: members drawn by the fitted bin shares, each
    /// carrying the keys its member carries, at evenly spaced times over the data's span.
    func events(_ spec: WorkloadSpec, vocabulary: Vocabulary, count n: Int, progress: ((Int) -> Void)?) -> EventColumns {
        var rng = DeterministicRandom(seed: spec.seed &* 0x9E37_79B9 &+ 2)
        var columns = EventColumns(vocabulary: vocabulary)
        columns.reserveCapacity(events: n, properties: n * 4)
        let keyIDs = keys.indices.map { columns.intern(Self.keyName($0)) }
        let actionIDs = shape.push.actions.indices.map { columns.intern(Self.action($0)) }
        var memberIDs: [EventKindCode: [Int: Int32]] = [:]
        var carriedCache: [EventKindCode: [Int: [(key: Int, share: Double)]]] = [:]
        var stringIDs: [String: Int32] = [:]
        var props: [(key: Int32, tag: ValueTag, bits: UInt64)] = []
        let kinds = WorkloadGenerator.KindPicker(spec)
        let step = n > 1 ? shape.time.span / Double(n - 1) : 0
        for e in 0..<n {
            if let progress, e & 0xFFFFF == 0 { progress(e) }
            let time = shape.time.start + step * Double(e)
            let kind = kinds.pick(&rng)
            var key: Int32 = -1, action: Int32 = -1
            props.removeAll(keepingCapacity: true)
            var population: TwinPopulation?
            switch kind {
            case .customEvent: population = names
            case .purchase: population = products
            case .pushClick:
                if !rng.chance(shape.push.withoutCampaign) { population = campaigns }
                if !actionIDs.isEmpty, rng.chance(shape.push.withAction) { action = actionIDs[Self.draw(shape.push.actions, &rng)] }
            case .sessionStart: break
            }
            if let population, let rank = population.draw(&rng) ?? (kind == .pushClick ? nil : 0) {
                if let id = memberIDs[kind]?[rank] {
                    key = id
                } else {
                    key = columns.intern(population.name(rank))
                    memberIDs[kind, default: [:]][rank] = key
                }
                if kind == .customEvent || kind == .purchase {
                    let carried: [(key: Int, share: Double)]
                    if let cached = carriedCache[kind]?[rank] {
                        carried = cached
                    } else {
                        let group = population.filters(ofRank: rank, shared: kind == .purchase ? shape.purchases : nil)
                        carried = population.carried(group, rank: rank)
                        if rank < 1 << 20 { carriedCache[kind, default: [:]][rank] = carried }
                    }
                    for (k, share) in carried where rng.chance(share) {
                        let bits: (ValueTag, UInt64)
                        switch keys[k].draw(&rng, time: time, event: e, key: k) {
                        case .number(let d, let integer):
                            bits = integer && abs(d) < 9e15 ? (.int, UInt64(bitPattern: Int64(d))) : (.double, d.bitPattern)
                        case .string(let s):
                            if let id = stringIDs[s] {
                                bits = (.string, UInt64(id))
                            } else {
                                let id = columns.intern(s)
                                // Fresh strings are unique: remembering them would only grow the map.
                                if !s.contains("~") { stringIDs[s] = id }
                                bits = (.string, UInt64(id))
                            }
                        case .bool(let b): bits = (.bool, b ? 1 : 0)
                        case .date(let d): bits = (.date, d.bitPattern)
                        }
                        props.append((keyIDs[k], bits.0, bits.1))
                    }
                    props.sort { $0.key < $1.key }
                }
            }
            props.withUnsafeBufferPointer {
                columns.appendEncoded(kind: kind, key: key, action: action, time: time, properties: $0)
            }
        }
        return columns
    }
}

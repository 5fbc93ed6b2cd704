import Foundation
import TriggerKit

/// A twin's ranked population (names, products or campaigns): draws members for events by the
/// fitted bin shares, picks the members conditions target, and decides which keys a member carries.
struct TwinPopulation {
    let ranked: TwinShape.Ranked
    let prefix: String
    let kind: EventKindCode
    /// Cumulative event shares of the bins, for drawing an event's member.
    let cumulative: [Double]
    /// The members conditions target beside the heavy ones, per bin (a fixed shuffle of the bin's
    /// ranks after the heavy members, which take its first ranks).
    let targeted: [[Int]]

    init(_ ranked: TwinShape.Ranked, prefix: String, kind: EventKindCode, seed: UInt64) {
        self.ranked = ranked
        self.prefix = prefix
        self.kind = kind
        var acc = 0.0
        cumulative = ranked.bins.map { acc += $0.share; return acc }
        var rng = DeterministicRandom(seed: seed)
        targeted = ranked.bins.enumerated().map { b, bin in
            let full = TwinShape.binRange(b, count: ranked.count)
            let heavy = min(bin.heavy?.count ?? 0, full.count)
            let range = full.lowerBound + heavy..<full.upperBound
            guard bin.targeted > heavy, !range.isEmpty else { return [] }
            // A partial Fisher–Yates over the bin's ranks, without materialising big bins.
            var swapped: [Int: Int] = [:]
            return (0..<min(bin.targeted - heavy, range.count)).map { k in
                let j = k + rng.below(range.count - k)
                let picked = swapped[j] ?? j
                swapped[j] = swapped[k] ?? k
                return range.lowerBound + picked
            }
        }
    }

    func name(_ rank: Int) -> String { "\(prefix)\(rank)" }
    func unseenName(_ j: Int) -> String { "\(prefix)u\(j)" }

    /// An event's member, by the bins' shares and uniformly inside a bin; nil when there is none.
    func draw(_ rng: inout DeterministicRandom) -> Int? {
        guard ranked.count > 0, let total = cumulative.last, total > 0 else { return ranked.count > 0 ? 0 : nil }
        let u = rng.unit() * total
        var b = cumulative.firstIndex { u < $0 } ?? cumulative.count - 1
        while TwinShape.binRange(b, count: ranked.count).isEmpty && b > 0 { b -= 1 }
        let range = TwinShape.binRange(b, count: ranked.count)
        guard !range.isEmpty else { return 0 }
        let heavy = ranked.bins[b].heavy ?? []
        let h = min(heavy.count, range.count)
        let heavyShare = heavy.prefix(h).reduce(0) { $0 + $1.share }
        var u2 = rng.unit()
        if u2 < heavyShare || h == range.count {
            for j in 0..<h {
                if u2 < heavy[j].share { return range.lowerBound + j }
                u2 -= heavy[j].share
            }
            return range.lowerBound + max(0, h - 1)
        }
        return range.lowerBound + h + rng.below(range.count - h)
    }

    /// The member a condition on bin `b` targets: a heavy member by its conditions, else one of the others.
    func target(bin b: Int, _ rng: inout DeterministicRandom) -> Int {
        let bin = ranked.bins[b], lower = TwinShape.binRange(b, count: ranked.count).lowerBound
        let heavy = bin.heavy ?? []
        var pick = rng.below(max(1, bin.conditions))
        for (j, h) in heavy.enumerated() {
            if pick < h.conditions { return lower + j }
            pick -= h.conditions
        }
        return targeted[b].isEmpty ? lower : targeted[b][rng.below(targeted[b].count)]
    }

    /// Whether member `rank` carries key `key`, decided by a hash so events and corpus agree.
    static func carries(kind: EventKindCode, rank: Int, key: Int, members: Double) -> Bool {
        guard members < 1 else { return true }
        var x = UInt64(kind.rawValue) << 56 ^ UInt64(rank) << 12 ^ UInt64(key) &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 31
        return Double(x >> 11) * 0x1p-53 < members
    }

    /// Whether member `rank` is one of its bin's heavy members (whose keys the spec gives exactly).
    func isHeavy(_ rank: Int) -> Bool {
        guard rank >= 0 else { return false }
        let b = TwinShape.bin(ofRank: rank)
        guard b < ranked.bins.count, let heavy = ranked.bins[b].heavy else { return false }
        return rank - TwinShape.binRange(b, count: ranked.count).lowerBound < heavy.count
    }

    /// The keys member `rank` carries, with the share of its events each is present on: a heavy
    /// member's own, else the group's keys each carried by its share of members.
    func carried(_ filters: TwinShape.Filters?, rank: Int) -> [(key: Int, share: Double)] {
        if rank >= 0 {
            let b = TwinShape.bin(ofRank: rank)
            let j = rank - TwinShape.binRange(b, count: ranked.count).lowerBound
            if b < ranked.bins.count, let heavy = ranked.bins[b].heavy, j < heavy.count, let own = heavy[j].presence {
                return own.map { ($0.key, $0.share) }
            }
        }
        return (filters?.presence ?? []).filter { Self.carries(kind: kind, rank: rank, key: $0.key, members: $0.members) }.map { ($0.key, $0.share) }
    }

    /// The filters of the group member `rank` belongs to (a name's bin; purchases share one group).
    func filters(ofRank rank: Int, shared: TwinShape.Filters?) -> TwinShape.Filters? {
        if let shared { return shared }
        guard rank >= 0 else { return ranked.unseen.filters }
        let b = TwinShape.bin(ofRank: rank)
        return b < ranked.bins.count ? ranked.bins[b].filters : nil
    }
}

import Foundation
import TriggerKit

/// One twin property key: draws its values for events, and chooses filter constants that make a
/// filter on it pass on a given share of the values.
package struct TwinKey {
    let type: PropertyType
    /// Numbers: the most frequent values and their shares, quantiles of the rest, whether integers.
    let atoms: [(value: Double, share: Double)]
    let quantiles: [Double]
    let restShare: Double
    let integer: Bool
    /// Dates: offsets from the event's time.
    let low: Double, high: Double
    /// Strings: probability of each repeated value by rank (falling), its bins, and the share drawn fresh.
    let weights: [Double]
    let rankBins: [(upTo: Double, range: Range<Int>)]
    let fresh: Double
    let trueShare: Double
    /// Distinct values the data's events carried: how widely constants no event holds are spread.
    let distinct: Int
    /// The key's values of other types, each with its share of the key's values (the rest are `type`).
    let others: [(share: Double, key: TwinKey)]
    /// Share of the key's values that are of its own type.
    let ownShare: Double
    /// Repeated values a string key draws from in the twin: a rank weight each (1 MiB a key at most).
    static let maxPool = 1 << 17

    init(_ shape: TwinShape.Key) {
        type = PropertyType(rawValue: shape.type) ?? .number
        integer = shape.integer ?? true
        var atoms = (shape.atoms ?? []).map { (value: $0[0], share: $0[1]) }
        var quantiles = shape.quantiles ?? []
        if type == .number, atoms.isEmpty, quantiles.isEmpty {
            let lo = shape.min ?? 0, hi = Swift.max(lo, shape.max ?? lo)
            quantiles = (0...16).map { lo + (hi - lo) * Double($0) / 16 }
        }
        let atomMass = atoms.reduce(0) { $0 + $1.share }
        if quantiles.isEmpty, atomMass > 0 { atoms = atoms.map { ($0.value, $0.share / atomMass) } }
        self.atoms = atoms
        self.quantiles = quantiles
        restShare = quantiles.isEmpty ? 0 : Swift.max(0, 1 - atomMass)
        low = type == .date ? shape.offsetMin ?? 0 : 0
        high = type == .date ? Swift.max(low, shape.offsetMax ?? low) : 0
        let pool = type == .string ? Swift.min(shape.distinct ?? 0, Self.maxPool) : 0
        fresh = pool == 0 ? 1 : (shape.fresh ?? 0)
        var weights: [Double] = [], bins: [(Double, Range<Int>)] = []
        if pool > 0, let shares = shape.bins, shares.reduce(0, +) > 0 {
            let total = shares.reduce(0, +)
            var acc = 0.0
            for (b, share) in shares.enumerated() {
                let range = TwinShape.binRange(b, count: pool)
                guard !range.isEmpty else { break }
                acc += share / total
                bins.append((acc, range))
                weights += Array(repeating: share / total / Double(range.count), count: range.count)
            }
        } else if pool > 0 {
            let sampler = ZipfSampler(count: pool, exponent: shape.zipf ?? 1)
            weights = sampler.cdf.indices.map { $0 == 0 ? sampler.cdf[0] : sampler.cdf[$0] - sampler.cdf[$0 - 1] }
            var acc = 0.0
            bins = weights.indices.map { acc += weights[$0]; return (acc, $0..<$0 + 1) }
        }
        self.weights = weights
        rankBins = bins
        trueShare = shape.trueShare ?? 0.5
        distinct = shape.distinct ?? 0
        others = (shape.others ?? []).map { other in
            var own = other
            own.others = nil  // one level deep
            return (other.share ?? 0, TwinKey(own))
        }
        ownShare = shape.ownShare
    }

    /// The key as filters of type `t` see it: the part of its values of that type and their share
    /// (values of another type are missing to such a filter); nil when it holds none.
    func typed(_ t: PropertyType) -> (key: TwinKey, share: Double)? {
        if type == t { return (self, ownShare) }
        return others.first { $0.key.type == t }.map { ($0.key, $0.share) }
    }

    // MARK: - Values

    var lowest: Double { Swift.min(quantiles.first ?? .infinity, atoms.map(\.value).min() ?? .infinity) }
    var highest: Double { Swift.max(quantiles.last ?? -.infinity, atoms.map(\.value).max() ?? -.infinity) }

    func drawNumber(_ rng: inout DeterministicRandom) -> Double {
        var u = rng.unit()
        if u >= restShare || quantiles.isEmpty {
            u = restShare >= 1 ? 0 : (u - restShare) / (1 - restShare)
            for atom in atoms {
                if u < atom.share { return atom.value }
                u -= atom.share
            }
            if let last = atoms.last { return last.value }
        }
        return restValue(rng.unit())
    }

    /// The rest's quantile function, piecewise linear.
    func restValue(_ u: Double) -> Double {
        guard !quantiles.isEmpty else { return 0 }
        let x = u * 16, i = Swift.min(15, Int(x))
        let v = quantiles[i] + (quantiles[i + 1] - quantiles[i]) * (x - Double(i))
        return integer ? v.rounded() : v
    }

    /// Share of values at most `c` (or below `c` when not `inclusive`).
    func cumulative(_ c: Double, inclusive: Bool) -> Double {
        var p = atoms.reduce(0) { $0 + ((inclusive ? $1.value <= c : $1.value < c) ? $1.share : 0) }
        guard !quantiles.isEmpty else { return p }
        // Integer rest values are rounded: "at most c" is "below ⌊c⌋ + ½".
        let x = integer ? (inclusive ? c.rounded(.down) + 0.5 : c.rounded(.up) - 0.5) : c
        let q = quantiles
        var f: Double
        if x < q[0] { f = 0 } else if x >= q[16] { f = 1 } else {
            let i = Swift.min(15, (0..<16).last { q[$0] <= x } ?? 0)
            f = q[i + 1] > q[i] ? (Double(i) + (x - q[i]) / (q[i + 1] - q[i])) / 16 : Double(i + 1) / 16
        }
        p += restShare * Swift.min(1, Swift.max(0, f))
        return p
    }

    func drawRank(_ rng: inout DeterministicRandom) -> Int {
        guard !rankBins.isEmpty else { return 0 }
        let u = rng.unit()
        var lo = 0, hi = rankBins.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if rankBins[mid].upTo <= u { lo = mid + 1 } else { hi = mid }
        }
        let range = rankBins[lo].range
        return range.lowerBound + rng.below(range.count)
    }

    static func string(rank: Int) -> String { "s\(rank)x" }

    enum Drawn {
        case number(Double, integer: Bool)
        case string(String)
        case bool(Bool)
        case date(Double)
    }

    func draw(_ rng: inout DeterministicRandom, time: Double, event: Int, key: Int) -> Drawn {
        // A draw for the type only where the key has several: a single-typed key's values stay as they were.
        if !others.isEmpty {
            var u = rng.unit()
            for other in others {
                if u < other.share { return other.key.draw(&rng, time: time, event: event, key: key) }
                u -= other.share
            }
        }
        switch type {
        case .number: return .number(drawNumber(&rng), integer: integer)
        case .boolean: return .bool(rng.chance(trueShare))
        case .date: return .date(time + low + rng.unit() * (high - low))
        case .string:
            let rank = drawRank(&rng)
            if fresh > 0, rng.chance(fresh) {
                return .string(Self.string(rank: rank) + "~" + String(event, radix: 36) + "." + String(key, radix: 36))
            }
            return .string(Self.string(rank: rank))
        }
    }

    // MARK: - Constants

    /// A constant for `op` that holds on about `target` of this key's present values. `span` is the
    /// events' time range, for absolute date bounds.
    func constant(_ op: FilterOperator, target: Double, time: TwinShape.Time, _ rng: inout DeterministicRandom) -> JSONValue? {
        let t = min(1, max(0, target))
        switch (type, op) {
        case (_, .exists), (_, .notExists): return nil
        case (.number, _): return numberConstant(op, t, &rng)
        case (.string, _): return stringConstant(op, t, &rng)
        case (.boolean, _):
            let holdsOnTrue = op == .eq ? trueShare : 1 - trueShare
            let holdsOnFalse = 1 - holdsOnTrue
            return .bool(abs(holdsOnTrue - t) <= abs(holdsOnFalse - t))
        case (.date, _): return dateConstant(op, t, time)
        }
    }

    func numberJSON(_ v: Double) -> JSONValue { v == v.rounded() && abs(v) < 9e15 ? .int(Int64(v)) : .double(v) }

    /// How many different constants no event holds a twin spreads its filters over. The data's
    /// filters that never held mostly name values no sampled event carried, each its own (item ids one
    /// by one); one shared constant would gather them all under one index key, where the data's each
    /// gather one.
    var unseenSpread: Int { Swift.max(64, Swift.min(distinct, 1 << 20)) }

    func numberConstant(_ op: FilterOperator, _ t: Double, _ rng: inout DeterministicRandom) -> JSONValue {
        let lo = lowest.isFinite ? lowest : 0, hi = highest.isFinite ? highest : 0
        let spread = unseenSpread
        func above() -> JSONValue { numberJSON((hi + 1).rounded(.up) + Double(rng.below(spread))) }
        let shares = atoms.map(\.share)
        switch op {
        case .gt, .gte, .lt, .lte:
            let holds: (Double) -> Double = { c in
                switch op {
                case .gt: return 1 - self.cumulative(c, inclusive: true)
                case .gte: return 1 - self.cumulative(c, inclusive: false)
                case .lt: return self.cumulative(c, inclusive: false)
                default: return self.cumulative(c, inclusive: true)
                }
            }
            var a = lo - 1, b = hi + 1
            let rising = op == .lt || op == .lte
            for _ in 0..<60 {
                let mid = (a + b) / 2
                if (holds(mid) < t) == rising { a = mid } else { b = mid }
            }
            let c = (a + b) / 2
            let candidates = [c, c.rounded(.down), c.rounded(.up), a, b] + (integer ? [] : [(c * 1000).rounded() / 1000])
            return numberJSON(candidates.min { abs(holds($0) - t) < abs(holds($1) - t) }!)
        case .eq, .ne:
            let want = op == .eq ? t : 1 - t
            if want <= 0 { return above() }
            if let j = Self.pick(shares, for: want, limit: 1, &rng).first { return numberJSON(atoms[j].value) }
            return restShare > 0 ? numberJSON(restValue(rng.unit())) : above()
        case .in, .notIn:
            let chosen = Self.pick(shares, for: op == .in ? t : 1 - t, limit: 4, &rng)
            return .array(chosen.isEmpty ? [above()] : chosen.map { numberJSON(atoms[$0].value) })
        default: return .int(0)
        }
    }

    /// Indices into falling `weights` that together hold about `mass`, up to `limit` of them (largest
    /// first that still fit, so a small mass gets a rare value rather than none).
    package static func pick(_ weights: [Double], for mass: Double, limit: Int, _ rng: inout DeterministicRandom) -> [Int] {
        // The first rank whose weight is at most `w` (weights fall with rank).
        func firstAtMost(_ w: Double) -> Int {
            var lo = 0, hi = weights.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if weights[mid] > w { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        // Ranks of about one weight: uniform among them, a draw spreads the constants of many filters
        // over many values, as the data's were (item ids one by one), where the nearest rank alone gave
        // thousands of filters one constant.
        func plateau(_ w: Double) -> Range<Int> { firstAtMost(w * 1.1)..<firstAtMost(w / 1.1) }
        var left = mass, chosen: [Int] = []
        while chosen.count < limit, !weights.isEmpty, left > 0 {
            var ranks = plateau(left)
            if ranks.isEmpty {
                // Between two plateaus: the upper with the chance that makes the expected weight `left`.
                let lo = firstAtMost(left)
                let upper = lo > 0 ? plateau(weights[lo - 1]) : 0..<0, lower = lo < weights.count ? plateau(weights[lo]) : 0..<0
                if upper.isEmpty {
                    ranks = lower
                } else if lower.isEmpty {
                    ranks = weights[lo - 1] < 2 * left ? upper : 0..<0
                } else {
                    let (high, low) = (weights[lo - 1], weights[lo])
                    ranks = rng.chance((left - low) / (high - low)) ? upper : lower
                }
            }
            var rank: Int?
            for _ in 0..<8 where !ranks.isEmpty {
                let r = ranks.lowerBound + rng.below(ranks.count)
                if !chosen.contains(r) { rank = r; break }
            }
            guard let rank else { break }
            chosen.append(rank)
            left -= weights[rank]
        }
        return chosen
    }

    func stringConstant(_ op: FilterOperator, _ t: Double, _ rng: inout DeterministicRandom) -> JSONValue {
        let spread = unseenSpread
        func unseen() -> JSONValue { .string("s-none-\(rng.below(spread))") }
        let equalShare = 1 - fresh
        switch op {
        case .eq, .ne:
            let want = (op == .eq ? t : 1 - t) / max(equalShare, 1e-12)
            return Self.pick(weights, for: want, limit: 1, &rng).first.map { .string(Self.string(rank: $0)) } ?? unseen()
        case .in, .notIn:
            let chosen = Self.pick(weights, for: (op == .in ? t : 1 - t) / max(equalShare, 1e-12), limit: 4, &rng)
            return .array(chosen.isEmpty ? [unseen()] : chosen.map { .string(Self.string(rank: $0)) })
        case .regex, .notRegex:
            let chosen = Self.pick(weights, for: op == .regex ? t : 1 - t, limit: 6, &rng)
            return .string(chosen.isEmpty ? "^s-none" : "^(?:" + chosen.map { Self.string(rank: $0) }.joined(separator: "|") + ")")
        default: return unseen()
        }
    }

    /// Share of offsets in [lo, hi] (offsets are uniform in [low, high]).
    func mass(_ lo: Double, _ hi: Double) -> Double {
        guard hi >= lo else { return 0 }
        if high == low { return low >= lo && low <= hi ? 1 : 0 }
        return max(0, min(hi, high) - max(lo, low)) / (high - low)
    }

    func dateConstant(_ op: FilterOperator, _ t: Double, _ time: TwinShape.Time) -> JSONValue {
        let times = (0..<16).map { time.start + time.span * (Double($0) + 0.5) / 16 }
        let reach = max(abs(low), abs(high)) + 1
        let holds: (Double) -> Double
        var lo = 0.0, hi = reach
        switch op {
        case .lessThanSecondsAgo: holds = { k in self.mass(-k + 1e-9, 0) }
        case .moreThanSecondsAgo: holds = { k in self.mass(-.infinity, -k - 1e-9) }
        case .inLessThanSeconds: holds = { k in self.mass(0, k - 1e-9) }
        case .inMoreThanSeconds: holds = { k in self.mass(k + 1e-9, .infinity) }
        case .before:
            lo = time.start + low - 1; hi = time.start + time.span + high + 1
            holds = { k in times.reduce(0) { $0 + self.mass(-.infinity, k - $1 - 1e-9) } / 16 }
        default:
            lo = time.start + low - 1; hi = time.start + time.span + high + 1
            holds = { k in times.reduce(0) { $0 + self.mass(k - $1 + 1e-9, .infinity) } / 16 }
        }
        let rising = holds(hi) >= holds(lo)
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if (holds(mid) < t) == rising { lo = mid } else { hi = mid }
        }
        return .double(((lo + hi) / 2 * 1000).rounded() / 1000)
    }

    /// A constant of `type` for a filter whose key is missing on every event (no key, or another type).
    static func anyConstant(_ type: PropertyType, _ op: FilterOperator, time: TwinShape.Time) -> JSONValue? {
        switch (type, op) {
        case (_, .exists), (_, .notExists): return nil
        case (.number, .in), (.number, .notIn): return .array([.int(0)])
        case (.number, _): return .int(0)
        case (.string, .in), (.string, .notIn): return .array([.string("s0x")])
        case (.string, .regex), (.string, .notRegex): return .string("^s0x")
        case (.string, _): return .string("s0x")
        case (.boolean, _): return .bool(true)
        case (.date, .before), (.date, .after): return .double(time.start.rounded())
        case (.date, _): return .int(3600)
        }
    }
}

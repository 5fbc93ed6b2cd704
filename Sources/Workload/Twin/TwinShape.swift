import Foundation
import TriggerKit

/// The shape of someone's data, fitted by `bench fit` (docs/harness.md, "Your data's twin"): the
/// figures that decide what matching costs, and no string of the data. Names, keys and values are
/// referred to by rank or index; the generator makes synthetic ones.
public struct TwinShape: Codable, Sendable, Equatable {
    /// The trigger count the condition counts below were fitted at; a spec's `triggers` scales them.
    public var fittedTriggers: Int
    /// Conditions per trigger: share of triggers with 1, 2, 3, … conditions.
    public var conditionsPerTrigger: [Double]
    /// Share of triggers with a time window, and the mean share of the event span a window covers.
    public var windows: Windows
    /// Seconds from the first event to the last, and where the first one is (epoch seconds).
    public var time: Time
    /// Custom-event names, ranked by how often events carry them.
    public var names: Ranked
    /// Purchased products, ranked likewise; their properties and the filters of conditions on one
    /// product are `purchases`, those of conditions on any product `anyPurchases` (they see every
    /// purchase, so they are kept apart).
    public var products: Ranked
    public var purchases: Filters
    public var anyPurchases: Filters
    /// Push campaigns, ranked likewise.
    public var campaigns: Ranked
    public var push: Push
    /// Conditions on session starts.
    public var sessionConditions: Int
    /// Event property keys, by index (`p0`, `p1`, … in the twin).
    public var keys: [Key]

    public struct Windows: Codable, Sendable, Equatable {
        public var share: Double
        public var coverage: Double
    }

    public struct Time: Codable, Sendable, Equatable {
        public var start: Double
        public var span: Double
    }

    /// A population ranked by frequency (rank 0 the most frequent), in logarithmic bins: bin b holds
    /// ranks 2^b − 1 ..< 2^(b+1) − 1. The bins drive the generator; `zipf` and `fitKS` say how well a
    /// single Zipf law would describe it.
    public struct Ranked: Codable, Sendable, Equatable {
        public var count: Int
        public var zipf: Double
        /// Kolmogorov–Smirnov distance between the ranks' distribution and Zipf(`zipf`).
        public var fitKS: Double
        public var bins: [Bin]
        /// Conditions on members no event carries (names only triggers know).
        public var unseen: Bin
        /// Conditions on any member (a null product or campaign).
        public var anyConditions: Int
    }

    public struct Bin: Codable, Sendable, Equatable {
        /// Share of this population's events whose member is in the bin.
        public var share: Double
        /// Conditions on members of the bin, and how many members have one.
        public var conditions: Int
        public var targeted: Int
        /// What events of the bin carry and what its conditions test (custom-event names only).
        public var filters: Filters?
        /// The members with the most conditions (up to 16, the bin's first ranks in the twin): each one's
        /// conditions and share of the bin's events. The other targeted members share the rest evenly.
        public var heavy: [Heavy]?
    }

    public struct Heavy: Codable, Sendable, Equatable {
        public var conditions: Int
        public var share: Double
        /// The keys this member's events carry, and on what share of them.
        public var presence: [KeyShare]?
    }

    /// The properties events of one group carry and the filters its conditions hold.
    public struct Filters: Codable, Sendable, Equatable {
        /// Which keys the group's events carry (with a non-null value).
        public var presence: [KeyShare]
        /// The most frequent condition structures (up to 256), whole: a small trigger set is all templates.
        public var templates: [Template]
        /// The other conditions as a mix: share with 0, 1, 2, … clauses, share of clauses with 1, 2,
        /// … filters, and the filters' (key, type, operator) classes, each with how often it held.
        public var clauses: [Double]
        public var widths: [Double]
        public var classes: [FilterClass]
        /// Mean share of events a multi-clause condition held on, over the share its clauses would
        /// give if independent (1 when properties are independent; correlated properties move it).
        public var correlation: Double
    }

    /// A key carried by a share of the group's members (weighted by their events), present on a share
    /// of the events of the members that carry it.
    public struct KeyShare: Codable, Sendable, Equatable {
        public var key: Int
        public var members: Double
        public var share: Double
    }

    /// A condition structure: clauses of filter slots, its number of conditions, and the pass rates
    /// its conditions' filters had together (rows), so that the bounds of a range stay a band.
    public struct Template: Codable, Sendable, Equatable {
        public var weight: Int
        public var clauses: [[Slot]]
        public var rows: [Row]
    }

    public struct Slot: Codable, Sendable, Equatable {
        public var key: Int
        public var type: String
        public var op: String
    }

    /// Conditions of a template whose filters held about as often: each filter's mean pass rate, in
    /// the template's order, and how often the conditions held over what independent clauses would give.
    public struct Row: Codable, Sendable, Equatable {
        public var weight: Int
        public var rates: [Double]
        /// Share of the member's events that carried each filter's key.
        public var present: [Double]
        public var correlation: Double
    }

    public struct FilterClass: Codable, Sendable, Equatable {
        /// A key index, or -1 for a key no event carries.
        public var key: Int
        public var type: String
        public var op: String
        public var weight: Int
        /// Pass rates seen, as (rate, weight) centroids.
        public var pass: [Centroid]
    }

    public struct Centroid: Codable, Sendable, Equatable {
        public var rate: Double
        public var weight: Int
    }

    public struct Push: Codable, Sendable, Equatable {
        /// Share of push clicks without a campaign, and with a tapped button.
        public var withoutCampaign: Double
        public var withAction: Double
        /// Share of push conditions that name a button.
        public var conditionsWithAction: Double
        /// Tapped buttons ranked by how often clicks carry them (each one's share of clicks with a
        /// button), and how many conditions name the button of each rank, then buttons no click has.
        public var actions: [Double]
        public var actionConditions: [Int]
    }

    /// One property key: its values' type and distribution.
    public struct Key: Codable, Sendable, Equatable {
        public var type: String
        /// Numbers: range, distinct values and whether all are integers; the most frequent values as
        /// [value, share] atoms, and quantiles (0, 1/16, …, 1) of the other values.
        public var min: Double?
        public var max: Double?
        public var distinct: Int?
        public var integer: Bool?
        public var atoms: [[Double]]?
        public var quantiles: [Double]?
        /// Strings: how many values repeat, their shares by logarithmic rank bin (as names' bins), the
        /// Zipf exponent that would describe them, and the share of values seen only once (fresh).
        public var bins: [Double]?
        public var zipf: Double?
        public var fresh: Double?
        /// Booleans: share of `true`.
        public var trueShare: Double?
        /// Dates: offsets from the event's time, seconds (min, max).
        public var offsetMin: Double?
        public var offsetMax: Double?
    }
}

extension TwinShape {
    static let types: Set<String> = ["number", "string", "boolean", "date"]

    /// Decodes the `shape` object of a spec, then checks every figure is in range so the generator
    /// cannot trap on a hand-edited spec.
    static func decode(_ value: JSONValue, file: String) throws -> TwinShape {
        let shape: TwinShape
        do {
            shape = try JSONDecoder().decode(TwinShape.self, from: Data(value.serialized.utf8))
        } catch let error as DecodingError {
            throw InputError(file: file, path: "shape" + Self.path(of: error), reason: Self.reason(of: error))
        }
        try shape.validate(file: file)
        return shape
    }

    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
        case .keyNotFound(let key, let c): return (c.codingPath + [key]).map(Self.step).joined()
        @unknown default: return ""
        }
        return context.codingPath.map(Self.step).joined()
    }

    static func step(_ key: CodingKey) -> String { key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }

    static func reason(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing key \"\(key.stringValue)\""
        case .typeMismatch(let type, _): "expected \(type == Double.self || type == Int.self ? "a number" : "\(type)")"
        case .valueNotFound: "expected a value, found null"
        case .dataCorrupted(let c): c.debugDescription
        @unknown default: "invalid"
        }
    }

    func validate(file: String) throws {
        func fail(_ path: String, _ reason: String) -> InputError { InputError(file: file, path: "shape." + path, reason: reason) }
        func share(_ v: Double, _ path: String) throws {
            guard v.isFinite, v >= 0, v <= 1 else { throw fail(path, "expected a share from 0 to 1, found \(v)") }
        }
        func count(_ v: Int, _ path: String, max: Int = CorpusDecoder.maxTriggers * 64) throws {
            guard v >= 0, v <= max else { throw fail(path, "expected a count from 0 to \(max), found \(v)") }
        }
        func finite(_ v: Double?, _ path: String) throws {
            if let v, !v.isFinite || abs(v) > 1e15 { throw fail(path, "expected a finite number within ±1e15, found \(v)") }
        }
        try count(fittedTriggers, "fittedTriggers", max: CorpusDecoder.maxTriggers)
        guard fittedTriggers > 0 else { throw fail("fittedTriggers", "expected at least 1 trigger") }
        guard !conditionsPerTrigger.isEmpty, conditionsPerTrigger.count <= 64 else {
            throw fail("conditionsPerTrigger", "expected shares of 1 to 64 conditions")
        }
        for (i, s) in conditionsPerTrigger.enumerated() { try share(s, "conditionsPerTrigger[\(i)]") }
        guard conditionsPerTrigger.reduce(0, +) > 0 else { throw fail("conditionsPerTrigger", "the shares must not all be zero") }
        try share(windows.share, "windows.share")
        try share(windows.coverage, "windows.coverage")
        try finite(time.start, "time.start")
        try finite(time.span, "time.span")
        guard time.span >= 0 else { throw fail("time.span", "expected a span of 0 seconds or more") }
        try share(push.withoutCampaign, "push.withoutCampaign")
        try share(push.withAction, "push.withAction")
        try share(push.conditionsWithAction, "push.conditionsWithAction")
        guard push.actions.count <= 64, push.actionConditions.count <= 65, push.actionConditions.allSatisfy({ $0 >= 0 }) else {
            throw fail("push.actions", "expected at most 64 button shares and 65 non-negative condition counts")
        }
        for (i, s) in push.actions.enumerated() { try share(s, "push.actions[\(i)]") }
        try count(sessionConditions, "sessionConditions")
        guard keys.count <= Self.maxKeys else { throw fail("keys", "at most \(Self.maxKeys) keys") }
        for (i, k) in keys.enumerated() {
            let p = "keys[\(i)]"
            guard Self.types.contains(k.type) else { throw fail(p + ".type", "expected number, string, boolean or date") }
            for (name, v) in [("min", k.min), ("max", k.max), ("offsetMin", k.offsetMin), ("offsetMax", k.offsetMax), ("zipf", k.zipf)] {
                try finite(v, "\(p).\(name)")
            }
            if let lo = k.min, let hi = k.max, lo > hi { throw fail(p + ".min", "min \(lo) is above max \(hi)") }
            if let lo = k.offsetMin, let hi = k.offsetMax, lo > hi { throw fail(p + ".offsetMin", "offsetMin is above offsetMax") }
            if let d = k.distinct { try count(d, p + ".distinct", max: Self.maxDistinct) }
            if let z = k.zipf, z < 0 || z > 10 { throw fail(p + ".zipf", "expected a Zipf exponent from 0 to 10") }
            if let f = k.fresh { try share(f, p + ".fresh") }
            if let t = k.trueShare { try share(t, p + ".trueShare") }
            for (j, atom) in (k.atoms ?? []).enumerated() {
                guard atom.count == 2, atom[0].isFinite, abs(atom[0]) <= 1e15 else { throw fail("\(p).atoms[\(j)]", "expected [value, share] with a finite value within ±1e15") }
                try share(atom[1], "\(p).atoms[\(j)][1]")
            }
            guard (k.atoms ?? []).count <= 64, (k.atoms ?? []).reduce(0, { $0 + $1[1] }) <= 1 + 1e-9 else {
                throw fail(p + ".atoms", "expected at most 64 atoms whose shares sum to at most 1")
            }
            if let q = k.quantiles {
                guard q.count == 17, zip(q, q.dropFirst()).allSatisfy({ $0 <= $1 }) else { throw fail(p + ".quantiles", "expected 17 quantiles in rising order") }
                for (j, v) in q.enumerated() { try finite(v, "\(p).quantiles[\(j)]") }
            }
            if let bins = k.bins {
                guard bins.count <= Self.maxBins else { throw fail(p + ".bins", "at most \(Self.maxBins) bins") }
                for (j, v) in bins.enumerated() { try share(v, "\(p).bins[\(j)]") }
            }
        }
        for (ranked, name) in [(names, "names"), (products, "products"), (campaigns, "campaigns")] {
            try count(ranked.count, name + ".count", max: 10_000_000)
            guard ranked.bins.count <= Self.maxBins else { throw fail(name + ".bins", "at most \(Self.maxBins) bins") }
            try finite(ranked.zipf, name + ".zipf")
            try share(ranked.fitKS, name + ".fitKS")
            try count(ranked.anyConditions, name + ".anyConditions")
            for (b, bin) in (ranked.bins + [ranked.unseen]).enumerated() {
                let p = b == ranked.bins.count ? "\(name).unseen" : "\(name).bins[\(b)]"
                try share(bin.share, p + ".share")
                try count(bin.conditions, p + ".conditions")
                let size = b == ranked.bins.count ? Int.max : Self.binRange(b, count: ranked.count).count
                guard bin.targeted >= 0, bin.targeted <= size, bin.conditions == 0 || bin.targeted > 0 else {
                    throw fail(p + ".targeted", "expected 1 to \(min(size, Int(Int32.max))) targeted members for \(bin.conditions) conditions")
                }
                if let f = bin.filters { try f.validate(p + ".filters", keys: keys.count, fail: fail) }
                let heavy = bin.heavy ?? []
                guard heavy.count <= min(bin.targeted, Self.maxHeavy), heavy.reduce(0, { $0 + $1.conditions }) <= bin.conditions,
                      heavy.allSatisfy({ $0.conditions > 0 && $0.share >= 0 && ($0.presence ?? []).allSatisfy { $0.key >= 0 && $0.key < keys.count && (0...1).contains($0.share) && (0...1).contains($0.members) } }), heavy.reduce(0, { $0 + $1.share }) <= 1 + 1e-9,
                      b < ranked.bins.count || heavy.isEmpty else {
                    throw fail(p + ".heavy", "expected at most \(Self.maxHeavy) (and at most targeted) members with conditions that sum to at most the bin's and shares that sum to at most 1")
                }
            }
        }
        try purchases.validate("purchases", keys: keys.count, fail: fail)
        try anyPurchases.validate("anyPurchases", keys: keys.count, fail: fail)
    }

    static let maxKeys = 256
    /// Bins of rank 2^b − 1 ..< 2^(b+1) − 1: 40 cover a trillion members.
    static let maxBins = 40
    static let maxHeavy = 16
    static let maxDistinct = 1 << 24

    /// The ranks of bin `b` of a population of `count`.
    public static func binRange(_ b: Int, count: Int) -> Range<Int> {
        let lo = min((1 << b) - 1, count), hi = min((1 << (b + 1)) - 1, count)
        return lo..<hi
    }
}

extension TwinShape.Filters {
    func validate(_ p: String, keys: Int, fail: (String, String) -> InputError) throws {
        func share(_ v: Double, _ path: String) throws {
            guard v.isFinite, v >= 0, v <= 1 else { throw fail(path, "expected a share from 0 to 1, found \(v)") }
        }
        for (i, k) in presence.enumerated() {
            guard k.key >= 0, k.key < keys else { throw fail("\(p).presence[\(i)].key", "no key \(k.key); the spec has \(keys)") }
            try share(k.share, "\(p).presence[\(i)].share")
            try share(k.members, "\(p).presence[\(i)].members")
        }
        guard clauses.count <= 65, widths.count <= 64 else { throw fail(p + ".clauses", "at most 64 clauses of 64 filters") }
        for (i, s) in clauses.enumerated() { try share(s, "\(p).clauses[\(i)]") }
        for (i, s) in widths.enumerated() { try share(s, "\(p).widths[\(i)]") }
        guard correlation.isFinite, correlation >= 0, correlation <= 1e6 else { throw fail(p + ".correlation", "expected a ratio from 0 to 1e6") }
        func filter(_ q: String, key: Int, type: String, op: String, pass: [TwinShape.Centroid]) throws {
            guard key >= -1, key < keys else { throw fail(q + ".key", "no key \(key); the spec has \(keys)") }
            guard let t = PropertyType(rawValue: type) else { throw fail(q + ".type", "expected number, string, boolean or date") }
            guard let o = FilterOperator(rawValue: op), FilterOperator.allowed(for: t).contains(o) else {
                throw fail(q + ".op", "\"\(op)\" is not an operator of type \(type)")
            }
            guard !pass.isEmpty, pass.count <= 64 else { throw fail(q + ".pass", "expected 1 to 64 pass centroids") }
            for (j, centroid) in pass.enumerated() {
                try share(centroid.rate, "\(q).pass[\(j)].rate")
                guard centroid.weight > 0 else { throw fail("\(q).pass[\(j)].weight", "expected a positive weight") }
            }
        }
        for (i, c) in classes.enumerated() {
            guard c.weight > 0 else { throw fail("\(p).classes[\(i)].weight", "expected a positive weight") }
            try filter("\(p).classes[\(i)]", key: c.key, type: c.type, op: c.op, pass: c.pass)
        }
        guard templates.count <= 256 else { throw fail(p + ".templates", "at most 256 templates") }
        for (i, t) in templates.enumerated() {
            let q = "\(p).templates[\(i)]"
            guard t.weight > 0, t.clauses.count <= 64, t.clauses.allSatisfy({ $0.count <= 64 }) else {
                throw fail(q, "expected a positive weight and at most 64 clauses of 64 filters")
            }
            for (c, clause) in t.clauses.enumerated() {
                for (f, slot) in clause.enumerated() {
                    try filter("\(q).clauses[\(c)][\(f)]", key: slot.key, type: slot.type, op: slot.op, pass: [.init(rate: 0, weight: 1)])
                }
            }
            let filters = t.clauses.reduce(0) { $0 + $1.count }
            guard !t.rows.isEmpty, t.rows.count <= 64 else { throw fail(q + ".rows", "expected 1 to 64 rows") }
            for (r, row) in t.rows.enumerated() {
                guard row.weight > 0, row.rates.count == filters else {
                    throw fail("\(q).rows[\(r)]", "expected a positive weight and \(filters) rates, one per filter")
                }
                for (j, rate) in row.rates.enumerated() { try share(rate, "\(q).rows[\(r)].rates[\(j)]") }
                guard row.present.count == filters else { throw fail("\(q).rows[\(r)].present", "expected \(filters) shares, one per filter") }
                for (j, v) in row.present.enumerated() { try share(v, "\(q).rows[\(r)].present[\(j)]") }
                guard row.correlation.isFinite, row.correlation >= 0, row.correlation <= 1e6 else {
                    throw fail("\(q).rows[\(r)].correlation", "expected a ratio from 0 to 1e6")
                }
            }
        }
        if !widths.isEmpty || clauses.count > 1 {
            guard !classes.isEmpty else { throw fail(p + ".classes", "clauses need at least one filter class") }
        }
    }
}

extension TwinShape {
    /// The shape as JSON, keys sorted (the same shape always gives the same bytes).
    public var json: JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Shapes hold finite numbers only (validated or fitted); strings stand in for any other.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(self), let value = try? JSONParser.parse(Array(data)) else { return .object([]) }
        return value
    }

    /// Mean properties an event of a custom-event name or purchase carries (for memory estimates).
    public var meanProperties: Double {
        func carried(_ f: Filters?) -> Double { (f?.presence ?? []).reduce(0) { $0 + $1.members * $1.share } }
        let named = names.bins.reduce(0) { $0 + $1.share * carried($1.filters) }
        return max(named, carried(purchases))
    }

    /// Mean filters per condition with filters (for memory estimates).
    public var meanFilters: Double {
        let groups = names.bins.compactMap(\.filters) + [purchases]
        return groups.map { f in
            let clauses = f.clauses.enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element }
            let width = f.widths.enumerated().reduce(0.0) { $0 + Double($1.offset + 1) * $1.element }
            return clauses * max(width, 1)
        }.max() ?? 0
    }
}

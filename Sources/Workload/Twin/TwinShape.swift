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
    static let maxKeys = 256
    /// Bins of rank 2^b − 1 ..< 2^(b+1) − 1: 40 cover a trillion members.
    static let maxBins = 40
    static let maxHeavy = 16
    static let maxDistinct = 1 << 24
    /// Any count or weight: a million triggers of 64 conditions.
    static let maxCount = CorpusDecoder.maxTriggers * 64
    /// Filters of a template; clauses and filters per clause of the rest's mix (counts past them are
    /// folded into the last); filter classes and templates per group.
    static let maxTemplateFilters = 8
    static let maxClauses = 16
    static let maxWidth = 16
    static let maxClasses = 4096
    static let maxTemplates = 256
    /// Event times and their span, in seconds (microsecond epochs fit).
    static let maxTime = 1e18

    /// The bin of rank `r`: ⌊log2(r + 1)⌋.
    public static func bin(ofRank r: Int) -> Int { Int.bitWidth - 1 - (r + 1).leadingZeroBitCount }

    /// The ranks of bin `b` of a population of `count`.
    public static func binRange(_ b: Int, count: Int) -> Range<Int> {
        let lo = min((1 << b) - 1, count), hi = min((1 << (b + 1)) - 1, count)
        return lo..<hi
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

    /// Filters per condition of the group with the most (for memory estimates): its templates by
    /// weight and the rest's mean, at the largest clause count and width its mix allows.
    public var meanFilters: Double {
        let groups = names.bins.compactMap(\.filters) + [names.unseen.filters, purchases, anyPurchases].compactMap { $0 }
        return groups.map { f in
            let templated = f.templates.reduce(0) { $0 + $1.weight }
            let templateFilters = f.templates.reduce(0.0) { $0 + Double($1.weight * $1.clauses.reduce(0) { $0 + $1.count }) }
            let clauses = Double(f.clauses.lastIndex { $0 > 0 } ?? 0), width = Double((f.widths.lastIndex { $0 > 0 } ?? 0) + 1)
            return max(templated > 0 ? templateFilters / Double(templated) : 0, clauses * width)
        }.max() ?? 0
    }
}

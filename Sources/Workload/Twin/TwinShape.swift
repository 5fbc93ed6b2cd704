import Foundation
import TriggerKit

/// The shape of someone's data, fitted by `bench fit` (docs/harness.md, "Your data's twin"): the
/// figures that decide what matching costs, and no string of the data. Names, keys and values are
/// referred to by rank or index; the generator makes synthetic ones.
package struct TwinShape: Codable, Sendable, Equatable {
    /// The trigger count the condition counts below were fitted at; a spec's `triggers` scales them.
    package var fittedTriggers: Int
    /// Conditions per trigger: share of triggers with 1, 2, 3, … conditions.
    package var conditionsPerTrigger: [Double]
    /// Share of triggers with a time window, and the mean share of the event span a window covers.
    package var windows: Windows
    /// Seconds from the first event to the last, and where the first one is (epoch seconds).
    package var time: Time
    /// Custom-event names, ranked by how often events carry them.
    package var names: Ranked
    /// Purchased products, ranked likewise; their properties and the filters of conditions on one
    /// product are `purchases`, those of conditions on any product `anyPurchases` (they see every
    /// purchase, so they are kept apart).
    package var products: Ranked
    package var purchases: Filters
    package var anyPurchases: Filters
    /// Push campaigns, ranked likewise.
    package var campaigns: Ranked
    package var push: Push
    /// Conditions on session starts.
    package var sessionConditions: Int
    /// Event property keys, by index (`p0`, `p1`, … in the twin).
    package var keys: [Key]

    package struct Windows: Codable, Sendable, Equatable {
        package var share: Double
        package var coverage: Double
    }

    package struct Time: Codable, Sendable, Equatable {
        package var start: Double
        package var span: Double
    }

    /// A population ranked by frequency (rank 0 the most frequent), in logarithmic bins: bin b holds
    /// ranks 2^b − 1 ..< 2^(b+1) − 1. The bins drive the generator; `zipf` and `fitKS` say how well a
    /// single Zipf law would describe it.
    package struct Ranked: Codable, Sendable, Equatable {
        package var count: Int
        package var zipf: Double
        /// Kolmogorov–Smirnov distance between the ranks' distribution and Zipf(`zipf`).
        package var fitKS: Double
        package var bins: [Bin]
        /// Conditions on members no event carries (names only triggers know).
        package var unseen: Bin
        /// Conditions on any member (a null product or campaign).
        package var anyConditions: Int
    }

    package struct Bin: Codable, Sendable, Equatable {
        /// Share of this population's events whose member is in the bin.
        package var share: Double
        /// Conditions on members of the bin, and how many members have one.
        package var conditions: Int
        package var targeted: Int
        /// What events of the bin carry and what its conditions test (custom-event names only).
        package var filters: Filters?
        /// The members with the most conditions (up to 16, the bin's first ranks in the twin): each one's
        /// conditions and share of the bin's events. The other targeted members share the rest evenly.
        package var heavy: [Heavy]?
    }

    package struct Heavy: Codable, Sendable, Equatable {
        package var conditions: Int
        package var share: Double
        /// The keys this member's events carry, and on what share of them.
        package var presence: [KeyShare]?
    }

    /// The properties events of one group carry and the filters its conditions hold.
    package struct Filters: Codable, Sendable, Equatable {
        /// Which keys the group's events carry (with a non-null value).
        package var presence: [KeyShare]
        /// The most frequent condition structures (up to 256), whole: a small trigger set is all templates.
        package var templates: [Template]
        /// The other conditions as a mix: share with 0, 1, 2, … clauses, share of clauses with 1, 2,
        /// … filters, and the filters' (key, type, operator) classes, each with how often it held.
        package var clauses: [Double]
        package var widths: [Double]
        package var classes: [FilterClass]
        /// Mean share of events a multi-clause condition held on, over the share its clauses would
        /// give if independent (1 when properties are independent; correlated properties move it).
        package var correlation: Double
    }

    /// A key carried by a share of the group's members (weighted by their events), present on a share
    /// of the events of the members that carry it.
    package struct KeyShare: Codable, Sendable, Equatable {
        package var key: Int
        package var members: Double
        package var share: Double
    }

    /// A condition structure: clauses of filter slots, its number of conditions, and the pass rates
    /// its conditions' filters had together (rows), so that the bounds of a range stay a band.
    package struct Template: Codable, Sendable, Equatable {
        package var weight: Int
        package var clauses: [[Slot]]
        package var rows: [Row]
    }

    package struct Slot: Codable, Sendable, Equatable {
        package var key: Int
        package var type: String
        package var op: String
    }

    /// Conditions of a template whose filters held about as often: each filter's mean pass rate, in
    /// the template's order, and how often the conditions held over what independent clauses would give.
    package struct Row: Codable, Sendable, Equatable {
        package var weight: Int
        package var rates: [Double]
        /// Share of the member's events that carried each filter's key.
        package var present: [Double]
        package var correlation: Double
    }

    package struct FilterClass: Codable, Sendable, Equatable {
        /// A key index, or -1 for a key no event carries.
        package var key: Int
        package var type: String
        package var op: String
        package var weight: Int
        /// Pass rates seen, as (rate, weight) centroids.
        package var pass: [Centroid]
    }

    package struct Centroid: Codable, Sendable, Equatable {
        package var rate: Double
        package var weight: Int
    }

    package struct Push: Codable, Sendable, Equatable {
        /// Share of push clicks without a campaign, and with a tapped button.
        package var withoutCampaign: Double
        package var withAction: Double
        /// Share of push conditions that name a button.
        package var conditionsWithAction: Double
        /// Tapped buttons ranked by how often clicks carry them (each one's share of clicks with a
        /// button), and how many conditions name the button of each rank, then buttons no click has.
        package var actions: [Double]
        package var actionConditions: [Int]
    }

    /// One property key: its values' type and distribution.
    package struct Key: Codable, Sendable, Equatable {
        package var type: String
        /// Numbers: range, distinct values and whether all are integers; the most frequent values as
        /// [value, share] atoms, and quantiles (0, 1/16, …, 1) of the other values.
        package var min: Double?
        package var max: Double?
        package var distinct: Int?
        package var integer: Bool?
        package var atoms: [[Double]]?
        package var quantiles: [Double]?
        /// Strings: how many values repeat, their shares by logarithmic rank bin (as names' bins), the
        /// Zipf exponent that would describe them, and the share of values seen only once (fresh).
        package var bins: [Double]?
        package var zipf: Double?
        package var fresh: Double?
        /// Booleans: share of `true`.
        package var trueShare: Double?
        /// Dates: offsets from the event's time, seconds (min, max).
        package var offsetMin: Double?
        package var offsetMax: Double?
        /// A key whose values come in several types: the others, each with its `share` of the key's
        /// values (the key's own type takes the rest). Only in `keys`, one level deep.
        package var others: [Key]?
        package var share: Double?

        /// Share of the key's values of its own type: what its `others` leave.
        package var ownShare: Double { Swift.max(0, 1 - (others ?? []).reduce(0) { $0 + ($1.share ?? 0) }) }
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
    package static func bin(ofRank r: Int) -> Int { Int.bitWidth - 1 - (r + 1).leadingZeroBitCount }

    /// The ranks of bin `b` of a population of `count`.
    package static func binRange(_ b: Int, count: Int) -> Range<Int> {
        let lo = min((1 << b) - 1, count), hi = min((1 << (b + 1)) - 1, count)
        return lo..<hi
    }
}

extension TwinShape {
    /// The shape as JSON, keys sorted (the same shape always gives the same bytes).
    package var json: JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Shapes hold finite numbers only (validated or fitted); strings stand in for any other.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(self), let value = try? JSONValue.parse(Array(data)) else { return .object([]) }
        return value
    }

    /// Mean properties an event of a custom-event name or purchase carries (for memory estimates).
    package var meanProperties: Double {
        func carried(_ f: Filters?) -> Double { (f?.presence ?? []).reduce(0) { $0 + $1.members * $1.share } }
        let named = names.bins.reduce(0) { $0 + $1.share * carried($1.filters) }
        return max(named, carried(purchases))
    }

    /// Filters per condition of the group with the most (for memory estimates): its templates by
    /// weight and the rest's mean, at the largest clause count and width its mix allows.
    package var meanFilters: Double {
        let groups = names.bins.compactMap(\.filters) + [names.unseen.filters, purchases, anyPurchases].compactMap { $0 }
        return groups.map { f in
            let templated = f.templates.reduce(0) { $0 + $1.weight }
            let templateFilters = f.templates.reduce(0.0) { $0 + Double($1.weight * $1.clauses.reduce(0) { $0 + $1.count }) }
            let clauses = Double(f.clauses.lastIndex { $0 > 0 } ?? 0), width = Double((f.widths.lastIndex { $0 > 0 } ?? 0) + 1)
            return max(templated > 0 ? templateFilters / Double(templated) : 0, clauses * width)
        }.max() ?? 0
    }
}

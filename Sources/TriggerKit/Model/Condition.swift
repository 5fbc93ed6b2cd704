/// One way a trigger can fire; a trigger fires when any of its conditions matches.
public enum Condition: Sendable {
    case customEvent(name: String, filters: FilterCNF)
    /// `productID` nil is Any Purchase.
    case purchase(productID: String?, filters: FilterCNF)
    case sessionStart
    /// `campaignID` nil matches any push click; `actionID` restricts to one button.
    case pushClick(campaignID: String?, actionID: String?)

    public var typeName: String {
        switch self {
        case .customEvent: return "custom_event"
        case .purchase: return "purchase"
        case .sessionStart: return "session_start"
        case .pushClick: return "push_click"
        }
    }

    public var filters: FilterCNF {
        switch self {
        case .customEvent(_, let f), .purchase(_, let f): return f
        case .sessionStart, .pushClick: return FilterCNF(clauses: [])
        }
    }
}

/// Property filters in conjunctive normal form: every clause must hold, a clause holds when any filter does.
///
/// Stored flat (every filter in one array, clause after clause, and where each clause ends): a range
/// subscription is twenty one-filter clauses, and an array per clause was most of a large corpus's memory.
public struct FilterCNF: Sendable {
    /// Every filter, clause after clause.
    public private(set) var filters: [Filter]
    /// The index in `filters` past each clause's last filter.
    private var ends: [Int32]

    public init(clauses: [[Filter]]) {
        filters = clauses.flatMap { $0 }
        var end: Int32 = 0
        ends = clauses.map { end += Int32($0.count); return end }
    }

    /// An empty CNF to fill with `append(clause:)`.
    public init(reservingFilters filters: Int, clauses: Int) {
        self.filters = []
        self.filters.reserveCapacity(filters)
        ends = []
        ends.reserveCapacity(clauses)
    }

    /// Adds a clause made of the filters appended since the last clause.
    public mutating func append(_ filter: Filter) { filters.append(filter) }
    public mutating func closeClause() { ends.append(Int32(filters.count)) }

    public var isEmpty: Bool { ends.isEmpty }

    /// Whether every clause has a filter that `holds` (told the filter and its index in `filters`),
    /// walked over the flat arrays: the interpreting matchers call it per candidate, and a clause
    /// view per clause cost them 5 % more instructions.
    @inline(__always)
    package func everyClauseHolds(_ holds: (Filter, Int) -> Bool) -> Bool {
        filters.withUnsafeBufferPointer { f in
            ends.withUnsafeBufferPointer { e in
                var start = 0
                for end in e {
                    var i = start
                    while i < Int(end), !holds(f[i], i) { i += 1 }
                    if i == Int(end) { return false }
                    start = Int(end)
                }
                return true
            }
        }
    }

    /// The clauses, each a collection of filters (no array is made).
    public var clauses: Clauses { Clauses(filters: filters, ends: ends) }

    public struct Clauses: RandomAccessCollection, Sendable {
        let filters: [Filter]
        let ends: [Int32]
        public var startIndex: Int { 0 }
        public var endIndex: Int { ends.count }
        public subscript(i: Int) -> FilterClause {
            FilterClause(filters: filters, start: i == 0 ? 0 : Int(ends[i - 1]), end: Int(ends[i]))
        }
    }
}

/// One clause of a `FilterCNF`: its filters, indexed from 0.
public struct FilterClause: RandomAccessCollection, Sendable {
    let filters: [Filter]
    let start: Int
    let end: Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { end - start }
    public subscript(i: Int) -> Filter { filters[start + i] }
}

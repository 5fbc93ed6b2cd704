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
public struct FilterCNF: Sendable {
    public var clauses: [[Filter]]
    public init(clauses: [[Filter]]) { self.clauses = clauses }
    public var isEmpty: Bool { clauses.isEmpty }
}

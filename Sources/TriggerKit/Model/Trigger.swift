/// One in-app message trigger from a corpus (docs/semantics.md, "Triggers"), validated.
public struct Trigger: Sendable {
    public var id: String
    public var priority: Double
    /// Inclusive window bounds in epoch seconds; nil is open.
    public var startTime: Double?
    public var endTime: Double?
    /// Seconds from trigger time to due time.
    public var delay: Double
    /// Seconds from trigger time after which the message is discarded; nil means `delay + 30`.
    public var timeout: Double?
    /// -1 once ever, 0 always, N seconds since this trigger last displayed.
    public var reEligibility: Double
    /// Overrides the corpus-wide minimum interval for this trigger when set.
    public var minSecondsSinceLastTrigger: Double?
    public var conditions: [Condition]
    public var message: Message

    public init(
        id: String, priority: Double = 0, startTime: Double? = nil, endTime: Double? = nil,
        delay: Double = 0, timeout: Double? = nil, reEligibility: Double = -1,
        minSecondsSinceLastTrigger: Double? = nil, conditions: [Condition], message: Message = Message()
    ) {
        self.id = id
        self.priority = priority
        self.startTime = startTime
        self.endTime = endTime
        self.delay = delay
        self.timeout = timeout
        self.reEligibility = reEligibility
        self.minSecondsSinceLastTrigger = minSecondsSinceLastTrigger
        self.conditions = conditions
        self.message = message
    }

    /// Seconds after the trigger time at which the message expires.
    public var effectiveTimeout: Double { timeout ?? (delay + 30) }

    /// Whether `time` lies inside the trigger's inclusive window.
    @inlinable
    public func windowHolds(_ time: Double) -> Bool {
        if let s = startTime, time < s { return false }
        if let e = endTime, time > e { return false }
        return true
    }
}

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

/// One property test: a typed operator and its constant(s).
public struct Filter: Sendable {
    public var property: String
    public var type: PropertyType
    public var op: FilterOperator
    public var operand: Operand

    public init(property: String, type: PropertyType, op: FilterOperator, operand: Operand) {
        self.property = property
        self.type = type
        self.op = op
        self.operand = operand
    }

    /// The constant a filter compares with, already typed at load time.
    public enum Operand: Sendable {
        case none
        case number(PropertyValue)
        case numbers([PropertyValue])
        case string(String)
        case strings([String])
        case bool(Bool)
        /// Epoch seconds for `before`/`after`, or a duration in seconds for relative date operators.
        case seconds(Double)
        case regex(CompiledRegex)
    }
}

/// Filter operators (docs/semantics.md, "Triggers"); which ones a type allows is `FilterOperator.allowed(for:)`.
public enum FilterOperator: String, Sendable, CaseIterable {
    case eq, ne, gt, gte, lt, lte
    case `in` = "in"
    case notIn = "not_in"
    case exists
    case notExists = "not_exists"
    case regex
    case notRegex = "not_regex"
    case before, after
    case lessThanSecondsAgo = "less_than_seconds_ago"
    case moreThanSecondsAgo = "more_than_seconds_ago"
    case inLessThanSeconds = "in_less_than_seconds"
    case inMoreThanSeconds = "in_more_than_seconds"

    public static func allowed(for type: PropertyType) -> [FilterOperator] {
        switch type {
        case .number: return [.eq, .ne, .gt, .gte, .lt, .lte, .in, .notIn, .exists, .notExists]
        case .string: return [.eq, .ne, .regex, .notRegex, .in, .notIn, .exists, .notExists]
        case .boolean: return [.eq, .ne, .exists, .notExists]
        case .date:
            return [.before, .after, .lessThanSecondsAgo, .moreThanSecondsAgo, .inLessThanSeconds,
                    .inMoreThanSeconds, .exists, .notExists]
        }
    }

    /// On a missing property (docs/semantics.md, "Triggers") exactly these operators hold.
    public var holdsOnMissing: Bool {
        switch self {
        case .ne, .notRegex, .notIn, .notExists: return true
        default: return false
        }
    }
}

/// The in-app message a trigger shows.
public struct Message: Sendable, Equatable {
    public enum Orientation: String, Sendable { case any, portrait, landscape }

    public var type: String
    public var orientation: Orientation
    /// Asset URLs to load before display.
    public var assets: [String]
    /// Key-value pairs the app reads from the message.
    public var extras: [String: String]

    public init(type: String = "modal", orientation: Orientation = .any, assets: [String] = [], extras: [String: String] = [:]) {
        self.type = type
        self.orientation = orientation
        self.assets = assets
        self.extras = extras
    }
}

/// A validated corpus: the trigger set plus its settings. Immutable once loaded.
public final class TriggerSet: Sendable {
    public let triggers: [Trigger]
    /// Seconds required between displays; 0 disables the interval.
    public let minimumTriggerInterval: Double
    /// Trigger id to corpus index.
    public let indexByID: [String: Int]
    /// The action-button categories push payloads may name: the defaults plus the corpus's custom ones.
    public let actionCategories: ActionCategories

    public init(triggers: [Trigger], minimumTriggerInterval: Double = 30, actionCategories: ActionCategories = .standard) {
        self.triggers = triggers
        self.minimumTriggerInterval = minimumTriggerInterval
        self.actionCategories = actionCategories
        var map: [String: Int] = [:]
        map.reserveCapacity(triggers.count)
        for (i, t) in triggers.enumerated() { map[t.id] = i }
        self.indexByID = map
    }
}

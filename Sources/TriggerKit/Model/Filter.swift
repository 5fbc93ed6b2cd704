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
        case .number: return allowedForNumber
        case .string: return allowedForString
        case .boolean: return allowedForBoolean
        case .date: return allowedForDate
        }
    }

    // Made once: a corpus asks for them once per filter.
    static let allowedForNumber: [FilterOperator] = [.eq, .ne, .gt, .gte, .lt, .lte, .in, .notIn, .exists, .notExists]
    static let allowedForString: [FilterOperator] = [.eq, .ne, .regex, .notRegex, .in, .notIn, .exists, .notExists]
    static let allowedForBoolean: [FilterOperator] = [.eq, .ne, .exists, .notExists]
    static let allowedForDate: [FilterOperator] = [
        .before, .after, .lessThanSecondsAgo, .moreThanSecondsAgo, .inLessThanSeconds, .inMoreThanSeconds, .exists, .notExists,
    ]

    /// On a missing property (docs/semantics.md, "Triggers") exactly these operators hold.
    public var holdsOnMissing: Bool {
        switch self {
        case .ne, .notRegex, .notIn, .notExists: return true
        default: return false
        }
    }
}

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

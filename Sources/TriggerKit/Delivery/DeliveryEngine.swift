/// The stateful delivery engine of one user/device (docs/semantics.md, "Delivery", rules 1–9): eligibility, the minimum
/// interval, priority, delay and timeout, and the LIFO message stack with re-enqueue and discard.
///
/// Time is injected: the engine has no clock of its own. Every event carries its time, and
/// `advance(to:)` moves the engine's clock forward, firing due messages and auto-dismissals in
/// time order, so tests and replays are deterministic. Not thread-safe: one engine per device.
///
/// ```swift
/// let set = try CorpusDecoder.decode(bytes: corpusBytes)        // [UInt8]; a path-precise InputError if malformed
/// let engine = DeliveryEngine(triggerSet: set)                  // matches with `compiled` (`defaultMatcher`)
/// let event = try EventDecoder.decode(line: Array(line.utf8))   // one JSONL event line
/// if let outcome = engine.handle(event) {                       // nil while a sync is in flight
///     print(outcome.matched, outcome.winner ?? -1)              // corpus indices matched, and the one shown
/// }
/// engine.beginSync()                                            // a new set is on its way…
/// let held = try engine.completeSync(with: delta)               // …a `TriggerSetDelta` lands; the events held meanwhile are matched
/// ```
public final class DeliveryEngine {
    /// What an engine matches with unless told otherwise: `compiled`, the fast general strategy
    /// (`reference`, the oracle, is about 500× slower per event).
    public static let defaultMatcher: @Sendable (TriggerSet) -> (Event) -> [Int] =
        StrategyRegistry.eventMatcher(StrategyRegistry.named(StrategyRegistry.defaultStrategyName)!)

    /// Settings that shape delivery but are not part of a corpus.
    public struct Configuration: Sendable {
        /// A shown message is dismissed automatically after this many seconds; nil = only by `dismiss()`.
        public var displaySeconds: Double?
        public init(displaySeconds: Double? = nil) { self.displaySeconds = displaySeconds }
    }

    public private(set) var triggerSet: TriggerSet
    public private(set) var now: Double
    public private(set) var appState: AppState = .foreground
    public private(set) var orientation: DeviceOrientation = .portrait
    /// The message on screen, if any.
    public private(set) var showing: PendingMessage?
    /// The LIFO stack of messages waiting for the presenter; the last element is the top.
    public private(set) var stack: [PendingMessage] = []
    /// When any message was last displayed (starts the interval clock).
    public private(set) var lastDisplayAt: Double?
    /// When each trigger (by id) last displayed (starts its re-eligibility clock).
    public private(set) var lastDisplayOfTrigger: [String: Double] = [:]

    public weak var delegate: DeliveryDelegate?
    public let configuration: Configuration

    private var matcher: (Event) -> [Int]
    private let makeMatcher: (TriggerSet) -> (Event) -> [Int]
    /// Triggered messages waiting for their delay, in scheduling order.
    public private(set) var scheduled: [(due: Double, message: PendingMessage)] = []
    /// When the message on screen goes away by itself (`Configuration.displaySeconds`); nil = on dismiss only.
    public private(set) var autoDismissAt: Double?
    private var records: [DisplayRecord] = []
    private var syncInFlight = false
    /// Delta syncs completed so far; each waiting message records the count it was made at.
    public private(set) var syncGeneration = 0
    /// The generation at which a delta last removed each trigger: a waiting message of that trigger made
    /// before it is discarded when the presenter reaches it. Pruned to triggers that still have one.
    public private(set) var removedAt: [String: Int] = [:]
    private var eventsDuringSync: [Event] = []

    /// - Parameters:
    ///   - makeMatcher: builds the matching function (corpus indices in corpus order) for a trigger set;
    ///     `compiled` by default (`defaultMatcher`). Called again whenever a new set lands.
    public init(
        triggerSet: TriggerSet, startTime: Double = 0, configuration: Configuration = Configuration(),
        makeMatcher: @escaping (TriggerSet) -> (Event) -> [Int] = DeliveryEngine.defaultMatcher
    ) {
        self.triggerSet = triggerSet
        self.now = startTime
        self.configuration = configuration
        self.makeMatcher = makeMatcher
        self.matcher = makeMatcher(triggerSet)
    }

    // MARK: - Time

    /// Moves the clock to `time`, displaying due messages and auto-dismissing shown ones on the way.
    /// Time never goes backwards: an earlier `time` leaves the clock where it is.
    public func advance(to time: Double) {
        while true {
            let nextDue = scheduled.indices.min { scheduled[$0].due < scheduled[$1].due }
            let dueTime = nextDue.map { scheduled[$0].due }
            // At equal times a dismissal comes first, so the due message finds the screen free.
            if let dismissAt = autoDismissAt, dismissAt <= time, dueTime.map({ dismissAt <= $0 }) ?? true {
                now = max(now, dismissAt)
                showing = nil
                autoDismissAt = nil
                continue
            }
            guard let i = nextDue, let due = dueTime, due <= time else { break }
            let message = scheduled.remove(at: i).message
            now = max(now, due)
            place(message)
            presenterAsks()
        }
        now = max(now, time)
    }

    /// Display records produced since the last call, in the order they happened.
    public func drainRecords() -> [DisplayRecord] {
        defer { records.removeAll(keepingCapacity: true) }
        return records
    }

    // MARK: - Device state

    public func setAppState(_ state: AppState, at time: Double) {
        advance(to: time)
        appState = state
    }

    public func setOrientation(_ value: DeviceOrientation, at time: Double) {
        advance(to: time)
        orientation = value
    }

    /// The user (or the app) closed the message on screen.
    public func dismiss(at time: Double) {
        advance(to: time)
        showing = nil
        autoDismissAt = nil
    }

    // MARK: - Events

    /// Delivers one event; returns nil when a trigger-set sync is in flight (the event is matched
    /// against the new set once `completeSync(with:)` lands it).
    @discardableResult
    public func handle(_ event: Event) -> DeliveryOutcome? {
        advance(to: event.time)
        if syncInFlight {
            eventsDuringSync.append(event)
            return nil
        }
        return deliver(event)
    }

    private func deliver(_ event: Event) -> DeliveryOutcome {
        let matched = matcher(event)
        let triggers = triggerSet.triggers
        var verdicts = [DeliveryOutcome.Verdict?](repeating: nil, count: matched.count)
        var eligible: [Int] = []  // positions in `matched`
        var anyReEligible = false
        for (k, index) in matched.enumerated() {
            let trigger = triggers[index]
            if let last = lastDisplayOfTrigger[trigger.id], !isReEligible(trigger, lastDisplayed: last) {
                verdicts[k] = .notReEligible(rule: trigger.reEligibility, lastDisplayed: last)
                continue
            }
            anyReEligible = true
            if let interval = throttleInterval(trigger) {
                verdicts[k] = .throttled(interval: interval, since: now - lastDisplayAt!)
                continue
            }
            eligible.append(k)
        }
        var outcome = DeliveryOutcome(kind: .noMatch, matched: matched, winner: nil, verdicts: [])
        if !anyReEligible {
            outcome.verdicts = verdicts.map { $0! }
            delegate?.noMatchingTrigger(for: event)
            askIfUserCanReceive(event)
            return outcome
        }
        guard !eligible.isEmpty else {
            outcome.kind = .throttled
            outcome.verdicts = verdicts.map { $0! }
            askIfUserCanReceive(event)
            return outcome
        }
        // Highest priority first; on a tie the trigger listed later in the corpus ranks higher.
        let ranked = eligible.sorted { a, b in
            let pa = triggers[matched[a]].priority, pb = triggers[matched[b]].priority
            return pa != pb ? pa > pb : matched[a] > matched[b]
        }
        let winner = triggers[matched[ranked[0]]]
        for k in ranked { verdicts[k] = .lost(to: winner.id) }
        verdicts[ranked[0]] = .won
        outcome.kind = .triggered
        outcome.winner = matched[ranked[0]]
        outcome.verdicts = verdicts.map { $0! }

        var pending = PendingMessage(
            trigger: winner, message: winner.message, triggeredAt: event.time,
            expiresAt: event.time + winner.effectiveTimeout, fallbacks: ranked.dropFirst().map { triggers[matched[$0]] })
        pending.syncGeneration = syncGeneration
        withdrawPending(triggerID: winner.id)
        if winner.delay > 0 {
            scheduled.append((event.time + winner.delay, pending))
            askIfUserCanReceive(event)
        } else {
            place(pending)
            presenterAsks()
        }
        return outcome
    }

    /// A session start or an open from a push is a moment the user can receive a message.
    private func askIfUserCanReceive(_ event: Event) {
        switch event.kind {
        case .sessionStart, .pushClick: presenterAsks()
        case .customEvent, .purchase: break
        }
    }

    /// Rule 1: -1 only once ever, 0 always, N seconds since the trigger last displayed.
    private func isReEligible(_ trigger: Trigger, lastDisplayed: Double) -> Bool {
        if trigger.reEligibility < 0 { return false }
        return now - lastDisplayed >= trigger.reEligibility
    }

    /// Rule 3: the interval that throttles `trigger` now, or nil when it may show.
    private func throttleInterval(_ trigger: Trigger) -> Double? {
        guard let last = lastDisplayAt else { return nil }
        let interval = trigger.minSecondsSinceLastTrigger ?? triggerSet.minimumTriggerInterval
        return now - last < interval ? interval : nil
    }

    /// A trigger that fires again while its earlier message still waits replaces that message:
    /// the stack never holds two messages of one trigger.
    private func withdrawPending(triggerID: String) {
        scheduled.removeAll { $0.message.triggerID == triggerID }
        stack.removeAll { $0.triggerID == triggerID }
    }

    /// Puts a message on top of the stack.
    private func place(_ message: PendingMessage) {
        if let id = message.triggerID { withdrawPending(triggerID: id) }
        stack.append(message)
    }

    // MARK: - The presenter

    /// The presenter asks for the top message of the stack and tries to show it (rule 6).
    private func presenterAsks() {
        guard let top = stack.popLast() else { return }
        attemptDisplay(top)
    }

    private func attemptDisplay(_ message: PendingMessage) {
        if now > message.expiresAt { return record(message, .discarded, .timeout) }
        if appState == .background { return reenqueue(message, .appInBackground) }
        if showing != nil { return reenqueue(message, .messageShowing) }
        if message.message.orientation != .any, message.message.orientation.rawValue != orientation.rawValue {
            return record(message, .discarded, .orientationMismatch)
        }
        if let id = message.triggerID, removed(id, before: message.syncGeneration) { return record(message, .discarded, .triggerRemoved) }
        if let trigger = message.trigger {
            // Rule 5: re-eligibility and the interval are checked again at display time.
            if let last = lastDisplayOfTrigger[trigger.id], !isReEligible(trigger, lastDisplayed: last) {
                return record(message, .discarded, .notReEligible)
            }
            if throttleInterval(trigger) != nil { return record(message, .discarded, .minimumInterval) }
        }
        switch delegate?.beforeDisplay(message) ?? .now {
        case .reenqueue: return reenqueue(message, .delegateReenqueue)
        case .discard: return record(message, .discarded, .delegateDiscard)
        case .now: break
        }
        guard delegate?.loadAssets(of: message) ?? true else {
            record(message, .discarded, .assetFailed)
            return tryNextFallback(after: message)
        }
        showing = message
        autoDismissAt = configuration.displaySeconds.map { now + $0 }
        if let trigger = message.trigger {
            // Rule 7: display time starts both the interval and the re-eligibility clocks.
            lastDisplayAt = now
            lastDisplayOfTrigger[trigger.id] = now
        }
        record(message, .displayed, nil)
    }

    /// After an asset failure, the next fallback whose timeout has not passed is tried.
    private func tryNextFallback(after failed: PendingMessage) {
        var rest = failed.fallbacks[...]
        while let next = rest.popFirst() {
            let expiresAt = failed.triggeredAt + next.effectiveTimeout
            guard now <= expiresAt, !removed(next.id, before: failed.syncGeneration) else { continue }
            withdrawPending(triggerID: next.id)
            var fallback = PendingMessage(
                trigger: next, message: next.message, triggeredAt: failed.triggeredAt,
                expiresAt: expiresAt, fallbacks: Array(rest))
            fallback.syncGeneration = failed.syncGeneration
            return attemptDisplay(fallback)
        }
    }

    private func reenqueue(_ message: PendingMessage, _ reason: DisplayRecord.Reason) {
        stack.append(message)
        record(message, .reenqueued, reason)
    }

    private func record(_ message: PendingMessage, _ display: DisplayRecord.Display, _ reason: DisplayRecord.Reason?) {
        let r = DisplayRecord(time: now, triggerID: message.triggerID, display: display, reason: reason)
        records.append(r)
        delegate?.didRecord(r, message: message)
    }

    // MARK: - Local messages and trigger-set sync

    /// Rule 8: a message the app created goes to the presenter directly, with no trigger bookkeeping.
    public func presentLocal(_ message: Message, at time: Double) {
        advance(to: time)
        attemptDisplay(PendingMessage(trigger: nil, message: message, triggeredAt: now, expiresAt: .infinity, fallbacks: []))
    }

    /// Rule 9: a sync started; events are held until the new set lands.
    public func beginSync() { syncInFlight = true }

    /// Rule 9: the new set replaces the old one atomically; events held during the sync are matched
    /// against it, in arrival order. Returns their outcomes in that order.
    @discardableResult
    public func completeSync(with newSet: TriggerSet) -> [DeliveryOutcome] {
        triggerSet = newSet
        matcher = makeMatcher(newSet)
        syncInFlight = false
        let held = eventsDuringSync
        eventsDuringSync.removeAll()
        return held.map(deliver)
    }

    /// Rule 9 with a delta (docs/deltas.md): the set the delta makes of the current one replaces it
    /// atomically, and the held events are matched against it. What the engine knows of triggers that
    /// remain (last display, re-eligibility) is kept; a removed trigger's waiting messages are discarded
    /// with reason `trigger_removed` when the presenter reaches them. A delta that breaks a rule throws
    /// `InputError` and changes nothing: the sync stays in flight.
    @discardableResult
    public func completeSync(with delta: TriggerSetDelta) throws -> [DeliveryOutcome] {
        let newSet = try triggerSet.applying(delta)
        syncGeneration += 1
        for id in delta.remove { removedAt[id] = syncGeneration }
        // Only removals that can still discard something are kept.
        var waiting = Set<String>()
        for m in stack + scheduled.map(\.message) {
            if let id = m.triggerID { waiting.insert(id) }
            for f in m.fallbacks { waiting.insert(f.id) }
        }
        removedAt = removedAt.filter { waiting.contains($0.key) }
        return completeSync(with: newSet)
    }

    /// Whether a delta removed trigger `id` after generation `generation` (so a message made then is stale).
    private func removed(_ id: String, before generation: Int) -> Bool {
        removedAt[id].map { $0 > generation } ?? false
    }
}

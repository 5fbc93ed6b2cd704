import TriggerKit

/// How many events `reference` checks plugins over when the user did not say: on a large trigger set
/// the oracle takes milliseconds per event, and 50,000 of them would hold a plugin run for many minutes
/// before anything is timed. The prefix shrinks to fit the budget, and the run says so.
enum ReferenceBudget {
    /// Events the oracle can match within `seconds` at the rate measured on the first events, between
    /// `minimum` and `requested`; `note` is told when that is fewer than requested.
    static func fit(_ input: LoadedInput, requested: Int, seconds: Double, minimum: Int = 1000, note: (String) -> Void) -> Int {
        let sample = min(256, requested, input.events.count)
        guard sample > 0, requested > minimum else { return requested }
        let oracle = ReferenceMatcher(input.set)
        let scratch = oracle.makeScratch(for: input.events)
        let start = Clock.now()
        input.events.withView { ReplayLoop.matchOnly(oracle, $0, 0..<sample, scratch) }
        let perEvent = max(Clock.seconds(since: start) / Double(sample), 1e-9)
        let fits = Int(seconds / perEvent)
        guard fits < min(requested, input.events.count) else { return requested }
        let chosen = max(minimum, fits)
        note("reference checks the plugins over the first \(chosen) events, not \(requested): at \(Self.duration(perEvent)) per event the oracle would take \(Self.minutes(perEvent * Double(min(requested, input.events.count)))); --reference-events N chooses")
        return chosen
    }

    static func duration(_ seconds: Double) -> String {
        seconds >= 1e-3 ? "\(Int((seconds * 1e3).rounded())) ms" : "\(Int((seconds * 1e6).rounded())) µs"
    }

    static func minutes(_ seconds: Double) -> String {
        seconds >= 90 ? "about \(Int((seconds / 60).rounded())) minutes" : "about \(Int(seconds.rounded())) s"
    }
}

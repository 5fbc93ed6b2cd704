import TriggerKit

/// What a matcher built outside this package (a plugin) adds to a run. The run code treats every
/// matcher alike and asks this protocol only where such a matcher owes more: the ABI faults it made
/// through a scratch, a check of its own entry points against each other, the facts it reports about
/// itself, and what a user should run to see where it answers wrongly.
protocol ForeignMatcher: Matcher {
    /// Results through `scratch` that broke the ABI (dropped by the host).
    func faults(in scratch: MatchScratch) -> ABIFaults
    /// Throws `MatchedWrongly` when the matcher's entry points disagree with each other or broke the ABI
    /// in the untimed passes (`prefix`: its checksum over the first `referenceEvents` events).
    func checkEntryPoints(name: String, prefix: MatchChecksum, untimedScratches: [MatchScratch], events: EventColumns,
                          referenceEvents: Int) throws
    /// Key–value facts about this build of the matcher, recorded with its rows.
    func facts() -> [[String]]
    /// The command that shows where it disagrees with `reference`.
    var remedy: String { get }
}

/// Results a foreign matcher returned that broke the ABI (dropped): how many, and the first value.
package struct ABIFaults: Sendable {
    package var count = 0
    package var first: Int32 = 0

    func adding(_ other: ABIFaults) -> ABIFaults {
        ABIFaults(count: count + other.count, first: count > 0 ? first : other.first)
    }
}

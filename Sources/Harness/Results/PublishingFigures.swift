/// What the writer of a publication row did while readers matched.
package struct PublishingFigures: Codable, Sendable, Equatable {
    /// Sets published during the timed passes.
    package var publications: Int
    /// Mean milliseconds the writer spent making one published set, by the clock (a writer that shares
    /// the cores with readers is descheduled part of that time) and on its own CPU (what readers lose).
    package var rebuildMsPerPublication: Double?
    package var rebuildCpuMsPerPublication: Double?
    /// Triggers in each delta (`--delta-triggers`); nil when the writer rebuilt whole sets.
    package var deltaTriggers: Int?
    /// Publications that were full builds: all of them without deltas, a delta writer's merges.
    package var fullRebuilds: Int?
    /// Delta publications that were redirected snapshots (docs/deltas.md); nil without deltas and in
    /// results written before they existed.
    package var redirected: Int?
    /// jemalloc `stats.allocated` before the writer started and after it stopped: replaced sets must
    /// be freed, so the two differ by about one set, not by the sets published.
    package var heapBytesBeforePublishing: Int?
    package var heapBytesAfterPublishing: Int?
}

/// What a row's matcher costs in memory: per event in steady state (an untimed, counted pass), and held.
package struct MemoryFigures: Codable, Sendable, Equatable {
    package var allocationsPerEvent: Double
    package var bytesPerEvent: Double
    /// Seconds to build the matcher (interning, compiling, indexing).
    package var buildSeconds: Double
    /// Bytes the built matcher holds (jemalloc: what the building thread allocated and did not free).
    package var matcherBytes: Int?
    /// Bytes of one reader thread's scratch.
    package var scratchBytes: Int?
    /// For a plugin, the host's part of the build (the corpus flattened for the ABI, and written as JSON
    /// for a set a delta made): not in `buildSeconds` and `matcherBytes`, which are the plugin's own.
    package var hostBuildSeconds: Double?
    package var hostBytes: Int?

    package init(allocationsPerEvent: Double, bytesPerEvent: Double, buildSeconds: Double, matcherBytes: Int? = nil, scratchBytes: Int? = nil, hostBuildSeconds: Double? = nil, hostBytes: Int? = nil) {
        self.allocationsPerEvent = allocationsPerEvent
        self.bytesPerEvent = bytesPerEvent
        self.buildSeconds = buildSeconds
        self.matcherBytes = matcherBytes
        self.scratchBytes = scratchBytes
        self.hostBuildSeconds = hostBuildSeconds
        self.hostBytes = hostBytes
    }
}

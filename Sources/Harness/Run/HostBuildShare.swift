/// A matcher part of whose build is the host's work rather than the strategy's: a plugin's corpus,
/// flattened into the ABI's arrays (and written as JSON for a set a delta made) before its `create`.
/// Builds and memory are reported without that share, and the share beside them, so a plugin is
/// charged only for what its own code does.
protocol HostBuildShare {
    /// Seconds and net bytes (still held by the matcher) of the host's part of this build.
    var hostShare: HostShare { get }
    /// Does the host's part once more, untimed, so its allocations can be counted apart.
    func repeatHostWork()
}

/// The host's part of one build.
struct HostShare: Sendable {
    var seconds: Double
    var bytes: Int
}

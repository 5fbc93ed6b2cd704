import Workload

/// What a run replays: a workload generated from its spec, or the user's own corpus and event log.
package enum InputSource: Sendable, Equatable {
    case generated(WorkloadSpec)
    case files(UserFiles)

    /// The events replayed: the spec's count, or the event log's line limit (nil: every line).
    package var eventLimit: Int? {
        switch self {
        case .generated(let spec): spec.events
        case .files(let files): files.lineLimit
        }
    }
}

import Synchronization

/// The memory a decoder may still take, kept while it reads: each large or growing allocation is
/// claimed before it is made, so an input too big for the memory there is refused with one line
/// instead of aborting the process midway (Swift traps when an allocation fails). The room is
/// measured (`MemoryBudget.availableBytes`) at the start and again after every `remeasureStep` bytes
/// claimed, so what is freed, reused or never claimed is counted as the system sees it; between two
/// measurements claims are subtracted from it.
package final class MemoryAllowance: @unchecked Sendable {
    /// Kept free beyond every claim: the runtime, the allocator's slack and the error path itself.
    package static let reserve = 32 << 20
    static let remeasureStep = 16 << 20
    static let measureAbove = 1 << 20

    private struct State {
        /// Room left, as of the last measurement minus the claims since; nil where memory is not known.
        var room: Int?
        var claimedSinceMeasuring = 0
    }

    /// Locked: the pieces of one corpus decode on two threads and claim from one allowance (unchecked
    /// Sendable for `measure`, which is only called under the lock).
    private let state: Locked<State>
    /// Everything claimed or recorded (freed memory is not subtracted: measuring sees that). Outside the
    /// lock, so a `measure` may read it; relaxed: written under the lock, read as a figure only.
    private let recordedBytes = Atomic<Int>(0)
    package var recorded: Int { recordedBytes.load(ordering: .relaxed) }
    /// The room at the start: what the reading may take in all.
    private let startRoom: Int?
    private let measure: () -> Int?

    /// `measure`: the memory this process may still take (tests give a fixed figure).
    package init(measure: @escaping () -> Int? = MemoryBudget.availableBytes) {
        self.measure = measure
        let room = measure()
        state = Locked(State(room: room))
        startRoom = room
    }

    /// No limit: for inputs whose size the caller bounds.
    package static var unlimited: MemoryAllowance { MemoryAllowance(measure: { nil }) }

    /// What is available now beyond the reserve (nil where unknown), measured afresh.
    package func available() -> Int? {
        state.withLock { s in Self.remeasure(&s, measure).map { max($0 - Self.reserve, 0) } }
    }

    private static func remeasure(_ s: inout State, _ measure: () -> Int?) -> Int? {
        s.room = measure()
        s.claimedSinceMeasuring = 0
        return s.room
    }

    /// Whether `bytes` more fit; measured afresh when the running figure says no or is stale, and
    /// before every claim of `measureAbove` or more (the allocator keeps freed blocks mapped, which
    /// only a measurement sees).
    package func fits(_ bytes: Int) -> Bool {
        state.withLock { s in fits(bytes, &s) }
    }

    private func fits(_ bytes: Int, _ s: inout State) -> Bool {
        guard s.room != nil else { return true }
        if bytes >= Self.measureAbove || s.claimedSinceMeasuring >= Self.remeasureStep || !Self.fitsRoom(bytes, s) {
            _ = Self.remeasure(&s, measure)
        }
        return Self.fitsRoom(bytes, s)
    }

    private static func fitsRoom(_ bytes: Int, _ s: State) -> Bool {
        guard let room = s.room else { return true }
        let (need, overflow) = bytes.addingReportingOverflow(Self.reserve)
        return !overflow && need <= room
    }

    /// Records `bytes` allocated.
    package func record(_ bytes: Int) {
        state.withLock { s in record(bytes, &s) }
    }

    private func record(_ bytes: Int, _ s: inout State) {
        recordedBytes.wrappingAdd(bytes, ordering: .relaxed)
        s.claimedSinceMeasuring &+= bytes
        s.room = s.room.map { $0 - bytes }
    }

    /// Claims `bytes` about to be allocated, or throws `Exceeded` when they do not fit.
    package func claim(_ bytes: Int) throws(Exceeded) {
        try state.withLock { (s) throws(Exceeded) in
            guard fits(bytes, &s) else {
                // What the reading took as measured (the claims since corrected by measuring), and this claim.
                let start = startRoom ?? 0, taken = max(start - (s.room ?? 0), 0)
                throw Exceeded(need: taken &+ bytes, available: max(start - Self.reserve, 0))
            }
            record(bytes, &s)
        }
    }

    /// Claimed memory exceeds what is available. `need`: what the reading took, with the claim refused;
    /// `available`: what it could have had in all, beyond the reserve.
    package struct Exceeded: Error, Equatable {
        package let need: Int
        package let available: Int

        /// "needs more than X of memory, and Y is available", for a refusal's reason.
        package var phrase: String {
            "needs more than \(MemoryBudget.format(need)) of memory, and \(MemoryBudget.format(available)) is available"
        }

        /// The same refusal with `need` extrapolated from `done` of `total` parts read (at least the
        /// need so far).
        package func extrapolated(done: Int, of total: Int) -> Exceeded {
            guard done > 0, total > done else { return self }
            let (scaled, overflow) = need.multipliedReportingOverflow(by: total)
            return Exceeded(need: overflow ? Int.max : max(need, scaled / done), available: available)
        }
    }
}

import CTriggerBenchPlugin
import TriggerKit

/// What a plugin row keeps per reader thread, in memory the `MatchScratch` owns: the `tb_events` view
/// handed to the plugin, the plugin's own scratch and the buffer it writes matches into.
struct PluginScratchState {
    var events = tb_events()
    var pluginScratch: UnsafeMutableRawPointer?
    var out: UnsafeMutablePointer<Int32>
    var triggerCount: Int32
    /// `match_batch`'s output: room for `batchCapacity` indices and `batchEvents` end offsets.
    var batchOut: UnsafeMutablePointer<Int32>
    var batchCapacity: Int
    var ends: UnsafeMutablePointer<Int64>
    static let batchEvents = 1024
    /// Indices outside the corpus a plugin returned (dropped; conformance reports them).
    var invalidResults = 0
    var firstInvalidResult: Int32 = 0
    /// Set when `match_batch` returned a count outside 1...count: `match` serves from then on.
    var batchBroken = false
    /// The events' strings in C form: built for the events the scratch was made for.
    var strings: CStringTable
}

/// A typed handle on a `PluginScratchState` behind a raw pointer.
struct PluginScratch {
    let state: UnsafeMutablePointer<PluginScratchState>

    init(raw: UnsafeMutableRawPointer) { state = raw.assumingMemoryBound(to: PluginScratchState.self) }

    init(events: EventColumns, triggerCount: Int) {
        state = .allocate(capacity: 1)
        let strings = CStringTable(events.symbols.strings)
        // At least one event's worst case, as the ABI promises; typically a whole batch's matches.
        let batchCapacity = max(triggerCount, 16 * PluginScratchState.batchEvents)
        state.initialize(to: PluginScratchState(
            out: .allocate(capacity: max(triggerCount, 1)), triggerCount: Int32(triggerCount),
            batchOut: .allocate(capacity: batchCapacity), batchCapacity: batchCapacity,
            ends: .allocate(capacity: PluginScratchState.batchEvents), strings: strings))
        state.pointee.events.strings = UnsafePointer(strings.entries)
        state.pointee.events.string_count = Int32(strings.count)
        state.pointee.events.corpus_string_count = events.corpusSymbolCount
        events.withView { point(at: $0) }
    }

    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(state) }
    var eventsPointer: UnsafePointer<tb_events> {
        UnsafePointer(UnsafeMutableRawPointer(state).advanced(by: MemoryLayout<PluginScratchState>.offset(of: \.events)!)
            .assumingMemoryBound(to: tb_events.self))
    }

    /// Points the `tb_events` view at `view`'s columns (a compare per event when they are the same).
    @inline(__always)
    func point(at view: EventView) {
        guard state.pointee.events.kinds != view.kinds.baseAddress || state.pointee.events.count != view.count else { return }
        if view.strings.count != state.pointee.strings.count {
            // Other events than the scratch was made for (allocates, off the timed path).
            let strings = CStringTable(view.strings)
            state.pointee.strings = strings
            state.pointee.events.strings = UnsafePointer(strings.entries)
            state.pointee.events.string_count = Int32(strings.count)
        }
        state.pointee.events.count = Int64(view.count)
        state.pointee.events.kinds = view.kinds.baseAddress
        state.pointee.events.keys = view.keys.baseAddress
        state.pointee.events.actions = view.actions.baseAddress
        state.pointee.events.times = view.times.baseAddress
        state.pointee.events.property_start = view.propertyStart.baseAddress
        state.pointee.events.property_keys = view.propertyKeys.baseAddress
        state.pointee.events.property_tags = view.propertyTags.baseAddress
        state.pointee.events.property_bits = view.propertyBits.baseAddress
        state.pointee.events.corpus_string_count = view.corpusSymbolCount
    }

    /// Notes a result the ABI does not allow (a wrong count or end offset) as an invalid result.
    func noteInvalid(_ value: Int32) {
        if state.pointee.invalidResults == 0 { state.pointee.firstInvalidResult = value }
        state.pointee.invalidResults += 1
    }

    /// Files the `n` indices the plugin wrote into `scratch`'s results, dropping any outside the corpus.
    @inline(__always)
    func collect(_ n: Int32, from out: UnsafePointer<Int32>, into scratch: MatchScratch) {
        let limit = state.pointee.triggerCount
        for k in 0..<Int(max(0, min(n, limit))) {
            let t = out[k]
            // A duplicate breaks the ABI ("each at most once") as an index outside the corpus does.
            if t >= 0, t < limit, !scratch.alreadyMatched(t) {
                scratch.add(t)
            } else {
                noteInvalid(t)
            }
        }
        if n < 0 || n > limit { noteInvalid(n) }
    }

    func free() {
        state.pointee.out.deallocate()
        state.pointee.batchOut.deallocate()
        state.pointee.ends.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }
}

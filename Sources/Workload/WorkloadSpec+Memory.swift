import Foundation
import TriggerKit

extension WorkloadSpec {
    /// Bytes the struct-of-arrays replay buffers take per event: kind, key, action, time and property
    /// start (21 bytes), plus 13 bytes (key id, tag, payload) per property at the spec's mean count,
    /// plus the fresh strings (`freshStringShare` of the string values), each interned with about
    /// 128 bytes of string and table.
    package var replayBytesPerEvent: Int {
        if let pubsub { return 21 + 13 * pubsub.attributesPerEvent }
        if let shape { return 21 + Int((13 * (shape.meanProperties + 1) + 64 * shape.meanProperties * freshShare(shape)).rounded(.up)) }
        let properties = Double((propertiesPerEvent.lowerBound + propertiesPerEvent.upperBound) / 2 + 1)
        let stringShare = Double(WorkloadGenerator.schema.filter { $0.values.type == .string }.count) / Double(WorkloadGenerator.schema.count)
        return 21 + 13 * Int(properties) + Int((properties * stringShare * freshStringShare * 128).rounded(.up))
    }

    /// Bytes generating and decoding one trigger takes at its peak (the corpus as JSON bytes and as
    /// decoded triggers, both held at once): a bound fitted to measured peaks (docs/reliability.md)
    /// with room to spare. Only an early refusal: generating and decoding claim what they take as
    /// they go, and each build is checked before it starts.
    package var triggerBytes: Int {
        if let pubsub { return 600 + 350 * pubsub.k }
        let filters = shape.map { $0.meanFilters * $0.conditionsPerTrigger.enumerated().reduce(0.0) { $0 + Double($1.offset + 1) * $1.element } }
            ?? Double(filtersPerTrigger.lowerBound + filtersPerTrigger.upperBound) / 2
        return Int(1000 + 300 * filters)
    }

    /// The largest share of a fitted key's values drawn fresh (each interned anew), counting the
    /// strings of a key whose values come in several types at their share.
    func freshShare(_ shape: TwinShape) -> Double {
        shape.keys.map { key in
            (key.type == "string" ? key.ownShare * (key.fresh ?? 0) : 0)
                + (key.others ?? []).filter { $0.type == "string" }.reduce(0) { $0 + ($1.share ?? 0) * ($1.fresh ?? 0) }
        }.max() ?? 0
    }

    /// Refuses a workload whose trigger set and `events` events' replay buffers would not fit in the
    /// memory available now, before anything is allocated (an allocation that fails midway aborts the
    /// process), naming the part that does not fit.
    package func checkReplayBuffersFit(events: Int, file: String) throws {
        guard let available = MemoryBudget.availableBytes() else { return }
        let allowed = MemoryBudget.replayBytes(of: available)
        let total = triggers.addingReportingOverflow(crowdedTriggers)
        let (setBytes, setOverflow) = total.partialValue.multipliedReportingOverflow(by: triggerBytes)
        if total.overflow || setOverflow || setBytes > allowed {
            throw InputError(
                file: file, path: "triggers",
                reason: "\(triggers + crowdedTriggers) triggers need about \(setOverflow ? "more than \(Int.max) bytes" : MemoryBudget.format(setBytes)) to generate and decode (\(triggerBytes) bytes per trigger\(shape == nil && pubsub == nil ? " at \(filtersPerTrigger.lowerBound)–\(filtersPerTrigger.upperBound) filters" : "")), more than the \(MemoryBudget.format(allowed)) a run may give them of the \(MemoryBudget.format(available)) available (a quarter is kept for growth and the run's own tables); lower triggers\(pubsub != nil ? " or pubsub.k" : shape == nil ? " or filters_per_trigger" : "")")
        }
        let (bytes, overflow) = events.multipliedReportingOverflow(by: replayBytesPerEvent)
        guard overflow || bytes > allowed - setBytes else { return }
        let needed = overflow ? "more than \(Int.max) bytes" : MemoryBudget.format(bytes)
        throw InputError(
            file: file, path: "events",
            reason: "\(events) events need about \(needed) of replay buffers (\(replayBytesPerEvent) bytes per event × \(events)) beside the trigger set's \(MemoryBudget.format(setBytes)), more than the \(MemoryBudget.format(allowed)) a run may give both of the \(MemoryBudget.format(available)) available (a quarter is kept for growth and the run's own tables); lower the event count (--events)")
    }
}

import CRE2
import CTriggerBenchPlugin
import Foundation
import TriggerKit

/// A plugin's matcher behind the `Matcher` protocol: timed, counted and checked like a built-in one.
/// It runs in this process, so a plugin that crashes ends the run (the run says which plugin it loaded).
package final class PluginMatcher: Matcher, HostBuildShare, ForeignMatcher, @unchecked Sendable {
    package static let strategyName = "plugin"

    package let triggerSet: TriggerSet
    package let library: PluginLibrary
    private let corpus: FlatCorpus
    /// The plugin's matcher; immutable once built, as the ABI requires of `match`.
    private let handle: UnsafeMutableRawPointer
    private let hostTable: UnsafeMutablePointer<tb_host>
    private let corpusTable: UnsafeMutablePointer<tb_corpus>
    private let vocabularyTable: UnsafeMutablePointer<tb_vocabulary>

    /// The host's part of this build: the corpus written as JSON (for a set a delta made) and flattened
    /// into the ABI's arrays, before the plugin's `create` runs.
    let hostShare: HostShare
    private let vocabulary: Vocabulary
    private let json: () -> [UInt8]
    private let options: [PluginLibrary.Option]

    /// `json`: the corpus text handed to the plugin, made (when it must be written) as the host's work.
    init(_ library: PluginLibrary, set: TriggerSet, vocabulary: Vocabulary, json: @escaping () -> [UInt8], options: [PluginLibrary.Option] = []) throws {
        self.library = library
        triggerSet = set
        self.vocabulary = vocabulary
        self.json = json
        self.options = options
        let started = Clock.now(), heldBefore = AllocatorStats.threadNetBytes()
        corpus = FlatCorpus(set: set, vocabulary: vocabulary, json: json(), options: options)
        // The tables the plugin was given must stay at one address until `destroy`.
        hostTable = .allocate(capacity: 1)
        hostTable.initialize(to: tb_host(regex_search: { compiled, bytes, length in
            trigger_bench_regex_search(OpaquePointer(compiled), bytes, length)
        }))
        corpusTable = .allocate(capacity: 1)
        corpusTable.initialize(to: corpus.corpus)
        vocabularyTable = .allocate(capacity: 1)
        vocabularyTable.initialize(to: corpus.vocabulary)
        hostShare = HostShare(seconds: Clock.seconds(since: started), bytes: AllocatorStats.threadNetBytes() - heldBefore)
        var error = [CChar](repeating: 0, count: 512)
        guard let made = library.table.create(corpusTable, vocabularyTable, hostTable, &error, error.count) else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            hostTable.deallocate()
            corpusTable.deallocate()
            vocabularyTable.deallocate()
            throw InputError(file: library.path, path: Self.refusalPath, reason: "plugin \(library.name) could not build its matcher: \(PrintableText.escaped(reason.isEmpty ? "no reason given" : reason))")
        }
        handle = made
    }

    /// The `path` of the `InputError` a plugin's `create` refusing a corpus throws: a partial plugin's
    /// refusal, which `bench conform` reports per case rather than as a failure of the run.
    static let refusalPath = "create"

    func repeatHostWork() {
        withExtendedLifetime(FlatCorpus(set: triggerSet, vocabulary: vocabulary, json: json(), options: options)) {}
    }

    deinit {
        library.table.destroy(handle)
        hostTable.deallocate()
        corpusTable.deallocate()
        vocabularyTable.deallocate()
    }

    /// What the plugin's `describe` reports about this matcher, in its order (empty without one).
    package func facts() -> [[String]] {
        guard let describe = library.table.describe else { return [] }
        final class Collected { var facts: [[String]] = [] }
        let collected = Collected()
        describe(handle, { context, key, value in
            // Cut and escaped: plugin text reaches terminals and results files.
            let text = { (p: UnsafePointer<CChar>?) in
                p.map { PrintableText.escaped(String(decoding: UnsafeRawBufferPointer(start: $0, count: strnlen($0, 256)), as: UTF8.self)) } ?? ""
            }
            let box = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
            if box.facts.count < 64 { box.facts.append([text(key), text(value)]) }
        }, Unmanaged.passUnretained(collected).toOpaque())
        return collected.facts
    }

    package func makeScratch(for events: EventColumns) -> MatchScratch {
        let scratch = MatchScratch(triggerCount: triggerSet.triggers.count)
        let state = PluginScratch(events: events, triggerCount: triggerSet.triggers.count)
        if let create = library.table.create_scratch {
            state.state.pointee.pluginScratch = create(handle, state.eventsPointer)
        }
        let destroy = library.table.destroy_scratch
        scratch.attach(state.raw) { raw in
            let state = PluginScratch(raw: raw)
            if let p = state.state.pointee.pluginScratch { destroy?(p) }
            state.free()
        }
        return scratch
    }

    /// Indices outside the corpus, bad counts and bad end offsets the plugin returned through `scratch`.
    package static func invalidResults(in scratch: MatchScratch) -> ABIFaults {
        guard let raw = scratch.attachment else { return ABIFaults() }
        let state = PluginScratch(raw: raw).state.pointee
        return ABIFaults(count: state.invalidResults, first: state.firstInvalidResult)
    }

    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        let state = PluginScratch(raw: scratch.attachment!)
        state.point(at: events)
        scratch.begin()
        var candidates: Int64 = 0
        let out = state.state.pointee.out
        let n = library.table.match(handle, state.state.pointee.pluginScratch, state.eventsPointer, Int64(i), out, &candidates)
        scratch.candidates &+= Int(truncatingIfNeeded: candidates)
        state.collect(n, from: out, into: scratch)
    }
}

extension PluginMatcher: BatchMatching {
    func matchBatch(_ range: Range<Int>, in events: EventView, scratch: MatchScratch, into checksum: inout MatchChecksum) {
        var sum = checksum
        matchBatch(range, in: events, scratch: scratch) { sum.add(matchesOf: $0, in: scratch) }
        checksum = sum
    }

    /// Matches `range` through `match_batch` (or `match` when the plugin has none); after each event,
    /// `scratch` holds its matches and `each` is called with its index.
    func matchBatch(_ range: Range<Int>, in events: EventView, scratch: MatchScratch, each: (Int) -> Void) {
        let state = PluginScratch(raw: scratch.attachment!)
        // After one batch broke the ABI, `match` serves this scratch: redoing each batch's work event by
        // event would make the rest of the run about a batch's length slower (the run fails at its end).
        guard let batch = library.table.match_batch, !state.state.pointee.batchBroken else {
            for i in range {
                match(i, in: events, scratch: scratch)
                each(i)
            }
            return
        }
        state.point(at: events)
        let out = state.state.pointee.batchOut, ends = state.state.pointee.ends
        let capacity = state.state.pointee.batchCapacity
        var first = range.lowerBound
        var candidates: Int64 = 0
        while first < range.upperBound {
            let count = min(range.upperBound - first, PluginScratchState.batchEvents)
            let done = Int(batch(handle, state.state.pointee.pluginScratch, state.eventsPointer, Int64(first), Int64(count), out,
                                 Int64(capacity), ends, &candidates))
            guard done >= 1, done <= count else {
                // The ABI requires progress: count the fault and match the rest event by event.
                state.noteInvalid(Int32(clamping: done))
                state.state.pointee.batchBroken = true
                scratch.candidates &+= Int(truncatingIfNeeded: candidates)
                matchBatch(first..<range.upperBound, in: events, scratch: scratch, each: each)
                return
            }
            var start = 0
            for k in 0..<done {
                let end = Int(ends[k])
                scratch.begin()
                if end >= start, end <= capacity {
                    state.collect(Int32(end - start), from: out + start, into: scratch)
                    start = end
                } else {
                    state.noteInvalid(Int32(clamping: end))
                }
                each(first + k)
            }
            first += done
        }
        scratch.candidates &+= Int(truncatingIfNeeded: candidates)
    }
}

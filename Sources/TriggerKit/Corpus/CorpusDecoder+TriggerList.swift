import Foundation
import Synchronization

extension CorpusDecoder {
    /// A list this long or longer is decoded in two pieces on two threads, where there are two cores.
    package static let piecewiseFrom = 2 * JSONScanner.splitEvery

    /// The triggers of `list`, decoded in order with their ids checked unique: a first error is the
    /// one a decode from the first trigger to the last meets first, whether or not the list was read
    /// in two pieces at once (the second piece's errors wait for the first piece to finish clean).
    static func decodeTriggers(_ list: JSONNode, allowance: MemoryAllowance, progress: Progress?, inPieces: Bool) throws -> [Trigger] {
        guard let (tape, at) = list.tapeEntry, tape.kind(at) == .deferred else {
            let nodes = try list.array(what: "the list of triggers")
            guard nodes.count <= maxTriggers else { throw list.fail("\(nodes.count) triggers; at most \(maxTriggers) are allowed") }
            let piece = TriggerListPiece(total: nodes.count, first: 0, room: nodes.count, documentBytes: 0, allowance, RegexCache())
            for (i, node) in nodes.enumerated() { try piece.add(i, node) }
            return piece.triggers
        }
        let total = tape.count(at)
        guard total <= maxTriggers else { throw list.fail("\(total) triggers; at most \(maxTriggers) are allowed") }
        if inPieces, total >= piecewiseFrom, !tape.splits.isEmpty, ProcessInfo.processInfo.activeProcessorCount > 1 {
            let k = min(max((total / 2 + JSONScanner.splitEvery / 2) / JSONScanner.splitEvery, 1), tape.splits.count)
            do {
                return try decodeInTwo(tape, at, total: total, split: (k * JSONScanner.splitEvery, tape.splits[k - 1]),
                                       allowance: allowance, progress: progress)
            } catch is JSONTape.PieceMisaligned {
                // The scan placed a split inside an element; the list is read in one piece, as it errs.
            } catch is NoSecondThread {}
        }
        let piece = TriggerListPiece(total: total, first: 0, room: total, documentBytes: tape.bytes.count, allowance, RegexCache())
        try decode(tape, at, into: piece, from: nil, until: nil) { progress?($0, tape.bytes.count) }
        return piece.triggers
    }

    /// The first `split.element` triggers here, the rest on a second thread from the split's byte on.
    private static func decodeInTwo(_ tape: JSONTape, _ at: Int, total: Int, split: (element: Int, byte: Int),
                                    allowance: MemoryAllowance, progress: Progress?) throws -> [Trigger] {
        let regexes = RegexTable()
        // The first piece makes room for the whole list, so the second's triggers join it in place.
        let first = TriggerListPiece(total: total, first: 0, room: total, documentBytes: tape.bytes.count, allowance, RegexCache(sharing: regexes))
        let second = TriggerListPiece(total: total, first: split.element, room: total - split.element,
                                      documentBytes: tape.bytes.count, allowance, RegexCache(sharing: regexes))
        let shared = PieceSignals(start: split.byte)
        let work = SecondPiece(tape: tape, at: at, piece: second, split: split, signals: shared)
        let done = DispatchSemaphore(value: 0)
        // Half the main thread's stack: nesting is bounded (a test nests to the limit). No thread (an
        // address-space limit with no room for its stack): the list is read in one piece.
        guard SpawnedThread.start(stackSize: 4 << 20, {
            work.run()
            done.signal()  // the semaphore orders the piece's writes before the first piece reads them
        }) else { throw NoSecondThread() }
        do {
            try decode(tape, at, into: first, from: nil, until: split) { end in
                progress?(end + shared.parsedEnd.load(ordering: .relaxed) - split.byte, tape.bytes.count)
            }
        } catch {
            shared.stop.store(true, ordering: .relaxed)
            done.wait()
            throw error
        }
        done.wait()
        let prefix = tape.path(of: at)
        for (j, trigger) in second.triggers.enumerated() {
            if let earlier = first.firstIndexOfID[trigger.id] {
                throw InputError(path: "\(prefix)[\(split.element + j)].id", reason: "duplicate trigger id, already used by triggers[\(earlier)]",
                                 triggerID: trigger.id)
            }
        }
        if let error = work.error { throw error }
        try first.makeRoom(for: second.triggers.count)
        first.triggers.append(contentsOf: second.triggers)
        return first.triggers
    }

    /// Decodes elements of deferred list `at` into `piece`, telling `progress` the byte reached now and then.
    static func decode(_ tape: JSONTape, _ at: Int, into piece: TriggerListPiece, from: (element: Int, byte: Int)?,
                       until: (element: Int, byte: Int)?, stop: PieceSignals? = nil, progress: (Int) -> Void) throws {
        let element = JSONTape(bytes: tape.bytes, allowance: tape.allowance)
        var i = from?.element ?? 0
        do {
            try tape.forEachDeferredElement(at, into: element, from: from, until: until) {
                if let stop, stop.stop.load(ordering: .relaxed) { throw Stopped() }
                try piece.add(i, JSONNode(tape: element, at: 0))
                i += 1
                if i % progressEvery == 0 { progress(element.parsedEnd) }
            }
        } catch let error as JSONSyntaxError {
            try located { () throws(JSONSyntaxError) in throw error }
        }
    }

    /// The second piece gave up: the first piece failed, and its error is the one reported.
    struct Stopped: Error {}

    /// No thread could start for the second piece.
    struct NoSecondThread: Error {}

    /// What the two pieces tell each other. Relaxed: `stop` only ends work whose result is dropped,
    /// and `parsedEnd` is a figure for the progress line; neither orders other memory.
    final class PieceSignals: Sendable {
        let stop = Atomic<Bool>(false)
        let parsedEnd: Atomic<Int>
        init(start: Int) { parsedEnd = Atomic(start) }
    }

    /// The second piece's work, run on its own thread; its results are read after it signals.
    private final class SecondPiece: @unchecked Sendable {
        let tape: JSONTape, at: Int, piece: TriggerListPiece, split: (element: Int, byte: Int), signals: PieceSignals
        var error: Error?

        init(tape: JSONTape, at: Int, piece: TriggerListPiece, split: (element: Int, byte: Int), signals: PieceSignals) {
            (self.tape, self.at, self.piece, self.split, self.signals) = (tape, at, piece, split, signals)
        }

        func run() {
            do {
                try CorpusDecoder.decode(tape, at, into: piece, from: split, until: nil, stop: signals) { [signals] end in
                    signals.parsedEnd.store(end, ordering: .relaxed)
                }
            } catch {
                self.error = error
            }
        }
    }

    /// The triggers of one piece of the list, in order, each claimed from the allowance before it is
    /// decoded; ids are checked unique within the piece (across pieces by the caller).
    final class TriggerListPiece {
        var triggers: [Trigger] = []
        var firstIndexOfID: [String: Int] = [:]
        let regexes: RegexCache
        let allowance: MemoryAllowance
        /// Triggers in the whole list, this piece's first index, and how many it may make room for.
        let total: Int, first: Int, room: Int
        let documentBytes: Int

        init(total: Int, first: Int, room: Int, documentBytes: Int, _ allowance: MemoryAllowance, _ regexes: RegexCache) {
            (self.total, self.first, self.room, self.documentBytes, self.allowance, self.regexes) = (total, first, room, documentBytes, allowance, regexes)
        }

        func claim(_ bytes: Int, at node: JSONNode?, _ i: Int) throws {
            do { try allowance.claim(bytes) } catch {
                throw InputError(path: node?.path ?? "triggers", reason: "stopped after \(i) of \(total) triggers: decoding them all "
                                 + "\(error.extrapolated(done: i, of: total).phrase); \(memoryFix)")
            }
        }

        /// Room for `more` triggers beyond those held, claimed first.
        func makeRoom(for more: Int) throws {
            guard triggers.count + more > triggers.capacity else { return }
            try claim((triggers.count + 2 * more) * MemoryLayout<Trigger>.stride, at: nil, triggers.count)
            triggers.reserveCapacity(triggers.count + more)
        }

        func add(_ i: Int, _ node: JSONNode) throws {
            // Once the first has decoded (a list of something else is refused by what it holds), and only
            // when it fits: otherwise the array grows by claimed doublings, and is refused where one does
            // not fit. Never room for more than the document could hold: a list of a million numbers in
            // two megabytes reserves nothing like a million triggers.
            if i == first + 1 {
                let reserved = min(room, documentBytes / minimumTriggerBytes)
                if allowance.fits(reserved * MemoryLayout<Trigger>.stride) {
                    allowance.record(reserved * MemoryLayout<Trigger>.stride)
                    triggers.reserveCapacity(reserved)
                }
            }
            if triggers.count == triggers.capacity {
                // Doubling holds the old triggers beside the new buffer.
                try claim(3 * max(triggers.capacity, 8) * MemoryLayout<Trigger>.stride, at: node, i)
                triggers.reserveCapacity(2 * max(triggers.capacity, 8))
            }
            try claim(decodedBytesBound(node), at: node, i)
            let compiled = regexes.compiledBytes
            let trigger = try decodeTrigger(node, regexes)
            allowance.record(regexes.compiledBytes - compiled)
            if let earlier = firstIndexOfID[trigger.id] {
                throw InputError(
                    path: node.path + ".id", reason: "duplicate trigger id, already used by triggers[\(earlier)]",
                    triggerID: trigger.id)
            }
            firstIndexOfID[trigger.id] = i
            triggers.append(trigger)
        }
    }
}

import TriggerKit

extension WorkloadGenerator {
    /// The spec's corpus document, byte for byte `corpusJSON(spec).serialized` and a newline, written
    /// as its triggers are made: `write` is handed pieces of about a megabyte, so generating a million
    /// triggers holds one trigger's tree and one piece, never the document. `progress` is told how
    /// many triggers were written, every 4,096. Returns the number of triggers.
    @discardableResult
    package static func writeCorpus(_ spec: WorkloadSpec, progress: ((Int) -> Void)? = nil,
                                    _ write: ([UInt8]) throws -> Void) throws -> Int {
        var out: [UInt8] = []
        out.reserveCapacity(2 << 20)
        JSONValue.object(corpusHeader(spec)).serialize(into: &out)
        out.removeLast()  // the header's closing brace: the list of triggers is its last member
        out.append(contentsOf: #","triggers":["#.utf8)
        var count = 0
        try forEachTrigger(spec) { trigger in
            if count > 0 { out.append(UInt8(ascii: ",")) }
            trigger.serialize(into: &out)
            count += 1
            if out.count >= 1 << 20 {
                try write(out)
                out.removeAll(keepingCapacity: true)
            }
            if let progress, count & 0xFFF == 0 { progress(count) }
        }
        out.append(contentsOf: "]}\n".utf8)
        try write(out)
        return count
    }

    /// The corpus document's bytes, written as `writeCorpus` writes them (no tree of the whole corpus),
    /// each growth of the buffer claimed from `allowance` first: a set too big for the memory left is
    /// refused in one line, naming the workload, instead of aborting in the allocator.
    package static func corpusBytes(_ spec: WorkloadSpec, allowance: MemoryAllowance = MemoryAllowance()) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let total = spec.triggers + spec.crowdedTriggers
        try writeCorpus(spec) { piece in
            if bytes.count + piece.count > bytes.capacity {
                // The new buffer; the old one was claimed when it grew, and is held while it is copied.
                let capacity = max(2 * bytes.capacity, bytes.count + piece.count)
                do throws(MemoryAllowance.Exceeded) { try allowance.claim(capacity) } catch {
                    throw InputError(file: "workload \(spec.name)", path: "triggers",
                                     reason: "generating \(total) triggers \(error.phrase); lower triggers")
                }
                bytes.reserveCapacity(capacity)
            }
            bytes.append(contentsOf: piece)
        }
        return bytes
    }

    /// The vocabulary events are generated under when they are only written out: an event's bytes do
    /// not depend on its ids, so no corpus need be decoded to give them.
    package static var writingVocabulary: Vocabulary { Vocabulary(symbols: SymbolTable()) }
}

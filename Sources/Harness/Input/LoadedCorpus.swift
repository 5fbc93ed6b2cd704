import Foundation
import TriggerKit
import Workload

/// A corpus file read, validated and fingerprinted.
package struct LoadedCorpus: Sendable {
    package let set: TriggerSet
    package let vocabulary: Vocabulary
    /// The file's bytes: plugins are given the corpus as JSON text.
    package let json: [UInt8]
    package let sha256: String

    package init(path: String) throws {
        try Self.checkRoom(path)
        (set, json) = try CorpusDecoder.document(at: path) { bytes in (try CorpusDecoder.decode(bytes: bytes), bytes) }
        vocabulary = Vocabulary(set)
        sha256 = SHA256.hex(of: json)
    }

    /// The trigger set alone, for commands that need neither the bytes nor a fingerprint; checked
    /// for room first like every corpus the harness reads.
    package static func set(at path: String) throws -> TriggerSet {
        try checkRoom(path)
        return try CorpusDecoder.load(path: path)
    }

    /// Decoding holds the file, its JSON tree and the decoded triggers at once: about this many times
    /// the file's size at its peak (1.02 GB for a 136 MB corpus of 100,000 range subscriptions).
    static let peakPerFileByte = 8

    /// Refuses a corpus file too big to decode in the memory available now, before reading it (an
    /// allocation that fails midway aborts the process).
    package static func checkRoom(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, let available = MemoryBudget.availableBytes() else { return }
        let size = Int(status.st_size)
        guard size <= CorpusDecoder.maxFileBytes else { return }  // refused by its size when read
        let (need, overflow) = size.multipliedReportingOverflow(by: peakPerFileByte)
        guard overflow || need > available else { return }
        throw InputError(file: path, path: "", reason: "decoding a \(MemoryBudget.format(size)) corpus takes about \(peakPerFileByte) times its size (\(MemoryBudget.format(need))), but only \(MemoryBudget.format(available)) of memory is available; load fewer triggers or free memory")
    }
}

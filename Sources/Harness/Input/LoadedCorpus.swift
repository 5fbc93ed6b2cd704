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
        let bytes = try BoundedFile.read(path, limit: CorpusDecoder.maxFileBytes)
        do {
            set = try CorpusDecoder.decode(bytes: bytes)
        } catch let error as InputError {
            throw error.inFile(path)
        }
        vocabulary = Vocabulary(set)
        json = bytes
        sha256 = SHA256.hex(of: bytes)
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

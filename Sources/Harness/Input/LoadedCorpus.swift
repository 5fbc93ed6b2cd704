import Foundation
import TriggerKit
import Workload

/// A corpus file read, validated and fingerprinted.
package struct LoadedCorpus: Sendable {
    package let set: TriggerSet
    package let vocabulary: Vocabulary
    /// The file's bytes (plugins are given the corpus as JSON text); empty when not kept (`text()`).
    package let json: [UInt8]
    package let byteCount: Int
    package let sha256: String
    let path: String

    /// Read and decoded within the memory available: a corpus that would not fit is refused with one
    /// line naming where it stopped fitting (`MemoryAllowance`), never aborted midway. With
    /// `keepingText` false the bytes of a regular file are let go once decoded (a million triggers are
    /// over a gigabyte of JSON) and read again by `text()` if a plugin asks; a pipe's are kept.
    package init(path: String, progress: ProgressLine = ProgressLine(enabled: false), keepingText: Bool = true) throws {
        let allowance = MemoryAllowance()
        let report = progress.corpusLoading()
        let bytes: [UInt8]
        (set, bytes, sha256) = try CorpusDecoder.document(at: path, allowance: allowance) { bytes in
            // Hashed on another core while decoding: a gigabyte takes seconds either way.
            let digest = Background { SHA256.hex(of: bytes) }
            return (try CorpusDecoder.decode(bytes: bytes, allowance: allowance, progress: report), bytes, digest.value())
        }
        vocabulary = Vocabulary(set)
        byteCount = bytes.count
        self.path = path
        json = keepingText || !BoundedFile.isRegularFile(path) ? bytes : []
    }

    /// The corpus as JSON text: the bytes kept, or the file read again and checked to be the one decoded.
    package func text() throws -> [UInt8] {
        if json.count == byteCount { return json }
        let bytes = try BoundedFile.read(path, limit: CorpusDecoder.maxFileBytes)
        guard bytes.count == byteCount, SHA256.hex(of: bytes) == sha256 else {
            throw InputError(file: path, path: "", reason: "changed while the run was using it; run again once nothing writes to it")
        }
        return bytes
    }
}

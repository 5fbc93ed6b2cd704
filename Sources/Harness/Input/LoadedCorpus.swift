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

    /// Read and decoded within the memory available: a corpus that would not fit is refused with one
    /// line naming where it stopped fitting (`MemoryAllowance`), never aborted midway.
    package init(path: String) throws {
        let allowance = MemoryAllowance()
        (set, json) = try CorpusDecoder.document(at: path, allowance: allowance) { bytes in
            (try CorpusDecoder.decode(bytes: bytes, allowance: allowance), bytes)
        }
        vocabulary = Vocabulary(set)
        sha256 = SHA256.hex(of: json)
    }
}

import Foundation
import TriggerKit

/// A corpus file read, validated and fingerprinted.
package struct LoadedCorpus: Sendable {
    package let set: TriggerSet
    package let vocabulary: Vocabulary
    /// The file's bytes: plugins are given the corpus as JSON text.
    package let json: [UInt8]
    package let sha256: String

    package init(path: String) throws {
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
}

import Foundation
import TriggerKit

/// A corpus file read, validated and fingerprinted.
public struct LoadedCorpus: Sendable {
    public let set: TriggerSet
    public let vocabulary: Vocabulary
    /// The file's bytes: plugins are given the corpus as JSON text.
    public let json: [UInt8]
    public let sha256: String

    public init(path: String) throws {
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

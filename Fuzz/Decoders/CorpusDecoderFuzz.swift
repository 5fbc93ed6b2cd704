// libFuzzer target: arbitrary bytes as a corpus file. Decoding must either succeed or throw an
// InputError; a decoded corpus must also compile into every fast matcher's structures.
@testable import TriggerKit

func fuzzCorpusDecoder(_ bytes: [UInt8]) {
    guard let set = try? CorpusDecoder.decode(bytes: bytes) else { return }
    let vocabulary = Vocabulary(set)
    _ = CompiledMatcher(set, vocabulary: vocabulary)
    _ = PredicateIndexMatcher(set, vocabulary: vocabulary)
}

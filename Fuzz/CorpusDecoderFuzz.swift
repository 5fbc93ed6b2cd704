// libFuzzer target: arbitrary bytes as a corpus file. Decoding must either succeed or throw an
// InputError; a decoded corpus must also compile into every fast matcher's structures.
import TriggerKit

func fuzzCorpusDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let set = try? CorpusDecoder.decode(bytes: bytes) else { return 0 }
    let vocabulary = Vocabulary(set)
    _ = CompiledMatcher(set, vocabulary: vocabulary)
    _ = PredicateIndexMatcher(set, vocabulary: vocabulary)
    return 0
}

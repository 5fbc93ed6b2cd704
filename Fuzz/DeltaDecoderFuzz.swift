// libFuzzer target: arbitrary bytes as a trigger-delta/1 document. Decoding must succeed or throw an
// InputError; a decoded delta applied to a small set must be refused by a layered writer exactly when
// TriggerSet.applying refuses it, and otherwise give the same set.
import TriggerKit

let fuzzBaseSet = try! CorpusDecoder.decode(bytes: Array("""
    {"format": "trigger-corpus/1", "triggers": [
      {"id": "a", "conditions": [{"type": "custom_event", "event_name": "open"}]},
      {"id": "b", "priority": 2, "conditions": [{"type": "purchase", "product_id": "p1"}]},
      {"id": "c", "conditions": [{"type": "session_start"}]}]}
    """.utf8))

func fuzzDeltaDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let delta = try? DeltaDecoder.decode(bytes: bytes) else { return 0 }
    let expected = try? fuzzBaseSet.applying(delta)
    let writer = LayeredWriter<CompiledMatcher>(fuzzBaseSet, vocabulary: Vocabulary(fuzzBaseSet))
    let applied = (try? writer.apply(delta)) != nil
    precondition(applied == (expected != nil), "the layered writer and TriggerSet.applying disagree on refusing a delta")
    if let expected {
        precondition(writer.matcher.triggerSet.triggers.map(\.id) == expected.triggers.map(\.id), "the layered writer's set differs")
    }
    return 0
}

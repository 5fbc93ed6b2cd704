// libFuzzer target: arbitrary bytes as one JSONL event line. Decoding must succeed or throw; a decoded
// event must match identically through `reference` and `compiled` over a small fixed corpus.
import TriggerKit

let fuzzCorpus = try! CorpusDecoder.decode(bytes: Array("""
    {"format":"trigger-corpus/1","triggers":[
     {"id":"a","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"number","op":"gt","value":1}],
       [{"property":"s","type":"string","op":"regex","value":"^x"},{"property":"d","type":"date","op":"less_than_seconds_ago","value":60}]]}]},
     {"id":"b","conditions":[{"type":"purchase","product_id":null},{"type":"push_click","campaign_id":null,"action_id":"accept"}]},
     {"id":"c","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"b","type":"boolean","op":"eq","value":true}]]}]}]}
    """.utf8))
let fuzzReference = ReferenceMatcher(fuzzCorpus)

func fuzzEventDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let event = try? EventDecoder.decode(line: bytes) else { return 0 }
    let vocabulary = Vocabulary(fuzzCorpus)
    let compiled = CompiledMatcher(fuzzCorpus, vocabulary: vocabulary)
    var columns = EventColumns(vocabulary: vocabulary)
    columns.append(event)
    let scratch = compiled.makeScratch(for: columns)
    columns.withView { compiled.match(0, in: $0, scratch: scratch) }
    let expected = fuzzReference.match(event)
    if scratch.sortedResults != expected {
        fatalError("compiled \(scratch.sortedResults) ≠ reference \(expected) for \(String(decoding: bytes, as: UTF8.self))")
    }
    return 0
}

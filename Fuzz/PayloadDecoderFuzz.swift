// libFuzzer target: arbitrary bytes as a push payload (or an event line carrying one under "payload").
// Decoding must succeed or throw an InputError, never crash.
import TriggerKit

func fuzzPayloadDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let json = try? JSONValue.parse(bytes) else { return 0 }
    var categories = ActionCategories.standard
    try? categories.register(ActionCategory(id: "ab_cat_rsvp", buttons: [.init(id: "going", title: "Going")]))
    if case .some(let payload) = json["payload"] {
        _ = try? PushPayloadDecoder.decode(payload, categories: categories)
    } else {
        _ = try? PushPayloadDecoder.decode(json, categories: categories)
    }
    return 0
}

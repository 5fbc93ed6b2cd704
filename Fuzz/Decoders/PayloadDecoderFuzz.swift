// libFuzzer target: arbitrary bytes as a push payload (or an event line carrying one under "payload").
// Decoding must succeed or throw an InputError, never crash.
@testable import TriggerKit

func fuzzPayloadDecoder(_ bytes: [UInt8]) {
    guard let json = try? JSONParser.parse(bytes) else { return }
    var categories = ActionCategories.standard
    try? categories.register(ActionCategory(id: "ab_cat_rsvp", buttons: [.init(id: "going", title: "Going")]))
    if case .some(let payload) = json["payload"] {
        _ = try? PushPayloadDecoder.decode(payload, categories: categories)
    } else {
        _ = try? PushPayloadDecoder.decode(json, categories: categories)
    }
}

/// Decodes the raw payload of a tapped notification (SPEC §6) into the fields of a `push_click` event.
public enum PushPayloadDecoder {
    /// What a push payload contributes to a `push_click` event.
    public struct Decoded: Equatable {
        public var campaignID: String?
        public var actionID: String?
        public var properties: [String: PropertyValue]
    }

    static let wisetrackerKey = "RW_push_payload_WP"

    static func decode(_ node: JSONNode) throws -> Decoded {
        let obj = try node.object(what: "a push payload")
        if let wp = obj.optional(wisetrackerKey) { return try decodeWisetracker(wp) }
        guard obj.has("aps") else {
            throw node.fail("unrecognised push payload: expected an APNs payload with \"aps\" or a Wisetracker payload with \"\(wisetrackerKey)\"")
        }
        return try decodeAPNs(obj)
    }

    /// APNs style: `aps` (with an optional `category`), `campaign_id`, `action_id`, `extras`.
    static func decodeAPNs(_ obj: JSONObjectReader) throws -> Decoded {
        let aps = try obj.required("aps", what: "the APNs dictionary").object(what: "the aps dictionary")
        var decoded = Decoded(campaignID: nil, actionID: nil, properties: [:])
        if let c = aps.optionalNonNull("category") {
            decoded.properties["category"] = .string(try c.string(what: "the action-button category"))
        }
        if let n = obj.optionalNonNull("campaign_id") {
            let s = try n.string(what: "the campaign id")
            guard !s.isEmpty else { throw n.fail("campaign id must not be empty") }
            decoded.campaignID = s
        }
        if let n = obj.optionalNonNull("action_id") {
            let s = try n.string(what: "the tapped action button's id")
            guard !s.isEmpty else { throw n.fail("action id must not be empty; omit it for a plain tap") }
            decoded.actionID = s
        }
        if let extras = obj.optionalNonNull("extras") {
            try EventDecoder.flatten(extras, prefix: "", into: &decoded.properties)
        }
        return decoded
    }

    /// Wisetracker style: `RW_push_payload_WP` as an object or a JSON string holding one.
    static func decodeWisetracker(_ node: JSONNode) throws -> Decoded {
        var inner = node
        if case .string(let text) = node.value {
            do {
                inner = JSONNode(value: try JSONParser.parse(text, maxDepth: 16), path: node.path)
            } catch {
                throw node.fail("\(wisetrackerKey) is a string but not valid JSON (\(error))")
            }
        }
        let obj = try inner.object(what: "the Wisetracker payload")
        var decoded = Decoded(campaignID: nil, actionID: nil, properties: [:])
        let fields: [(key: String, property: String, required: Bool)] = [
            ("RW_push_payload_TT", "title", true), ("RW_push_payload_BD", "body", true),
            ("RW_push_payload_IM", "image_url", false), ("RW_push_payload_MV", "video_url", false),
            ("RW_push_payload_deeplink", "deeplink", false),
        ]
        for field in fields {
            let node: JSONNode? = field.required
                ? try obj.required(field.key, what: "the notification's \(field.property)")
                : obj.optionalNonNull(field.key)
            guard let node else { continue }
            let s = try node.string(what: "the notification's \(field.property)")
            guard s.utf8.count <= EventDecoder.maxStringBytes else {
                throw node.fail("\(field.property) is \(s.utf8.count) UTF-8 bytes; at most \(EventDecoder.maxStringBytes) are allowed")
            }
            decoded.properties[field.property] = .string(s)
        }
        return decoded
    }
}

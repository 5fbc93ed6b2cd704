/// Decodes the raw payload of a tapped notification (docs/semantics.md, "Push payloads") into the fields of a `push_click` event.
public enum PushPayloadDecoder {
    /// What a push payload contributes to a `push_click` event.
    public struct Decoded: Equatable {
        public var campaignID: String?
        public var actionID: String?
        public var properties: [String: PropertyValue]
        /// Set when the payload names a category the app has not registered, or a button without a
        /// category: the push still opens the app (with no buttons shown), so the event is valid.
        public var warning: String?
    }

    static let wisetrackerKey = "RW_push_payload_WP"

    /// Decodes a payload given as JSON (e.g. from a notification's userInfo), checking categories against `categories`.
    package static func decode(_ json: JSONValue, categories: ActionCategories = .standard) throws -> Decoded {
        try decode(JSONNode(value: json, path: "payload"), categories: categories)
    }

    static func decode(_ node: JSONNode, categories: ActionCategories) throws -> Decoded {
        let obj = try node.object(what: "a push payload")
        if let wp = obj.optional(wisetrackerKey) { return try decodeWisetracker(wp) }
        guard obj.has("aps") else {
            throw node.fail("unrecognised push payload: expected an APNs payload with \"aps\" or a Wisetracker payload with \"\(wisetrackerKey)\"")
        }
        return try decodeAPNs(obj, categories: categories)
    }

    /// APNs style: `aps` (with an optional `category`), `campaign_id`, `action_id`, `extras`.
    /// A tapped button must belong to its category when the category is registered. An unregistered
    /// category, or a button with no category, is still a push open: on a device the app opens and only
    /// shows no buttons. The event keeps its campaign and action ids, and the category as a property.
    static func decodeAPNs(_ obj: JSONObjectReader, categories: ActionCategories) throws -> Decoded {
        let aps = try obj.required("aps", what: "the APNs dictionary").object(what: "the aps dictionary")
        var decoded = Decoded(campaignID: nil, actionID: nil, properties: [:])
        var category: ActionCategory?
        var categoryID: String?
        if let c = aps.optionalNonNull("category") {
            let id = try c.string(what: "the action-button category")
            guard !id.isEmpty, id.utf8.count <= EventDecoder.maxStringBytes else {
                throw c.fail("category must be 1–\(EventDecoder.maxStringBytes) UTF-8 bytes, found \(id.utf8.count)")
            }
            categoryID = id
            category = categories.category(id)
            if category == nil {
                decoded.warning = "unknown action-button category \"\(id)\": the push open counts, with no buttons shown (register it in settings.action_categories to check its buttons)"
            }
            decoded.properties["category"] = .string(id)
        }
        if let n = obj.optionalNonNull("campaign_id") {
            let s = try n.string(what: "the campaign id")
            guard !s.isEmpty, s.utf8.count <= EventDecoder.maxNameBytes else {
                throw n.fail("campaign id must be 1–\(EventDecoder.maxNameBytes) UTF-8 bytes, found \(s.utf8.count)")
            }
            decoded.campaignID = s
        }
        if let n = obj.optionalNonNull("action_id") {
            let s = try n.string(what: "the tapped action button's id")
            guard !s.isEmpty else { throw n.fail("action id must not be empty; omit it for a plain tap") }
            guard s.utf8.count <= EventDecoder.maxNameBytes else {
                throw n.fail("action id is \(s.utf8.count) UTF-8 bytes; at most \(EventDecoder.maxNameBytes) are allowed")
            }
            if categoryID == nil {
                decoded.warning = "action id \"\(s)\" comes with no aps.category: the push open counts with its action id"
            }
            if let category, !category.buttons.contains(where: { $0.id == s }) {
                throw n.fail("action id \"\(s)\" is not a button of category \"\(category.id)\" (buttons: \(category.buttons.map(\.id).joined(separator: ", ")))")
            }
            decoded.actionID = s
        }
        if let extras = obj.optionalNonNull("extras") {
            // The sender's own `category` (a product's, say) is the property; `aps.category` still
            // decides the buttons and the warning.
            if extras.kind == .object, try extras.object(what: "extras").has("category") {
                decoded.properties.removeValue(forKey: "category")
            }
            try EventDecoder.flatten(extras, prefix: "", into: &decoded.properties)
        }
        return decoded
    }

    /// Wisetracker style: `RW_push_payload_WP` as an object or a JSON string holding one.
    static func decodeWisetracker(_ node: JSONNode) throws -> Decoded {
        var inner = node
        if case .string(let text) = node.value {
            do {
                inner = JSONNode(value: try JSONValue.parse(text, maxDepth: 16), path: node.path)
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

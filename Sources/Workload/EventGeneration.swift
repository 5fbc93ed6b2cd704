import TriggerKit

extension WorkloadGenerator {
    /// Generates the spec's events straight into struct-of-arrays replay buffers (no per-event
    /// dictionaries, so millions of events take seconds). `count` overrides `spec.events`.
    public static func events(_ spec: WorkloadSpec, vocabulary: Vocabulary, count: Int? = nil,
                              progress: ((Int) -> Void)? = nil) -> EventColumns {
        let n = count ?? spec.events
        if let shape = spec.shape {
            return TwinCorpus(shape, seed: spec.seed).events(spec, vocabulary: vocabulary, count: n, progress: progress)
        }
        if let pubsub = spec.pubsub {
            return pubsub.events(seed: spec.seed, vocabulary: vocabulary, count: n, progress: progress)
        }
        if let routing = spec.routing {
            return routing.events(triggers: spec.triggers, seed: spec.seed, vocabulary: vocabulary, count: n, progress: progress)
        }
        var rng = DeterministicRandom(seed: spec.seed &* 0x9E37_79B9 &+ 2)
        var columns = EventColumns(vocabulary: vocabulary)
        let avgProps = (spec.propertiesPerEvent.lowerBound + spec.propertiesPerEvent.upperBound) / 2 + 1
        columns.reserveCapacity(events: n, properties: n * avgProps)
        let names = ZipfSampler(count: spec.eventNames, exponent: spec.zipf)
        let productRanks = ZipfSampler(count: products, exponent: 1.0)
        var nameIDs = [Int32](repeating: -1, count: spec.eventNames)
        let keyIDs = schema.map { columns.intern($0.key) }
        let crowdedKeyID = columns.intern(crowdedKey)
        let priceIndex = schema.firstIndex { $0.key == "price" }!
        // String values interned once per distinct value.
        var stringIDs: [String: Int32] = [:]
        func stringID(_ s: String, _ columns: inout EventColumns) -> Int32 {
            if let id = stringIDs[s] { return id }
            let id = columns.intern(s)
            stringIDs[s] = id
            return id
        }
        let productIDs = (0..<products).map { columns.intern("prod-\($0)") }
        let campaignIDs = (0..<campaigns).map { columns.intern("cmp-\($0)") }
        let actionIDs = actions.map { columns.intern($0) }
        var order = Array(0..<schema.count)
        var props: [(key: Int32, tag: ValueTag, bits: UInt64)] = []
        props.reserveCapacity(schema.count + 2)
        var time = startTime
        let kinds = KindPicker(spec)
        for e in 0..<n {
            if let progress, e & 0xFFFFF == 0 { progress(e) }
            time += (rng.unit() * 2 * 1000).rounded() / 1000
            let kind = kinds.pick(&rng)
            var key: Int32 = -1
            var action: Int32 = -1
            var crowdedEvent = false
            switch kind {
            case .customEvent:
                let rank = names.sample(&rng)
                if nameIDs[rank] < 0 { nameIDs[rank] = columns.intern(eventName(rank)) }
                key = nameIDs[rank]
                crowdedEvent = rank == 0 && spec.crowdedTriggers > 0
            case .purchase:
                key = productIDs[productRanks.sample(&rng)]
            case .sessionStart:
                break
            case .pushClick:
                key = rng.chance(0.05) ? -1 : campaignIDs[rng.below(campaigns)]
                if rng.chance(0.3) { action = actionIDs[rng.below(actionIDs.count)] }
            }
            props.removeAll(keepingCapacity: true)
            if kind == .customEvent || kind == .purchase {
                let count = rng.between(spec.propertiesPerEvent.lowerBound, spec.propertiesPerEvent.upperBound)
                for k in 0..<count {  // partial Fisher–Yates: `count` distinct schema fields
                    order.swapAt(k, k + rng.below(schema.count - k))
                }
                var fields = order[0..<count]
                if crowdedEvent && !fields.contains(priceIndex) { fields.append(priceIndex) }
                for f in fields {
                    var values = schema[f].values
                    if rng.chance(0.03) { values = schema[rng.below(schema.count)].values }  // mistyped value
                    let bits: (ValueTag, UInt64)
                    if rng.chance(0.01) {
                        bits = (.null, 0)
                    } else {
                        switch sample(values, &rng, time: time) {
                        case .int(let i): bits = (.int, UInt64(bitPattern: i))
                        case .double(let d): bits = (.double, d.bitPattern)
                        case .string(let s):
                            // No draw at all when the share is 0: existing workloads keep their exact streams.
                            if spec.freshStringShare > 0, rng.chance(spec.freshStringShare) {
                                bits = (.string, UInt64(columns.intern(freshString(s, event: e, field: f))))
                            } else {
                                bits = (.string, UInt64(stringID(s, &columns)))
                            }
                        case .bool(let b): bits = (.bool, b ? 1 : 0)
                        case .date(let d): bits = (.date, d.bitPattern)
                        case .null: bits = (.null, 0)
                        }
                    }
                    props.append((keyIDs[f], bits.0, bits.1))
                }
                if crowdedEvent {
                    props.append((crowdedKeyID, .int, UInt64(rng.below(Int(crowdedCardinality)))))
                }
                props.sort { $0.key < $1.key }
            }
            props.withUnsafeBufferPointer {
                columns.appendEncoded(kind: kind, key: key, action: action, time: time, properties: $0)
            }
        }
        return columns
    }

    /// A string no corpus constant or other event value equals (the event and field make it unique),
    /// built on a drawn value so that regexes written for that field still match some of them.
    static func freshString(_ base: String, event: Int, field: Int) -> String {
        base + "~" + String(event, radix: 36) + "." + String(field, radix: 36)
    }

    /// Event `i` of `columns` as one JSONL line, keys in a fixed order (deterministic bytes).
    package static func jsonLine(_ columns: EventColumns, _ i: Int, view: EventView) -> String {
        let event = view.event(at: i)
        var members: [(key: String, value: JSONValue)] = [("time", .double(event.time))]
        switch event.kind {
        case .customEvent(let name):
            members += [("type", .string("custom_event")), ("name", .string(name))]
        case .purchase(let product):
            members += [("type", .string("purchase")), ("product_id", .string(product))]
        case .sessionStart:
            members += [("type", .string("session_start"))]
        case .pushClick(let campaign, let action):
            members += [("type", .string("push_click"))]
            members.append(contentsOf: pushFields(i, campaign: campaign, action: action))
        }
        if !event.properties.isEmpty {
            let props: [(key: String, value: JSONValue)] = event.properties.keys.sorted().map { key in
                let value: JSONValue
                switch event.properties[key]! {
                case .int(let i): value = .int(i)
                case .double(let d): value = .double(d)
                case .string(let s): value = .string(s)
                case .bool(let b): value = .bool(b)
                case .date(let d): value = .object([("$date", .double(d))])
                case .null: value = .null
                }
                return (key, value)
            }
            members.append(("properties", .object(props)))
        }
        return JSONValue.object(members).serialized
    }

    /// How a push click is written: a share carries the raw notification payload (docs/semantics.md, "Push payloads") instead of
    /// plain ids, in both styles, so replays exercise payload decoding. A tapped button's payload names
    /// the default category holding it; a Wisetracker payload (which has no ids) is used for plain taps
    /// without a campaign, alternately as an object and as a JSON string.
    static func pushFields(_ i: Int, campaign: String?, action: String?) -> [(key: String, value: JSONValue)] {
        func apns() -> JSONValue {
            var aps: [(key: String, value: JSONValue)] = [("alert", .object([("title", .string("Hello")), ("body", .string("A new offer"))]))]
            if let action, let category = ActionCategories.defaultCategory(containing: action) {
                aps.append(("category", .string(category.id)))
            }
            var payload: [(key: String, value: JSONValue)] = [("aps", .object(aps))]
            if let campaign { payload.append(("campaign_id", .string(campaign))) }
            if let action { payload.append(("action_id", .string(action))) }
            payload.append(("extras", .object([("source", .string("bench"))])))
            return .object(payload)
        }
        switch (campaign, action) {
        case (nil, nil):
            let wp: JSONValue = .object([("RW_push_payload_TT", .string("Hello")), ("RW_push_payload_BD", .string("A new offer")),
                                         ("RW_push_payload_deeplink", .string("app://offers/\(i % 97)"))])
            return [("payload", .object([("RW_push_payload_WP", i % 2 == 0 ? wp : .string(wp.serialized))]))]
        case (nil, _):
            return [("payload", apns())]
        case (.some, _) where i % 4 == 0:
            return [("payload", apns())]
        case (let campaign?, _):
            var fields: [(key: String, value: JSONValue)] = [("campaign_id", .string(campaign))]
            if let action { fields.append(("action_id", .string(action))) }
            return fields
        }
    }
}

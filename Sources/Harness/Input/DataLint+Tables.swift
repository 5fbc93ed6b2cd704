import TriggerKit

extension DataLint {
    /// What a corpus's filters read, gathered in one pass: per property, how many filters read it and
    /// under which events as which types they compare it. Each filter's property is found by its
    /// vocabulary id through a cache of string representations, not hashed: hashing two or three
    /// strings per filter was most of the lint's cost on a corpus of millions of filters.
    struct CorpusTables {
        var numbers: [EventKey: Set<String>] = [:]
        var strings: [EventKey: Set<String>] = [:]
        var booleans: [EventKey: Set<String>] = [:]
        var filtered: [String: Int] = [:]
        var read: [EventKey: Set<String>] = [:]
        /// Event names, products, campaigns and actions, each spelling once.
        var spellings = Set<String>()
        var windows = Tally()

        init(_ set: TriggerSet, vocabulary: Vocabulary) {
            let resolver = SymbolTable.Resolver(vocabulary.symbols)
            var properties: [PropertyUses] = []
            // A property's place in `properties` by its vocabulary id (-1: not met yet); a property the
            // vocabulary lacks (never, for the set's own) by its text.
            var place = [Int32](repeating: -1, count: Int(vocabulary.corpusCount))
            var unknown: [String: Int32] = [:]
            func index(of property: String) -> Int {
                if let id = resolver.lookup(property), Int(id) < place.count {
                    if place[Int(id)] < 0 {
                        place[Int(id)] = Int32(properties.count)
                        properties.append(PropertyUses(spelling: property))
                    }
                    return Int(place[Int(id)])
                }
                if let p = unknown[property] { return Int(p) }
                unknown[property] = Int32(properties.count)
                properties.append(PropertyUses(spelling: property))
                return properties.count - 1
            }
            var keys: [EventKey] = [], keyIndex: [EventKey: Int32] = [:]
            var lastKey: EventKey?, lastKeyIndex: Int32 = -1
            func index(of key: EventKey) -> Int32 {
                if key == lastKey { return lastKeyIndex }
                let k = keyIndex[key] ?? {
                    keys.append(key)
                    keyIndex[key] = Int32(keys.count - 1)
                    return Int32(keys.count - 1)
                }()
                lastKey = key
                lastKeyIndex = k
                return k
            }
            // A name equal to the one before is already in the set (corpora repeat one event name a lot).
            var lastName: String?
            func use(_ name: String?) {
                guard let name, name != lastName else { return }
                spellings.insert(name)
                lastName = name
            }
            func window(_ what: String, _ t: Double?, _ id: String) {
                if let t, abs(t) >= DataLint.millisecondsFrom { windows.add("trigger \(PrintableText.cut(id)): \(what) \(String(format: "%.0f", t))") }
            }
            for trigger in set.triggers {
                window("start_time", trigger.startTime, trigger.id)
                window("end_time", trigger.endTime, trigger.id)
                for condition in trigger.conditions {
                    let key: EventKey?
                    switch condition {
                    case .customEvent(let name, _): use(name); key = .custom(name)
                    case .purchase(let product, _): use(product); key = .purchase(product)
                    case .pushClick(let campaign, let action): use(campaign); use(action); key = nil
                    case .sessionStart: key = nil
                    }
                    let k = key.map(index(of:))
                    for filter in condition.filters.filters {
                        let p = index(of: filter.property)
                        if let k { properties[p].read(by: k, as: filter.property) }
                        let compared = k != nil && filter.op != .exists && filter.op != .notExists
                            && (filter.type == .number || filter.type == .string || filter.type == .boolean)
                        properties[p].add(compared ? k : nil, filter.type)
                    }
                }
            }
            for u in properties {
                filtered[u.spelling] = u.filters
                for pair in u.pairs.union(u.few.map { Pair(key: $0.key, type: $0.type) }) {
                    switch pair.type {
                    case .number: numbers[keys[Int(pair.key)], default: []].insert(u.spelling)
                    case .string: strings[keys[Int(pair.key)], default: []].insert(u.spelling)
                    default: booleans[keys[Int(pair.key)], default: []].insert(u.spelling)
                    }
                }
                for (k, spelling) in u.readers { read[keys[Int(k)], default: []].insert(spelling) }
                for (k, spelling) in u.moreReaders { read[keys[Int(k)], default: []].insert(spelling) }
            }
        }
    }

    /// How filters use one property: how many read it, under which events, and under which as which
    /// type they compare it (events by their place in the tables' key list).
    struct PropertyUses {
        /// The property as the first filter reading it spells it.
        let spelling: String
        var filters = 0
        /// The first few pairs, scanned; any more in `pairs`.
        var few: [(key: Int32, type: PropertyType)] = []
        var pairs = Set<Pair>()
        /// The events whose filters read it, each with the spelling its first such filter uses; the
        /// first few scanned, any more in `moreReaders`.
        var readers: [(key: Int32, spelling: String)] = []
        var moreReaders: [Int32: String] = [:]

        init(spelling: String) { self.spelling = spelling }

        mutating func add(_ key: Int32?, _ type: PropertyType) {
            filters += 1
            guard let key, !few.contains(where: { $0.key == key && $0.type == type }) else { return }
            if few.count < 8 { few.append((key, type)) } else { pairs.insert(Pair(key: key, type: type)) }
        }

        mutating func read(by key: Int32, as spelling: String) {
            guard !readers.contains(where: { $0.key == key }) else { return }
            if readers.count < 8 { readers.append((key, spelling)) } else if moreReaders[key] == nil { moreReaders[key] = spelling }
        }
    }

    struct Pair: Hashable {
        let key: Int32
        let type: PropertyType
    }
}

import CTriggerBenchPlugin
import TriggerKit

/// A validated trigger set as the plugin ABI's flat arrays of vocabulary ids (`tb_corpus`), owned
/// here and kept alive for as long as the plugin's matcher.
final class FlatCorpus: @unchecked Sendable {
    private(set) var corpus = tb_corpus()
    private(set) var vocabulary = tb_vocabulary()
    private let strings: CStringTable
    private let storage: [UnsafeMutableRawPointer]
    private let json: UnsafeMutablePointer<CChar>
    /// Regex constants, retained while the plugin holds their handles.
    private let regexes: [CompiledRegex]

    init(set: TriggerSet, vocabulary symbols: Vocabulary, json text: [UInt8], options: [PluginLibrary.Option] = []) {
        strings = CStringTable(symbols.symbols.strings)
        vocabulary = tb_vocabulary(strings: UnsafePointer(strings.entries), count: symbols.corpusCount)
        var triggers: [tb_trigger] = [], conditions: [tb_condition] = [], clauses: [tb_clause] = []
        var filters: [tb_filter] = [], numberTags: [UInt8] = [], numberBits: [UInt64] = [], stringIDs: [Int32] = []
        var regexes: [CompiledRegex] = [], regexSlots: [ObjectIdentifier: Int] = [:]
        let id = { (s: String) -> Int32 in symbols.symbols.lookup(s)! }
        var idStrings: [String] = []
        for trigger in set.triggers {
            idStrings.append(trigger.id)
            triggers.append(tb_trigger(
                id: tb_string(), has_start_time: trigger.startTime == nil ? 0 : 1, has_end_time: trigger.endTime == nil ? 0 : 1,
                start_time: trigger.startTime ?? 0, end_time: trigger.endTime ?? 0,
                condition_start: Int32(conditions.count), condition_count: Int32(trigger.conditions.count)))
            for condition in trigger.conditions {
                var c = tb_condition(kind: 0, key: -1, action: -1, clause_start: Int32(clauses.count), clause_count: 0)
                switch condition {
                case .customEvent(let name, _): c.kind = UInt8(TB_EVENT_CUSTOM); c.key = id(name)
                case .purchase(let product, _): c.kind = UInt8(TB_EVENT_PURCHASE); c.key = product.map(id) ?? -1
                case .sessionStart: c.kind = UInt8(TB_EVENT_SESSION_START)
                case .pushClick(let campaign, let action):
                    c.kind = UInt8(TB_EVENT_PUSH_CLICK)
                    c.key = campaign.map(id) ?? -1
                    c.action = action.map(id) ?? -1
                }
                c.clause_count = Int32(condition.filters.clauses.count)
                conditions.append(c)
                for clause in condition.filters.clauses {
                    clauses.append(tb_clause(filter_start: Int32(filters.count), filter_count: Int32(clause.count)))
                    for filter in clause {
                        var f = tb_filter(key: id(filter.property), type: Self.code(filter.type), op: Self.code(filter.op),
                                          operand: UInt8(TB_OPERAND_NONE), number_tag: 0, bits: 0, list_start: 0, list_count: 0)
                        switch filter.operand {
                        case .none: break
                        case .number(let v):
                            f.operand = UInt8(TB_OPERAND_NUMBER)
                            (f.number_tag, f.bits) = Self.number(v)
                        case .numbers(let list):
                            f.operand = UInt8(TB_OPERAND_NUMBERS)
                            f.list_start = Int32(numberTags.count)
                            f.list_count = Int32(list.count)
                            for v in list {
                                let (tag, bits) = Self.number(v)
                                numberTags.append(tag)
                                numberBits.append(bits)
                            }
                        case .string(let s):
                            f.operand = UInt8(TB_OPERAND_STRING)
                            f.bits = UInt64(UInt32(bitPattern: id(s)))
                        case .strings(let list):
                            f.operand = UInt8(TB_OPERAND_STRINGS)
                            f.list_start = Int32(stringIDs.count)
                            f.list_count = Int32(list.count)
                            stringIDs += list.map(id)
                        case .bool(let b):
                            f.operand = UInt8(TB_OPERAND_BOOL)
                            f.bits = b ? 1 : 0
                        case .seconds(let s):
                            f.operand = UInt8(TB_OPERAND_SECONDS)
                            f.bits = s.bitPattern
                        case .regex(let re):
                            f.operand = UInt8(TB_OPERAND_REGEX)
                            let slot = regexSlots[ObjectIdentifier(re)] ?? regexes.count
                            if slot == regexes.count {
                                regexSlots[ObjectIdentifier(re)] = slot
                                regexes.append(re)
                            }
                            f.bits = UInt64(slot)
                        }
                        filters.append(f)
                    }
                }
            }
        }
        self.regexes = regexes
        let patterns = CStringTable(regexes.map(\.pattern) + idStrings + options.flatMap { [$0.key, $0.value] })
        var owned: [UnsafeMutableRawPointer] = []
        func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(array.count, 1))
            p.initialize(from: array, count: array.count)
            owned.append(UnsafeMutableRawPointer(p))
            return p
        }
        for t in triggers.indices { triggers[t].id = patterns.entries[regexes.count + t] }
        let cRegexes = regexes.indices.map { tb_regex(pattern: patterns.entries[$0], compiled: UnsafeRawPointer(regexes[$0].handle)) }
        let optionBase = regexes.count + triggers.count
        let cOptions = options.indices.map { tb_option(key: patterns.entries[optionBase + 2 * $0], value: patterns.entries[optionBase + 2 * $0 + 1]) }
        let jsonCopy = UnsafeMutablePointer<CChar>.allocate(capacity: max(text.count, 1))
        text.withUnsafeBytes { jsonCopy.update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: text.count) }
        json = jsonCopy
        corpus = tb_corpus(
            json: jsonCopy, json_length: text.count, trigger_count: Int32(triggers.count), triggers: copy(triggers),
            conditions: copy(conditions), clauses: copy(clauses), filters: copy(filters), number_tags: copy(numberTags),
            number_bits: copy(numberBits), string_ids: copy(stringIDs), regexes: copy(cRegexes), regex_count: Int32(regexes.count),
            condition_count: Int32(conditions.count), clause_count: Int32(clauses.count), filter_count: Int32(filters.count),
            number_count: Int32(numberTags.count), string_id_count: Int32(stringIDs.count),
            options: copy(cOptions), option_count: Int32(options.count))
        storage = owned
        patternTable = patterns
    }

    private let patternTable: CStringTable

    deinit {
        for p in storage { p.deallocate() }
        json.deallocate()
    }

    static func number(_ v: PropertyValue) -> (UInt8, UInt64) {
        switch v {
        case .int(let i): return (UInt8(TB_VALUE_INT), UInt64(bitPattern: i))
        case .double(let d): return (UInt8(TB_VALUE_DOUBLE), d.bitPattern)
        default: return (UInt8(TB_VALUE_NULL), 0)
        }
    }

    static func code(_ type: PropertyType) -> UInt8 {
        switch type {
        case .number: return UInt8(TB_TYPE_NUMBER)
        case .string: return UInt8(TB_TYPE_STRING)
        case .boolean: return UInt8(TB_TYPE_BOOLEAN)
        case .date: return UInt8(TB_TYPE_DATE)
        }
    }

    static func code(_ op: FilterOperator) -> UInt8 {
        let codes: [FilterOperator: Int] = [
            .eq: TB_OP_EQ, .ne: TB_OP_NE, .gt: TB_OP_GT, .gte: TB_OP_GTE, .lt: TB_OP_LT, .lte: TB_OP_LTE,
            .in: TB_OP_IN, .notIn: TB_OP_NOT_IN, .exists: TB_OP_EXISTS, .notExists: TB_OP_NOT_EXISTS,
            .regex: TB_OP_REGEX, .notRegex: TB_OP_NOT_REGEX, .before: TB_OP_BEFORE, .after: TB_OP_AFTER,
            .lessThanSecondsAgo: TB_OP_LESS_THAN_SECONDS_AGO, .moreThanSecondsAgo: TB_OP_MORE_THAN_SECONDS_AGO,
            .inLessThanSeconds: TB_OP_IN_LESS_THAN_SECONDS, .inMoreThanSeconds: TB_OP_IN_MORE_THAN_SECONDS,
        ]
        return UInt8(codes[op]!)
    }
}

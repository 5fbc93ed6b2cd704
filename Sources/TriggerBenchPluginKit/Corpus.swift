import CTriggerBenchPlugin

/// The trigger set a matcher is built from, as the host decoded and validated it: typed views over the
/// ABI's flat arrays. Valid until the matcher is destroyed, so a matcher may keep it (it is two words).
/// Triggers are reported by index, `0 ..< triggerCount`, in corpus order.
public struct Corpus: @unchecked Sendable {
    @usableFromInline let raw: UnsafePointer<tb_corpus>
    /// Every string of the corpus by id (equal strings, up to canonical equivalence, share one id).
    public let vocabulary: Vocabulary
    @usableFromInline let host: UnsafePointer<tb_host>
    // The arrays' base addresses, read once: an access is then one indexed load, as in C.
    @usableFromInline let triggers: UnsafePointer<tb_trigger>
    @usableFromInline let conditions: UnsafePointer<tb_condition>
    @usableFromInline let clauses: UnsafePointer<tb_clause>
    @usableFromInline let filters: UnsafePointer<tb_filter>
    @usableFromInline let numberTags: UnsafePointer<UInt8>
    @usableFromInline let numberBits: UnsafePointer<UInt64>
    @usableFromInline let stringIDs: UnsafePointer<Int32>
    @usableFromInline let regexes: UnsafePointer<tb_regex>
    public let triggerCount: Int
    /// How many conditions, clauses, filters, number-list and string-list members the corpus has.
    public let conditionCount: Int, clauseCount: Int, filterCount: Int, numberCount: Int, stringIDCount: Int
    /// `--plugin PATH,key=value,…`: the user's options for this plugin, in order.
    public let options: [(key: String, value: String)]

    init(_ raw: UnsafePointer<tb_corpus>, vocabulary: UnsafePointer<tb_vocabulary>, host: UnsafePointer<tb_host>) {
        self.raw = raw
        self.vocabulary = Vocabulary(raw: vocabulary)
        self.host = host
        let c = raw.pointee
        triggers = c.triggers ?? Corpus.empty()
        conditions = c.conditions ?? Corpus.empty()
        clauses = c.clauses ?? Corpus.empty()
        filters = c.filters ?? Corpus.empty()
        numberTags = c.number_tags ?? Corpus.empty()
        numberBits = c.number_bits ?? Corpus.empty()
        stringIDs = c.string_ids ?? Corpus.empty()
        regexes = c.regexes ?? Corpus.empty()
        triggerCount = Int(c.trigger_count)
        conditionCount = Int(c.condition_count)
        clauseCount = Int(c.clause_count)
        filterCount = Int(c.filter_count)
        numberCount = Int(c.number_count)
        stringIDCount = Int(c.string_id_count)
        options = (0..<Int(c.option_count)).map { (c.options[$0].key.string, c.options[$0].value.string) }
    }

    /// The value of option `key`, if the user gave it.
    public func option(_ key: String) -> String? { options.last { $0.key == key }?.value }

    /// A stand-in for an empty array's NULL: never read, since no index reaches it.
    private static func empty<T>() -> UnsafePointer<T> { UnsafePointer(bitPattern: MemoryLayout<T>.alignment)! }

    /// The corpus as JSON text, for a matcher with its own decoder: the file as given, or the set a delta
    /// made written out; always the triggers the other fields describe.
    public var json: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(raw.pointee.json)?.assumingMemoryBound(to: UInt8.self), count: raw.pointee.json_length)
    }

    @inlinable public func trigger(_ index: Int) -> Trigger { Trigger(raw: triggers[index]) }
    @inlinable public func condition(_ index: Int) -> Condition { Condition(raw: conditions[index]) }
    @inlinable public func clause(_ index: Int) -> Range<Int> {
        let c = clauses[index]
        return Int(c.filter_start)..<Int(c.filter_start + c.filter_count)
    }
    @inlinable public func filter(_ index: Int) -> Filter { Filter(raw: filters[index]) }

    /// Member `index` of a number list (`Operand.numbers`).
    @inlinable public func number(_ index: Int) -> Number { Number(tag: numberTags[index], bits: numberBits[index]) }
    /// Member `index` of a string list (`Operand.strings`): a string id.
    @inlinable public func stringID(_ index: Int) -> Int32 { stringIDs[index] }

    @inlinable public var regexCount: Int { Int(raw.pointee.regex_count) }
    /// Regex `index`'s pattern (RE2 syntax, matched case-insensitively as a search).
    public func regexPattern(_ index: Int) -> String { regexes[index].pattern.string }

    /// Whether regex `index` (`Operand.regex`) finds a match in `text`, by the host's RE2: thread-safe,
    /// linear time, allocation-free.
    @inlinable
    public func regex(_ index: Int, matches text: UnsafeBufferPointer<UInt8>) -> Bool {
        let bytes = UnsafeRawPointer(text.baseAddress)?.assumingMemoryBound(to: CChar.self)
        return host.pointee.regex_search(regexes[index].compiled, bytes, text.count) != 0
    }
}

/// The corpus's strings by id.
public struct Vocabulary: @unchecked Sendable {
    let raw: UnsafePointer<tb_vocabulary>
    public var count: Int { Int(raw.pointee.count) }
    public subscript(id: Int32) -> String { raw.pointee.strings[Int(id)].string }
}

/// A trigger: its window and its conditions (any one matching makes it fire).
public struct Trigger: @unchecked Sendable {
    @usableFromInline let raw: tb_trigger
    @inlinable init(raw: tb_trigger) { self.raw = raw }

    public var id: String { raw.id.string }
    @inlinable public var startTime: Double? { raw.has_start_time != 0 ? raw.start_time : nil }
    @inlinable public var endTime: Double? { raw.has_end_time != 0 ? raw.end_time : nil }
    /// Whether `time` lies in the window (both ends inclusive, open when absent).
    @inlinable public func windowContains(_ time: Double) -> Bool {
        (raw.has_start_time == 0 || time >= raw.start_time) && (raw.has_end_time == 0 || time <= raw.end_time)
    }
    /// Indices for `Corpus.condition(_:)`.
    @inlinable public var conditions: Range<Int> { Int(raw.condition_start)..<Int(raw.condition_start + raw.condition_count) }
}

/// One way a trigger fires: the event's kind and key, then every clause.
public struct Condition: @unchecked Sendable {
    @usableFromInline let raw: tb_condition
    @inlinable init(raw: tb_condition) { self.raw = raw }

    @inlinable public var kind: EventKind { EventKind(rawValue: raw.kind) }
    /// Event name, product or campaign id; nil: any product or campaign (and for session starts).
    @inlinable public var key: Int32? { raw.key >= 0 ? raw.key : nil }
    /// The tapped button a push-click condition needs; nil: any tap.
    @inlinable public var action: Int32? { raw.action >= 0 ? raw.action : nil }
    /// Indices for `Corpus.clause(_:)`; every clause must hold, and a clause holds when any filter does.
    @inlinable public var clauses: Range<Int> { Int(raw.clause_start)..<Int(raw.clause_start + raw.clause_count) }
}

/// A property filter.
public struct Filter: @unchecked Sendable {
    @usableFromInline let raw: tb_filter
    @inlinable init(raw: tb_filter) { self.raw = raw }

    /// The property's key id.
    @inlinable public var key: Int32 { raw.key }
    @inlinable public var type: PropertyType { PropertyType(rawValue: raw.type) }
    @inlinable public var op: FilterOperator { FilterOperator(rawValue: raw.op) }

    /// The constant the operator compares with.
    @inlinable public var operand: Operand {
        let list = Int(raw.list_start)..<Int(raw.list_start + raw.list_count)
        switch Int(raw.operand) {
        case Int(TB_OPERAND_NUMBER): return .number(Number(tag: raw.number_tag, bits: raw.bits))
        case Int(TB_OPERAND_NUMBERS): return .numbers(list)
        case Int(TB_OPERAND_STRING): return .string(Int32(truncatingIfNeeded: raw.bits))
        case Int(TB_OPERAND_STRINGS): return .strings(list)
        case Int(TB_OPERAND_BOOL): return .bool(raw.bits != 0)
        case Int(TB_OPERAND_SECONDS): return .seconds(Double(bitPattern: raw.bits))
        case Int(TB_OPERAND_REGEX): return .regex(Int(raw.bits))
        default: return .none
        }
    }
}

/// A filter's constant. Lists are index ranges for `Corpus.number(_:)` and `Corpus.stringID(_:)`.
public enum Operand: Sendable {
    case none
    case number(Number)
    case numbers(Range<Int>)
    case string(Int32)
    case strings(Range<Int>)
    case bool(Bool)
    /// Epoch seconds (`before`, `after`) or a duration in seconds (the relative date operators).
    case seconds(Double)
    /// An index for `Corpus.regex(_:matches:)`.
    case regex(Int)
}

extension Number {
    @inlinable init(tag: UInt8, bits: UInt64) {
        self = tag == UInt8(TB_VALUE_INT) ? .int(Int64(bitPattern: bits)) : .double(Double(bitPattern: bits))
    }
}

extension tb_string {
    var string: String {
        guard let bytes = self.bytes else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
}

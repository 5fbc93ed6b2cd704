/// Interns strings (event names, product and campaign ids, property keys, string values) to dense
/// `Int32` ids. A corpus's strings are interned first, so an event string equal to a corpus constant
/// gets the constant's id, and strings seen only in events get ids at or above `corpusCount`.
public struct SymbolTable: Sendable {
    public private(set) var strings: [String] = []
    private var ids: [String: Int32] = [:]

    public init() {}

    public var count: Int { strings.count }

    /// The id of `s`, adding it when new (load time only, never on the hot path).
    @discardableResult
    public mutating func intern(_ s: String) -> Int32 {
        if let id = ids[s] { return id }
        let id = Int32(strings.count)
        strings.append(s)
        ids[s] = id
        return id
    }

    /// The id of `s` if it was interned; never grows the table.
    public func lookup(_ s: String) -> Int32? { ids[s] }

    public subscript(id: Int32) -> String { strings[Int(id)] }
}

/// The symbols of one trigger set: every string a matcher compares with, interned once.
public struct Vocabulary: Sendable {
    public let symbols: SymbolTable
    /// Ids below this come from the corpus; event-only strings are interned above it.
    public var corpusCount: Int32 { Int32(symbols.count) }

    public init(_ set: TriggerSet) {
        var table = SymbolTable()
        for trigger in set.triggers {
            for condition in trigger.conditions {
                switch condition {
                case .customEvent(let name, _): table.intern(name)
                case .purchase(let product, _): if let product { table.intern(product) }
                case .sessionStart: break
                case .pushClick(let campaign, let action):
                    if let campaign { table.intern(campaign) }
                    if let action { table.intern(action) }
                }
                for clause in condition.filters.clauses {
                    for filter in clause {
                        table.intern(filter.property)
                        switch filter.operand {
                        case .string(let s): table.intern(s)
                        case .strings(let list): for s in list { table.intern(s) }
                        default: break
                        }
                    }
                }
            }
        }
        symbols = table
    }
}

/// Filters of a corpus: the general decoding, node by node, and a direct one from a tape for the
/// common shape (a list of clauses of filters comparing a number), which is most of a large corpus.
extension CorpusDecoder {
    static func decodeFilters(_ node: JSONNode?, _ regexes: RegexCache) throws -> FilterCNF {
        guard let node else { return FilterCNF(clauses: []) }
        if let (tape, at) = node.tapeEntry, let cnf = try decodeFilters(tape, at, regexes) { return cnf }
        let clauses = try node.array(what: "filters in conjunctive normal form: an array of arrays")
        return FilterCNF(clauses: try clauses.map { clause in
            let filters = try clause.array(what: "a clause: an array of filters, any of which may hold")
            guard filters.count <= maxFiltersPerClause else {
                throw clause.fail("\(filters.count) filters in one clause; at most \(maxFiltersPerClause) are allowed")
            }
            return try filters.map { try decodeFilter($0, regexes) }
        })
    }

    static func decodeFilter(_ node: JSONNode, _ regexes: RegexCache) throws -> Filter {
        let obj = try node.object(allowed: ["property", "type", "op", "value"], what: "a filter")
        let propNode = try obj.required("property", what: "the property name")
        let property = try propNode.string(what: "the property name")
        guard !property.isEmpty else { throw propNode.fail("property name must not be empty") }
        let typeNode = try obj.required("type", what: "number, string, boolean or date")
        let typeName = try typeNode.string(what: "the filter type")
        guard let type = PropertyType(rawValue: typeName) else {
            throw typeNode.fail("unknown filter type \"\(typeName)\"; expected number, string, boolean or date")
        }
        let opNode = try obj.required("op", what: "the operator")
        let opName = try opNode.string(what: "the operator")
        let allowed = FilterOperator.allowed(for: type)
        guard let op = FilterOperator(rawValue: opName), allowed.contains(op) else {
            throw opNode.fail(
                "unknown operator \"\(opName)\" for type \(typeName); expected one of \(allowed.map(\.rawValue).joined(separator: " "))")
        }
        let operand = try decodeOperand(obj, type: type, op: op, regexes)
        return Filter(property: property, type: type, op: op, operand: operand)
    }

    static func decodeOperand(_ obj: JSONObjectReader, type: PropertyType, op: FilterOperator, _ regexes: RegexCache) throws -> Filter.Operand {
        if op == .exists || op == .notExists {
            if let v = obj.optionalNonNull("value") { throw v.fail("\(op.rawValue) takes no value") }
            return .none
        }
        let v = try obj.required("value", what: "the value \(op.rawValue) compares with")
        switch (type, op) {
        case (.number, .in), (.number, .notIn):
            return .numbers(try v.array(what: "a list of numbers").map { try numberValue($0) })
        case (.number, _):
            return .number(try numberValue(v))
        case (.string, .regex), (.string, .notRegex):
            let pattern = try v.string(what: "a regular expression")
            guard pattern.utf8.count <= maxRegexBytes else {
                throw v.fail("regular expression is \(pattern.utf8.count) bytes; at most \(maxRegexBytes) are allowed")
            }
            do {
                return .regex(try regexes.regex(pattern))
            } catch where error.outOfMemory {
                throw v.fail("compiling regular expression \(v.value.serialized) ran out of memory; \(memoryFix)")
            } catch where error.reason.hasPrefix("pattern too large") {
                // Valid syntax past RE2's program budget (8 MB): counted repetition expands a pattern.
                throw v.fail("regular expression \(v.value.serialized) compiles to a program larger than RE2 allows (\(error.reason)); "
                             + "write it without large counted repetition such as {1000}")
            } catch {
                throw v.fail("regular expression \(v.value.serialized) is not valid RE2 syntax: \(error.reason)" + regexHint(pattern))
            }
        case (.string, .in), (.string, .notIn):
            return .strings(try v.array(what: "a list of strings").map { try boundedString($0) })
        case (.string, _):
            return .string(try boundedString(v))
        case (.boolean, _):
            guard let b = v.boolValue else { throw v.fail("expected true or false, found \(v.typeName)") }
            return .bool(b)
        case (.date, .before), (.date, .after):
            return .seconds(try timestamp(v, what: "a date (epoch seconds or ISO-8601)"))
        case (.date, _):
            return .seconds(try nonNegativeSeconds(v, what: "a number of seconds"))
        }
    }

    /// A string constant: at most 255 UTF-8 bytes as written, as every event string is (a longer one
    /// could never be compared with one).
    static func boundedString(_ node: JSONNode) throws -> String {
        let s = try node.string(what: "a string")
        guard s.utf8.count <= EventDecoder.maxStringBytes else {
            throw node.fail("string constant is \(s.utf8.count) UTF-8 bytes; at most \(EventDecoder.maxStringBytes) are allowed, as in events")
        }
        return s
    }

    /// Why RE2 may have refused `pattern`, when it uses what RE2 leaves out on purpose.
    static func regexHint(_ pattern: String) -> String {
        let lookaround = ["(?=", "(?!", "(?<=", "(?<!"].contains { pattern.contains($0) }
        let backreference = pattern.contains(/\\[1-9]/)
        return lookaround || backreference ? "; backreferences and lookaround are not supported (RE2 runs in linear time)" : ""
    }

    static func numberValue(_ node: JSONNode) throws -> PropertyValue {
        guard let n = node.numberValue else { throw node.fail("expected a number, found \(node.typeName)") }
        return n
    }

    /// The filters at entry `at` of `tape`, read without making a node per value; nil when the list is
    /// not an array of arrays (the general path then reports it). A filter not of the common shape is
    /// decoded by the general path.
    static func decodeFilters(_ tape: JSONTape, _ at: Int, _ regexes: RegexCache) throws -> FilterCNF? {
        guard tape.kind(at) == .array else { return nil }
        // One-filter clauses are the common case; the arrays grow past that on their own.
        var cnf = FilterCNF(reservingFilters: tape.count(at), clauses: tape.count(at))
        var c = at + 1
        while c < tape.end(at) {
            guard tape.kind(c) == .array, tape.count(c) <= maxFiltersPerClause else { return nil }
            var f = c + 1
            while f < tape.end(c) {
                cnf.append(try numberFilter(tape, f) ?? decodeFilter(JSONNode(tape: tape, at: f), regexes))
                f = tape.end(f)
            }
            cnf.closeClause()
            c = tape.end(c)
        }
        return cnf
    }

    /// A filter comparing a number property with one number by `eq ne gt gte lt lte`, exactly as
    /// `decodeFilter` would decode it; nil for anything else, which `decodeFilter` then decodes or refuses.
    static func numberFilter(_ tape: JSONTape, _ at: Int) -> Filter? {
        guard tape.kind(at) == .object else { return nil }
        var (property, type, op, value) = (-1, -1, -1, -1)
        var k = at + 1
        let stop = tape.end(at)
        while k < stop {
            // Packed words (no NUL, at most 8 bytes): equal words are equal texts.
            switch tape.word(k) {
            case FilterWords.property?: property = k + 1
            case FilterWords.type?: type = k + 1
            case FilterWords.op?: op = k + 1
            case FilterWords.value?: value = k + 1
            default: return nil
            }
            k = tape.end(k + 1)
        }
        guard property >= 0, type >= 0, op >= 0, value >= 0,
              tape.kind(property) == .string, tape.textCount(property) > 0,
              tape.kind(type) == .string, tape.word(type) == FilterWords.number, tape.kind(op) == .string,
              let opWord = tape.word(op), let comparison = FilterWords.comparisons.first(where: { $0.word == opWord })?.op
        else { return nil }
        let operand: PropertyValue
        switch tape.kind(value) {
        case .int: operand = .int(tape.int(value))
        case .double: operand = .double(tape.double(value))
        default: return nil
        }
        return Filter(property: tape.string(property), type: .number, op: comparison, operand: .number(operand))
    }

    /// The keys and names `numberFilter` reads, as `JSONTape.word` packs them.
    enum FilterWords {
        static let property = JSONTape.word(of: "property")!
        static let type = JSONTape.word(of: "type")!
        static let op = JSONTape.word(of: "op")!
        static let value = JSONTape.word(of: "value")!
        static let number = JSONTape.word(of: "number")!
        static let comparisons = numberComparisons.map { (word: JSONTape.word(of: $0.rawValue)!, op: $0) }
    }

    static let numberComparisons: [FilterOperator] = [.gte, .lte, .gt, .lt, .eq, .ne]
}

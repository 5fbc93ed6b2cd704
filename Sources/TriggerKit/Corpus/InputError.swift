/// Bad input refused with its location (docs/semantics.md, "Exit codes"): the file, the JSON path (or line and column), the reason.
public struct InputError: Error, CustomStringConvertible, Equatable {
    /// The file the input came from, when it came from one.
    public var file: String?
    /// `triggers[12].conditions[0].op`, or `line 3, column 7` for syntax errors.
    public var path: String
    public var reason: String
    /// The trigger whose definition is at fault, when known.
    public var triggerID: String?

    public init(file: String? = nil, path: String, reason: String, triggerID: String? = nil) {
        self.file = file
        self.path = path
        self.reason = reason
        self.triggerID = triggerID
    }

    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if !path.isEmpty { parts.append(path) }
        var text = parts.joined(separator: ": ")
        text += text.isEmpty ? reason : ": " + reason
        if let triggerID { text += " (trigger \"\(triggerID)\")" }
        return text
    }

    /// The same error attributed to `file`.
    public func inFile(_ file: String) -> InputError {
        var copy = self
        copy.file = file
        return copy
    }
}

/// A notification's action button: the id a tap reports, and its label.
public struct ActionButton: Sendable, Equatable {
    public var id: String
    public var title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// A named set of action buttons a notification can show (APNs `aps.category`).
public struct ActionCategory: Sendable, Equatable {
    public var id: String
    public var buttons: [ActionButton]

    public init(id: String, buttons: [ActionButton]) {
        self.id = id
        self.buttons = buttons
    }
}

/// The action-button categories an app knows (docs/semantics.md, "Push payloads"): the four defaults plus registered custom ones.
/// A tapped button its (registered) category lacks is invalid; an unregistered category is still a
/// push open (docs/semantics.md, "Push payloads").
public struct ActionCategories: Sendable, Equatable {
    /// The default categories, as Braze ships them: Accept/Decline, Yes/No, Confirm/Cancel, More.
    public static let defaults: [ActionCategory] = [
        ActionCategory(id: "ab_cat_accept_decline", buttons: [.init(id: "accept", title: "Accept"), .init(id: "decline", title: "Decline")]),
        ActionCategory(id: "ab_cat_yes_no", buttons: [.init(id: "yes", title: "Yes"), .init(id: "no", title: "No")]),
        ActionCategory(id: "ab_cat_confirm_cancel", buttons: [.init(id: "confirm", title: "Confirm"), .init(id: "cancel", title: "Cancel")]),
        ActionCategory(id: "ab_cat_more", buttons: [.init(id: "more", title: "More")]),
    ]

    /// Only the defaults.
    public static let standard = ActionCategories()

    public private(set) var categories: [ActionCategory]

    public init() { categories = Self.defaults }

    /// Why a category cannot be registered.
    public enum RegistrationError: Error, Equatable, CustomStringConvertible {
        case duplicateCategory(String)
        case noButtons(String)
        case duplicateButton(category: String, button: String)
        case emptyID

        public var description: String {
            switch self {
            case .duplicateCategory(let id): "category \"\(id)\" is already registered"
            case .noButtons(let id): "category \"\(id)\" has no buttons"
            case .duplicateButton(let c, let b): "category \"\(c)\" lists button \"\(b)\" twice"
            case .emptyID: "category and button ids must not be empty"
            }
        }
    }

    /// Adds a custom category; its id must be new and its button ids non-empty and distinct.
    public mutating func register(_ category: ActionCategory) throws(RegistrationError) {
        guard !category.id.isEmpty, category.buttons.allSatisfy({ !$0.id.isEmpty }) else { throw .emptyID }
        guard self.category(category.id) == nil else { throw .duplicateCategory(category.id) }
        guard !category.buttons.isEmpty else { throw .noButtons(category.id) }
        var seen: Set<String> = []
        for b in category.buttons where !seen.insert(b.id).inserted { throw .duplicateButton(category: category.id, button: b.id) }
        categories.append(category)
    }

    public func category(_ id: String) -> ActionCategory? { categories.first { $0.id == id } }

    /// The action id a tap on button `index` of `category` reports, or nil if there is no such button.
    public func actionID(tapping index: Int, of category: String) -> String? {
        guard let c = self.category(category), c.buttons.indices.contains(index) else { return nil }
        return c.buttons[index].id
    }

    /// The default category holding a button with this id, if any (the generator's payloads use it).
    public static func defaultCategory(containing actionID: String) -> ActionCategory? {
        defaults.first { $0.buttons.contains { $0.id == actionID } }
    }
}

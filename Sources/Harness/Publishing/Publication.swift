/// How readers obtain the trigger set (docs/strategies.md): a plain shared matcher, a lock-free snapshot, or a mutex.
package enum Publication: String, Sendable, CaseIterable, Codable {
    case none
    case lockFree = "lock-free"
    case mutex
}

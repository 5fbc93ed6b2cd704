import Foundation

/// A value behind a pthread mutex (`NSLock`), for state two decoding threads share. Not
/// `Synchronization.Mutex`: on Linux it waits on a futex through the uninstrumented standard library,
/// so ThreadSanitizer (which the concurrency tests run under) sees its critical sections as races.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

import Foundation
import TriggerKit

extension SpawnedThread {
    /// `start`, or a one-line error naming `what` the thread was for.
    package static func start(_ what: String, stackSize: Int, _ body: @escaping @Sendable () -> Void) throws {
        let code = spawn(stackSize, body)
        guard code == 0 else {
            throw HarnessError(what: what, reason: "cannot start a thread (\(String(cString: strerror(code)))): "
                               + "the memory left is too little for its stack; free memory or raise the limit (ulimit -v)")
        }
    }
}

/// A value computed on another thread while the caller does other work; `value()` waits for it, or
/// computes it there and then when no thread could start.
package final class Background<T>: @unchecked Sendable {
    private var result: T?
    private let make: () -> T
    private let done = DispatchSemaphore(value: 0)
    private var threaded = false
    private var waited = false

    package init(stackSize: Int = 1 << 20, _ make: @escaping () -> T) {
        self.make = make
        threaded = SpawnedThread.start(stackSize: stackSize) { [self] in
            result = self.make()
            done.signal()
        }
    }

    /// The value; the semaphore orders the thread's write before this read. Asked again, the same value.
    package func value() -> T {
        // Only the caller's thread reads or writes `waited`; `result` is read only once the thread is done.
        if !waited {
            if threaded { done.wait() } else { result = make() }
            waited = true
        }
        return result!
    }
}

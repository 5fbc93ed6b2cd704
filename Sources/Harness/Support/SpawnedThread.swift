import Foundation

/// Starts a detached thread, or says that it could not: Foundation's `Thread.start` reports nothing
/// when the system refuses a thread (an address-space limit leaves no room for its stack), and whoever
/// then waits for the thread waits forever.
package enum SpawnedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread with a `stackSize`-byte stack; false when none could start
    /// (and `body` never runs).
    @discardableResult
    package static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool { spawn(stackSize, body) == 0 }

    /// `pthread_create`'s result: 0, or why no thread started (it returns the code, not `errno`).
    private static func spawn(_ stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context.toOpaque())
        if code != 0 { context.release() }
        return code
    }

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

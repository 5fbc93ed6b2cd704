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
    package static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context.toOpaque()) == 0
        if !started { context.release() }
        return started
    }

    /// `start`, or a one-line error naming `what` the thread was for.
    package static func start(_ what: String, stackSize: Int, _ body: @escaping @Sendable () -> Void) throws {
        guard start(stackSize: stackSize, body) else {
            throw HarnessError(what: what, reason: "cannot start a thread (\(String(cString: strerror(errno)))): "
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

    package init(stackSize: Int = 1 << 20, _ make: @escaping () -> T) {
        self.make = make
        threaded = SpawnedThread.start(stackSize: stackSize) { [self] in
            result = self.make()
            done.signal()
        }
    }

    /// The value; the semaphore orders the thread's write before this read.
    package func value() -> T {
        if threaded { done.wait() } else { result = make() }
        return result!
    }
}

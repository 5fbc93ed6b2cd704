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
    package static func spawn(_ stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Int32 {
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
}

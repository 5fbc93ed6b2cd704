import Foundation
import Synchronization
import TriggerKit

/// The writer of a publication run: every N ms it makes the next matcher (a rebuild of the set, a
/// prebuilt one, or the set after a delta) and publishes it.
final class WriterThread: Sendable {
    let everyMs: Int
    let source: PublishedMatcher
    let makeStep: @Sendable () throws -> WriterStep
    /// Set when a build failed (only a plugin's can): the writer stops publishing and the run reports it.
    private let failure = Mutex<String?>(nil)
    private let stopping = Atomic<Bool>(false)
    /// Signalled by `stop()`, so the writer's wait between publications ends at once, however long.
    private let wake = DispatchSemaphore(value: 0)
    private let done = Atomic<Int>(-1)
    /// Nanoseconds the writer spent building matchers in the last run, by the clock and on its CPU (a
    /// build that shares the cores with readers is descheduled part of the time): read after `done`.
    private let buildNanos = Atomic<Int>(0)
    private let buildCPUNanos = Atomic<Int>(0)
    private let rebuildCount = Atomic<Int>(0)
    private let redirectCount = Atomic<Int>(0)

    init(everyMs: Int, source: PublishedMatcher, makeStep: @escaping @Sendable () throws -> WriterStep) {
        self.everyMs = everyMs
        self.source = source
        self.makeStep = makeStep
    }

    func start() throws {
        // Relaxed: no reader is running yet; Thread.start orders these stores before the writer's loads.
        stopping.store(false, ordering: .relaxed)
        done.store(-1, ordering: .relaxed)
        // A signal left by the previous run's stop() must not cut this run's first wait short.
        while wake.wait(timeout: .now()) == .success {}
        try SpawnedThread.start("the publishing writer", stackSize: 8 << 20) { [self] in
            var count = 0, nanos = 0, cpuNanos = 0
            var step: WriterStep?
            do {
                step = try makeStep()
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            // Relaxed: a stop flag; nothing else is published through it.
            while let step, !stopping.load(ordering: .relaxed) {
                let deadline = Date().addingTimeInterval(Double(everyMs) / 1000)
                let t0 = Clock.now(), c0 = Clock.threadCPUSeconds()
                let matcher: any Matcher
                do {
                    matcher = try step.next()
                } catch {
                    failure.withLock { $0 = "\(error)" }
                    break
                }
                nanos += Int(Clock.now() &- t0)
                cpuNanos += Int((Clock.threadCPUSeconds() - c0) * 1e9)
                source.publish(matcher)
                count += 1
                let wait = deadline.timeIntervalSinceNow
                if wait > 0 { _ = wake.wait(timeout: .now() + wait) }
            }
            // Relaxed: ordered before `done`'s releasing store, which `stop()` acquires before reading it.
            buildNanos.store(nanos, ordering: .relaxed)
            buildCPUNanos.store(cpuNanos, ordering: .relaxed)
            rebuildCount.store(step?.rebuilds() ?? 0, ordering: .relaxed)
            redirectCount.store(step?.redirects() ?? 0, ordering: .relaxed)
            step = nil  // the writer's state goes before `done` says it stopped, so the heap reading after sees it gone
            // Releasing: `stop()` reads the count (and the build time) after acquiring it.
            done.store(count, ordering: .releasing)
        }
    }

    /// Why a build failed while publishing, if one did.
    var failed: String? { failure.withLock { $0 } }

    /// What the writer did in one run.
    struct Report {
        /// Sets published.
        var sets: Int
        /// Seconds spent making them, by the clock and on the writer's CPU.
        var buildSeconds: Double
        var buildCPUSeconds: Double
        /// How many of them were full builds, and how many redirected delta snapshots.
        var rebuilds: Int
        var redirects = 0
    }

    /// Stops the writer and says what it did.
    func stop() -> Report {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
        while true {
            let n = done.load(ordering: .acquiring)
            // Relaxed: the acquiring load of `done` above already ordered the writer's store before this.
            if n >= 0 {
                return Report(sets: n, buildSeconds: Double(buildNanos.load(ordering: .relaxed)) / 1e9,
                              buildCPUSeconds: Double(buildCPUNanos.load(ordering: .relaxed)) / 1e9, rebuilds: rebuildCount.load(ordering: .relaxed),
                              redirects: redirectCount.load(ordering: .relaxed))
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }
}

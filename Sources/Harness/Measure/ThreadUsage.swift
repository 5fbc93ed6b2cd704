import Foundation

/// This thread's involuntary context switches (`getrusage(RUSAGE_THREAD)`, Linux): how often the kernel
/// took the CPU away from it (preemption by another thread or another tenant's vCPU work). Zero where
/// the system does not say.
struct ThreadUsage: Sendable {
    var involuntarySwitches = 0

    static func now() -> ThreadUsage {
        #if os(Linux)
        var u = rusage()
        // RUSAGE_THREAD (1) is not imported by name from glibc's headers.
        guard getrusage(__rusage_who_t(1), &u) == 0 else { return ThreadUsage() }
        return ThreadUsage(involuntarySwitches: Int(u.ru_nivcsw))
        #else
        return ThreadUsage()
        #endif
    }

    static func - (a: ThreadUsage, b: ThreadUsage) -> ThreadUsage {
        ThreadUsage(involuntarySwitches: a.involuntarySwitches - b.involuntarySwitches)
    }
}

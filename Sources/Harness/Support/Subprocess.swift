import CSignals
import Foundation
import TriggerKit

/// Runs the tools the harness drives (valgrind, strip, git, other builds of bench), with `posix_spawn`
/// and one `poll` loop over the child's two pipes: no helper thread and no run loop, so a child can
/// still be run when the memory left has no room for another thread's stack (Foundation's `Process`
/// then waited forever inside libdispatch).
package enum Subprocess {
    /// Runs a tool to completion; returns its standard output, or throws with its standard error.
    /// `failure`: the error for an exit status (not a signal) and the child's last error lines, where a
    /// caller gives a status its own meaning (nil: the default one-line `InputError`).
    @discardableResult
    package static func run(_ tool: String, _ arguments: [String], what: String,
                            failure: (Int32, String) -> (any Error)? = { _, _ in nil }) throws -> String {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard makePipe(&output) else { throw cannotRun(tool, what, errno) }
        guard makePipe(&errors) else {
            let code = errno
            close(output[0]); close(output[1])
            throw cannotRun(tool, what, code)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // As Foundation's Process did: every signal at its default and none blocked in the child (bench
        // ignores SIGPIPE; a child must not inherit that).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        // Swift seeds Set and Dictionary hashing per process; a fixed seed keeps instruction counts repeatable.
        let environment = ProcessInfo.processInfo.environment.merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { _, new in new }
        var pid: pid_t = 0
        var spawned = posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if spawned == 0 { spawned = posix_spawn_file_actions_adddup2(&actions, errors[1], 2) }
        if spawned == 0 {
            spawned = withCStrings([tool] + arguments) { argv in
                withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in
                    guard let argv, let envp else { return ENOMEM }
                    return posix_spawn(&pid, tool, &actions, &attributes, argv, envp)
                }
            }
        }
        close(output[1])
        close(errors[1])
        guard spawned == 0 else {
            close(output[0]); close(errors[0])
            throw cannotRun(tool, what, spawned)
        }
        // Stopped with bench: an interrupted bench must not leave a valgrind child running.
        let childSlot = trigger_bench_child_register(pid)
        defer { trigger_bench_child_unregister(childSlot) }
        let (stdoutBytes, stderrBytes) = drain(output[0], errors[0])
        var status: Int32 = 0
        var waited = waitpid(pid, &status, 0)
        while waited < 0, errno == EINTR { waited = waitpid(pid, &status, 0) }
        guard waited == pid else {
            throw InputError(file: tool, path: "", reason: "\(what) could not be waited for: \(String(cString: strerror(errno)))")
        }
        let stdout = String(decoding: stdoutBytes, as: UTF8.self), stderr = String(decoding: stderrBytes, as: UTF8.self)
        // Linux's wait status: the low 7 bits are the signal that ended the child (0: it exited).
        let signal = status & 0x7F, exitStatus = (status >> 8) & 0xFF
        guard signal != 0 || exitStatus != 0 else { return stdout }
        // One line: the child's last error lines, joined, without its own "bench: error:" prefix.
        // valgrind's own `==PID==` lines and the child's progress lines are dropped: the child's
        // reason is what the user needs.
        let lines = stderr.split(separator: "\n")
        let own = lines.filter { !$0.hasPrefix("==") && !ProgressLine.isProgressLine($0) }
        let tail = (own.isEmpty ? lines : own).suffix(3).map { $0.replacingOccurrences(of: "bench: error: ", with: "") }.joined(separator: " / ")
        // A status the caller gives meaning to is an exit's: a child killed by SIGHUP is not status 1.
        if signal == 0, let error = failure(exitStatus, PrintableText.escaped(tail)) { throw error }
        let ended = signal == 0 ? "exited with \(exitStatus)" : "was stopped by signal \(signal)"
        throw InputError(file: tool, path: "", reason: "\(what) \(ended): \(PrintableText.escaped(tail))")
    }

    /// A pipe whose ends close on exec (the child keeps only the copies `dup2` makes on 1 and 2).
    static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    static func cannotRun(_ tool: String, _ what: String, _ code: Int32) -> InputError {
        InputError(file: tool, path: "", reason: "cannot run \(what): \(String(cString: strerror(code)))")
    }

    /// Reads both pipes to their ends, whichever has data first, so a chatty child cannot fill one and block.
    static func drain(_ out: Int32, _ err: Int32) -> ([UInt8], [UInt8]) {
        var fds = [pollfd(fd: out, events: Int16(POLLIN), revents: 0), pollfd(fd: err, events: Int16(POLLIN), revents: 0)]
        var read: [[UInt8]] = [[], []]
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var open = 2
        while open > 0 {
            guard poll(&fds, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fds[i].fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    read[i].append(contentsOf: chunk[0..<n])
                } else if n == 0 || errno != EINTR {
                    close(fds[i].fd)
                    fds[i].fd = -1  // poll skips it
                    open -= 1
                }
            }
        }
        for f in fds where f.fd >= 0 { close(f.fd) }
        return (read[0], read[1])
    }

    /// `strings` as a NULL-terminated array of C strings, for `body`'s call; nil when one could not be
    /// copied (no memory), rather than an array cut short at the first that failed.
    static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]?) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers.dropLast().contains(nil) ? nil : pointers)
    }
}

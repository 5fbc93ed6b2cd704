#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSignals
import Foundation
import TriggerKit

/// An output file that appears whole or not at all. It is written to a temporary file beside the
/// target and renamed over it by `commit()`, so a full disk, an error or Ctrl-C never leaves a
/// truncated file or wipes the previous one. Creating it checks that the target's directory is
/// writable, so a long run can open its outputs first and fail before it starts.
package final class AtomicFile {
    package let path: String
    /// The file renamed over: `path`, or the file a symbolic link at `path` points to (the link stays).
    private let target: String
    /// nil when `path` is not a regular file (a FIFO, a device, `/dev/stdout`): written in place.
    private let temporaryPath: String?
    private let writer: DescriptorWriter
    private var buffer: [UInt8] = []
    private var open = true
    private let signalSlot: Int32

    /// Creates the temporary file beside `path`; throws an `InputError` naming `path` when it cannot.
    package init(path: String) throws {
        self.path = path
        // First: with descriptors 0–2 held, no file opened below can become "standard output".
        trigger_bench_signals_install()
        guard !path.isEmpty else { throw InputError(file: "\"\"", path: "", reason: "an empty output path; give a file path") }
        var info = stat()
        let exists = stat(path, &info) == 0
        let kind = info.st_mode & S_IFMT
        if exists, kind == S_IFDIR {
            throw InputError(file: path, path: "", reason: "is a directory; give a file path for the output")
        }
        var link = stat()
        if !exists, lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            throw InputError(file: path, path: "", reason: "is a symbolic link to a place that does not exist; point it at a file in an existing folder, or give another path")
        }
        if exists, kind == S_IFIFO {
            // Opened without blocking: a FIFO nobody reads would hold the command before it starts.
            let fd = openNonBlocking(path)
            guard fd >= 0 else {
                throw InputError(file: path, path: "", reason: "is a FIFO that nothing reads (\(String(cString: strerror(errno)))); start its reader first, or give a file")
            }
            // This descriptor is the one written, made blocking: closing it and opening again let a
            // reader that reads to the end (`cat`) take the close for the end and leave, and the second
            // open then waited for a reader for ever.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            target = path
            temporaryPath = nil
            signalSlot = -1
            writer = DescriptorWriter(descriptor: fd, name: path)
            return
        }
        if exists, kind != S_IFREG {
            // Nothing to replace atomically: a pipe or a device is written as it is.
            let fd = openForWriting(path)
            guard fd >= 0 else { throw DescriptorWriter.failure(path, "cannot open the output", errno) }
            target = path
            temporaryPath = nil
            signalSlot = -1
            writer = DescriptorWriter(descriptor: fd, name: path)
            return
        }
        target = exists ? (realpath(path, nil).map { p in defer { free(p) }; return String(cString: p) } ?? path) : path
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".bench-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw DescriptorWriter.failure(path, "cannot create the output", errno) }
        // Not inherited by the tools bench runs (valgrind, git, other builds of bench).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        temporaryPath = temporary
        signalSlot = trigger_bench_temporary_register(temporary)
        // mkstemp creates 0600: keep an existing file's mode, or give a new one what a plain create
        // would (0666 less the umask).
        if exists {
            fchmod(fd, info.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
        writer = DescriptorWriter(descriptor: fd, name: path)
    }

    deinit { discard() }

    package func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    package func write(_ text: String) throws { try write(Array(text.utf8)) }

    package func write(_ data: Data) throws { try write([UInt8](data)) }

    private func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        do { try writer.write(buffer) } catch { discard(); throw error }
    }

    /// Writes what is buffered, syncs and renames the file into place. On failure the temporary file is
    /// removed, the target left as it was, and the error names the target.
    package func commit() throws {
        guard open else { throw InputError(file: path, path: "", reason: "the output was already closed after an error") }
        try flush()
        guard let temporaryPath else {
            open = false
            guard close(writer.descriptor) == 0 else { throw DescriptorWriter.failure(path, "cannot write", errno) }
            return
        }
        // fsync before rename: without it a crash soon after could leave the renamed file empty.
        if fsync(writer.descriptor) != 0 {
            let code = errno
            discard()
            throw DescriptorWriter.failure(path, "cannot write", code)
        }
        let closed = close(writer.descriptor)
        let closeError = errno
        open = false
        if closed != 0 {
            unlink(temporaryPath)
            trigger_bench_temporary_unregister(signalSlot)
            throw DescriptorWriter.failure(path, "cannot write", closeError)
        }
        if rename(temporaryPath, target) != 0 {
            let code = errno
            unlink(temporaryPath)
            trigger_bench_temporary_unregister(signalSlot)
            throw DescriptorWriter.failure(path, "cannot replace the output", code)
        }
        trigger_bench_temporary_unregister(signalSlot)
    }

    /// Removes the temporary file; the target is untouched.
    package func discard() {
        guard open else { return }
        open = false
        close(writer.descriptor)
        if let temporaryPath { unlink(temporaryPath) }
        trigger_bench_temporary_unregister(signalSlot)
    }

    /// Writes `data` (the rest of the file) and commits.
    package func commit(with data: Data) throws {
        try write(data)
        try commit()
    }

    /// Writes `data` to `path` atomically in one go.
    package static func write(_ data: Data, to path: String) throws {
        try AtomicFile(path: path).commit(with: data)
    }
}

/// open(2) for writing, outside the class, whose `open` flag would shadow the function.
private func openForWriting(_ path: String) -> Int32 { open(path, O_WRONLY | O_CLOEXEC) }
private func openNonBlocking(_ path: String) -> Int32 { open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }

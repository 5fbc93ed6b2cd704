import Foundation

#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#else
import Darwin
private let systemRead = Darwin.read
#endif

/// Reads input files with a size limit and a readable error instead of a crash.
package enum BoundedFile {
    /// Whether `path` names a regular file (after symbolic links): one that can be read again, and
    /// whose size is its length, unlike a pipe's, a FIFO's or a device's.
    package static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The file's bytes, refused past `limit` bytes or when holding them would take more memory than
    /// `allowance` has: claimed as the buffer grows, so a pipe, a FIFO or an endless input (which
    /// report no size) is held to what is available too.
    package static func read(_ path: String, limit: Int, allowance: MemoryAllowance = MemoryAllowance()) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, path: "", reason: "no such file; check the path")
        }
        guard !isDirectory.boolValue else { throw InputError(file: path, path: "", reason: "is a directory, expected a file") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= limit else {
            throw InputError(file: path, path: "", reason: "file is \(size) bytes; the limit is \(limit) bytes")
        }
        // Read through a descriptor, so a FIFO or a process substitution (`<(…)`), which report no size,
        // is read too, and held to the limit as it is read.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputError(file: path, path: "", reason: "cannot be opened: \(String(cString: strerror(errno))); check its permissions")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        // One allocation when the size is known; a pipe's buffer doubles as it fills, each step claimed.
        func grow(to capacity: Int) throws {
            do { try allowance.claim(capacity) } catch {
                let read = bytes.isEmpty ? "" : "after \(MemoryBudget.format(bytes.count)) read, "
                throw InputError(file: path, path: "", reason: "\(read)holding it \(error.phrase); pass a smaller input or free memory")
            }
            bytes.reserveCapacity(capacity)
        }
        try grow(to: max(size + 1, 1 << 16))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, path: "", reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else {
                throw InputError(file: path, path: "", reason: "holds more than \(limit) bytes, the limit")
            }
            if bytes.count + n > bytes.capacity { try grow(to: min(max(2 * bytes.capacity, bytes.count + n), limit)) }
            bytes += chunk[0..<n]
        }
    }
}

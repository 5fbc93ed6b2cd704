#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TriggerKit

/// The reader of a pipe went away (`bench replay … | head`): the command ends quietly.
package struct OutputClosed: Error, CustomStringConvertible {
    package let name: String
    package var description: String { "\(name): the reader closed the pipe" }
}

/// Writes whole buffers to a file descriptor with write(2), checking every result: a short write is
/// continued, EINTR retried, EPIPE is `OutputClosed`, any other failure an `InputError` naming the
/// output and the OS reason (exit 2), never a trap and never silent.
package struct DescriptorWriter {
    let descriptor: Int32
    /// The path, or "standard output", for error messages.
    let name: String

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            #if canImport(Glibc)
            let n = Glibc.write(descriptor, next, left)
            #else
            let n = Darwin.write(descriptor, next, left)
            #endif
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE { throw OutputClosed(name: name) }
                throw Self.failure(name, "cannot write", code)
            }
            // write(2) returns 0 only for a zero-length request; anything else would loop forever.
            guard n > 0 else { throw Self.failure(name, "cannot write", EIO) }
            next += n
            left -= n
        }
    }

    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// `what` failed with `code`: an error naming the output, the OS reason and what to do.
    package static func failure(_ name: String, _ what: String, _ code: Int32) -> InputError {
        let reason = String(cString: strerror(code))
        let fix = switch code {
        case ENOSPC, EDQUOT: "free some space or write elsewhere"
        case EACCES, EPERM, EROFS: "choose a writable location"
        case ENOENT, ENOTDIR: "create the directory first or fix the path"
        default: "check the path and the device"
        }
        return InputError(file: name, path: "", reason: "\(what): \(reason); \(fix)")
    }

    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }
}

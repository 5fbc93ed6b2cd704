import CSignals
import Foundation
import TriggerKit

/// A private working folder for child processes' files: made by mkdtemp (a fresh name, mode 0700, so
/// no other user can plant a symlink or read what is written), removed with its files on return and,
/// through the signal handler, when bench is interrupted.
final class TemporaryFolder {
    let path: String
    private var fileSlots: [Int32] = []
    private let folderSlot: Int32

    init(prefix: String) throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/\(prefix).XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError(what: FileManager.default.temporaryDirectory.path, reason: "cannot make a temporary folder: \(String(cString: strerror(errno))); set TMPDIR to a writable folder")
        }
        path = String(cString: made)
        folderSlot = trigger_bench_folder_register(path)
    }

    /// A path in the folder for a file a child will write (removed on interruption too).
    func file(_ name: String) -> String {
        let file = path + "/" + name
        fileSlots.append(trigger_bench_temporary_register(file))
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
        for slot in fileSlots { trigger_bench_temporary_unregister(slot) }
        trigger_bench_folder_unregister(folderSlot)
    }
}

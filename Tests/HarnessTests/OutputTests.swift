import Foundation
import Harness
import TriggerKit
import XCTest

/// Outputs appear whole or not at all, and every failed write is an error naming the output.
final class OutputTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "output-tests-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func contents(_ path: String) -> String? { FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }

    func testCommitReplacesTheTargetWhole() throws {
        let path = directory + "/results.json"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try AtomicFile(path: path)
        try file.write(String(repeating: "x", count: 3 << 20))
        XCTAssertEqual(contents(path), "old", "the target is untouched until commit")
        try file.commit()
        XCTAssertEqual(contents(path)?.count, 3 << 20)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["results.json"], "no temporary file is left")
    }

    func testAnUncommittedOutputLeavesThePreviousFileAndNoTemporary() throws {
        let path = directory + "/results.json"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            let file = try AtomicFile(path: path)
            try file.write("partial")
            // An error before commit: the file goes out of scope.
        }
        XCTAssertEqual(contents(path), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["results.json"])
    }

    func testALinkStaysALinkAndAFileKeepsItsMode() throws {
        let real = directory + "/real.json", link = directory + "/link.json"
        try "old".write(toFile: real, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(real, 0o640), 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        try AtomicFile.write(Data("new".utf8), to: link)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), real)
        XCTAssertEqual(contents(real), "new")
        let mode = try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o640)
    }

    func testAPipeIsWrittenInPlace() throws {
        let fifo = directory + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            var byte: UInt8 = 0
            while read(fd, &byte, 1) > 0 {}
            close(fd)
        }
        reader.start()
        // The reader must be there (blocked in open counts): a FIFO nobody reads is refused, not waited on.
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertNoThrow(try AtomicFile.write(Data("through a pipe".utf8), to: fifo))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["fifo"], "no temporary beside a pipe")
    }

    func testAnUnwritableLocationFailsWhenOpenedNotAfterTheWork() {
        XCTAssertThrowsError(try AtomicFile(path: directory + "/missing/results.json")) { error in
            XCTAssertEqual("\(error)", "\(directory)/missing/results.json: cannot create the output: No such file or directory; create the directory first or fix the path")
        }
        XCTAssertThrowsError(try AtomicFile(path: directory)) { error in
            XCTAssertTrue("\(error)".hasSuffix("is a directory; give a file path for the output"), "\(error)")
        }
    }

    func testAFailedWriteNamesTheOutputAndTheReason() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0])
        close(fds[1])
        // A descriptor that is closed: write(2) fails with EBADF, as a disk error would fail it.
        XCTAssertThrowsError(try DescriptorWriter(descriptor: fds[1], name: "out.txt").write(Array("x".utf8))) { error in
            XCTAssertEqual("\(error)", "out.txt: cannot write: Bad file descriptor; check the path and the device")
        }
        XCTAssertEqual("\(DescriptorWriter.failure("r.json", "cannot write", ENOSPC))",
                       "r.json: cannot write: No space left on device; free some space or write elsewhere")
    }

    func testAClosedPipeIsOutputClosedNotACrash() throws {
        TextOutput.installSignalHandling()
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0])
        defer { close(fds[1]) }
        let out = TextOutput(descriptor: fds[1], name: "standard output")
        try out.line("a line for a reader that left")
        XCTAssertThrowsError(try out.flush()) { error in
            XCTAssertTrue(error is OutputClosed, "\(error)")
        }
    }
}

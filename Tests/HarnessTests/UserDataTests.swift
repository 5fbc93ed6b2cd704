import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// A user's own corpus and event log replay exactly as the generated workload they were written from.
final class UserDataTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("user-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    static func spec() -> WorkloadSpec {
        var spec = try! WorkloadSpec.load("tiny")
        spec.events = 4000
        spec.freshStringShare = 0.3
        return spec
    }

    /// Writes the workload as `bench generate` does; `extraLines` are inserted before event `at`.
    func writeFiles(_ spec: WorkloadSpec, insert extraLines: [String] = [], at: Int = 0) throws -> UserFiles {
        let json = WorkloadGenerator.corpusJSON(spec)
        let corpus = directory.appendingPathComponent("corpus.json"), log = directory.appendingPathComponent("events.jsonl")
        try (json.serialized + "\n").write(to: corpus, atomically: true, encoding: .utf8)
        let columns = WorkloadGenerator.events(spec, vocabulary: Vocabulary(try CorpusDecoder.decode(json)))
        var text = ""
        columns.withView { view in
            for i in 0..<view.count {
                if i == at { for line in extraLines { text += line + "\n" } }
                text += WorkloadGenerator.jsonLine(columns, i, view: view) + "\n"
            }
        }
        try text.write(to: log, atomically: true, encoding: .utf8)
        return UserFiles(corpusPath: corpus.path, eventLogPath: log.path)
    }

    func configuration(_ spec: WorkloadSpec, files: UserFiles?) -> RunConfiguration {
        .small(files.map(InputSource.files) ?? .generated(spec), events: 500)
    }

    /// `--events N` past the log's end is refused with the fix, never replayed short in silence; a debug
    /// build's own limit is not the user's request and replays a shorter log whole.
    func testEventsPastTheLogAreRefusedNotReplayedShort() throws {
        var files = try writeFiles(Self.spec())
        files.lineLimit = 5000
        files.limitAsked = true
        XCTAssertThrowsError(try Runner(configuration(Self.spec(), files: files)).run()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("events.jsonl") && text.contains("--events 5000 asks for more lines than the log holds (4000)"), text)
            XCTAssertTrue(text.contains("drop --events"), text)
        }
        files.limitAsked = false
        XCTAssertEqual(try Runner(configuration(Self.spec(), files: files)).run().workload.events, 4000)
    }

    func testTheWrittenFilesReplayToTheGeneratedRunsChecksums() throws {
        let spec = Self.spec()
        let generated = try Runner(configuration(spec, files: nil)).run()
        let loaded = try Runner(configuration(spec, files: try writeFiles(spec))).run()
        XCTAssertEqual(generated.results.map(\.matches.checksum), loaded.results.map(\.matches.checksum))
        XCTAssertGreaterThan(loaded.results[0].matches.matches, 0)
        let data = try XCTUnwrap(loaded.workload.data)
        XCTAssertEqual(data.lines, spec.events)
        XCTAssertEqual(data.invalidLines, 0)
        XCTAssertEqual(data.eventLog.sha256.count, 64)
        XCTAssertNotEqual(data.corpus.sha256, data.eventLog.sha256)
    }

    func testInvalidLinesAreCountedWithTheirLineNumbersAndStrictRefusesThem() throws {
        let spec = Self.spec()
        var files = try writeFiles(spec, insert: ["{\"time\": 1, \"type\": \"nonsense\"}", "not json", #"{"type": "app_state", "time": 5, "state": "background"}"#, "  "], at: 10)
        let report = try Runner(configuration(spec, files: files)).run()
        let data = try XCTUnwrap(report.workload.data)
        XCTAssertEqual(data.lines, spec.events + 4)
        XCTAssertEqual(data.invalidLines, 2)
        XCTAssertEqual(data.controlLines, 1)
        XCTAssertEqual(data.blankLines, 1)
        XCTAssertEqual(data.firstErrors.map(\.line), [11, 12])
        XCTAssertEqual(report.workload.events, spec.events)
        XCTAssertTrue(report.table().contains("warning: skipped 2 invalid lines of 4004 in the event log; the first, line 11: "), report.table())

        files.strict = true
        XCTAssertThrowsError(try Runner(configuration(spec, files: files)).run()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix(files.eventLogPath + ": line 11: "), text)
            XCTAssertTrue(text.contains("--strict"), text)
        }
    }

    func testALineLimitReadsTheFirstLinesAndTheDigestStillCoversTheFile() throws {
        let spec = Self.spec()
        var files = try writeFiles(spec)
        let whole = try LoadedEventLog.load(path: files.eventLogPath, vocabulary: Vocabulary(CorpusDecoder.load(path: files.corpusPath)),
                                            categories: .standard, lineLimit: nil, strict: false)
        files.lineLimit = 100
        let report = try Runner(configuration(spec, files: files)).run()
        XCTAssertEqual(report.workload.events, 100)
        XCTAssertEqual(report.workload.data?.eventLog.sha256, whole.sha256)
    }

    func testTheGateRefusesRunsOverDifferentData() throws {
        let spec = Self.spec()
        let files = try writeFiles(spec)
        let first = try Runner(configuration(spec, files: files)).run()
        var other = first
        other.workload.data?.eventLog.sha256 = String(repeating: "0", count: 64)
        XCTAssertThrowsError(try Gate.compare(baseline: first, current: other, options: Gate.Options())) { error in
            XCTAssertTrue("\(error)".contains("different data"), "\(error)")
        }
    }

    func testSHA256MatchesTheStandardVectors() {
        XCTAssertEqual(SHA256.hex(of: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var h = SHA256()
        let block = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { h.update(block) }
        XCTAssertEqual(h.finalize(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

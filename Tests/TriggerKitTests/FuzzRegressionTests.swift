import Foundation
import TriggerKit
import XCTest

/// Replays `Corpora/fuzz-regressions/<target>/*`: hostile inputs (and any crash `scripts/fuzz` ever
/// found) must be refused with an `InputError` naming where, never crash or hang.
final class FuzzRegressionTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpora/fuzz-regressions")

    func inputs(_ target: String) throws -> [(String, [UInt8])] {
        let dir = Self.root.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { name in
            (name, Array(try Data(contentsOf: dir.appendingPathComponent(name))))
        }
    }

    func testHostileCorporaAreRefusedWithAPathError() throws {
        let all = try inputs("corpus")
        XCTAssertFalse(all.isEmpty)
        for (name, bytes) in all {
            XCTAssertThrowsError(try CorpusDecoder.decode(bytes: bytes), name) { XCTAssertTrue($0 is InputError, "\(name): \($0)") }
        }
    }

    func testHostileEventLinesAreRefusedWithAPathError() throws {
        let all = try inputs("event")
        XCTAssertFalse(all.isEmpty)
        for (name, bytes) in all {
            XCTAssertThrowsError(try EventDecoder.decode(line: bytes), name) { XCTAssertTrue($0 is InputError, "\(name): \($0)") }
        }
    }

    func testHostilePayloadsAreRefusedWithAPathError() throws {
        let all = try inputs("payload")
        XCTAssertFalse(all.isEmpty)
        for (name, bytes) in all {
            let json = try JSONValue.parse(bytes)
            XCTAssertThrowsError(try PushPayloadDecoder.decode(json["payload"] ?? json), name) {
                XCTAssertTrue($0 is InputError, "\(name): \($0)")
            }
        }
    }

    func testHostileDeltasAreRefusedWithAPathError() throws {
        let all = try inputs("delta")
        XCTAssertFalse(all.isEmpty)
        for (name, bytes) in all {
            XCTAssertThrowsError(try DeltaDecoder.decode(bytes: bytes), name) { XCTAssertTrue($0 is InputError, "\(name): \($0)") }
        }
    }
}

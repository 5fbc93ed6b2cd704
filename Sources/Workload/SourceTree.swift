import Foundation

/// The checkout this binary was built from, found by walking up from this source file to the folder
/// that holds `Package.swift` (so moving files between folders cannot break it). `bench` runs in the
/// user's folder; what belongs to the checkout (its presets and cases, its git commit) is looked up here.
package enum SourceTree {
    package static let root: String? = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
               FileManager.default.fileExists(atPath: folder.appendingPathComponent("Corpora").path) {
                return folder.path
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }()
}

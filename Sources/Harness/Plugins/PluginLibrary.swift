import CTriggerBenchPlugin
import Foundation
import TriggerKit

/// A matcher plugin loaded from a shared library (docs/plugins.md): its function table, checked
/// against this build's ABI. Never unloaded: matchers it built may outlive any one run.
public final class PluginLibrary: @unchecked Sendable {
    public let path: String
    /// As the plugin reports it; its rows are `plugin:NAME`.
    public let name: String
    public let version: String
    let table: tb_plugin

    public static let strategyPrefix = "plugin:"
    public var strategyName: String { Self.strategyPrefix + name }

    /// Loads `path`. Errors name the file and say what to fix; nothing here can crash on a wrong library
    /// short of the library's own constructors.
    public init(path: String) throws {
        self.path = path
        func fail(_ reason: String) -> InputError { InputError(file: path, path: "", reason: reason) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw fail("no such plugin file; build one with scripts/build-plugin DIR, which prints its path")
        }
        // dlopen searches the library path for a bare name: "./x.so" loads the file meant.
        let resolved = path.contains("/") ? path : "./" + path
        guard let handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw fail("cannot load: \(PrintableText.escaped(reason)); is it a shared library built for this machine (cc -shared -fPIC)?")
        }
        guard let symbol = dlsym(handle, "trigger_bench_plugin") else {
            throw fail("exports no trigger_bench_plugin function; see Plugins/include/trigger_bench_plugin.h")
        }
        let entry = unsafeBitCast(symbol, to: tb_plugin_entry.self)
        guard let table = entry()?.pointee else { throw fail("trigger_bench_plugin() returned NULL") }
        guard table.abi_version == TB_PLUGIN_ABI_VERSION else {
            throw fail("built for plugin ABI version \(table.abi_version), this bench speaks version \(TB_PLUGIN_ABI_VERSION); rebuild it against Plugins/include/trigger_bench_plugin.h")
        }
        guard let namePointer = table.name else { throw fail("its tb_plugin.name is NULL") }
        let name = String(decoding: UnsafeRawBufferPointer(start: namePointer, count: strnlen(namePointer, 65)), as: UTF8.self)
        guard !name.isEmpty, name.utf8.count <= 64,
              name.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")) })
        else { throw fail("its name \"\(PrintableText.escaped(name))\" must be 1 to 64 characters of A-Z a-z 0-9 . _ -") }
        self.name = name
        version = table.version.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strnlen($0, 256)), as: UTF8.self) } ?? ""
        guard table.create != nil, table.destroy != nil, table.match != nil else {
            throw fail("its tb_plugin table lacks create, destroy or match")
        }
        guard (table.create_scratch == nil) == (table.destroy_scratch == nil) else {
            throw fail("its tb_plugin table sets one of create_scratch and destroy_scratch; set both or neither")
        }
        self.table = table
    }

    /// The strategy this plugin adds to a run whose corpus file holds `corpusJSON`.
    public func strategy(corpusJSON: [UInt8]) -> StrategyRegistry.Strategy {
        StrategyRegistry.Strategy(
            name: strategyName, summary: "plugin \(name) \(version) from \(path)",
            make: { [self] set, vocabulary in try PluginMatcher(self, set: set, vocabulary: vocabulary, json: corpusJSON) })
    }
}

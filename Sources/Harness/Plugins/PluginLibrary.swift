import CTriggerBenchPlugin
import Foundation
import TriggerKit

/// A matcher plugin loaded from a shared library (docs/plugins.md): its function table, checked
/// against this build's ABI. Never unloaded: matchers it built may outlive any one run.
package final class PluginLibrary: @unchecked Sendable {
    package let path: String
    /// As the plugin reports it; its rows are `plugin:NAME`.
    package let name: String
    package let version: String
    /// Of the library file, so results say which build of a plugin they measured.
    package let sha256: String
    /// `--plugin PATH,key=value,…`: handed to `create` (ABI 2) and recorded in the results.
    package let options: [Option]
    /// The ABI version the library was built for.
    package let abiVersion: UInt32
    let table: tb_plugin

    package struct Option: Sendable, Equatable, Codable {
        package var key: String
        package var value: String
    }

    package static let strategyPrefix = "plugin:"
    /// `path` from the root, for a child process started in another folder.
    package var absolutePath: String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
    /// `plugin:NAME`, with the options in brackets when there are any (`plugin:NAME[k=v]`): one library
    /// run with two sets of options makes two rows.
    package var strategyName: String {
        Self.strategyPrefix + name + (options.isEmpty ? "" : "[" + options.map { "\($0.key)=\(PrintableText.escaped($0.value))" }.joined(separator: ",") + "]")
    }

    static let maxOptionKey = 64, maxOptionValue = 256

    /// The library's path in a `--plugin` argument (what precedes its first comma).
    package static func path(ofArgument argument: String) -> String { String(argument.prefix { $0 != "," }) }

    /// Loads a `--plugin` argument: `PATH` or `PATH,key=value,…` (so a plugin's path holds no comma;
    /// scripts/build-plugin refuses to write one).
    package convenience init(argument: String) throws {
        var parts = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let path = parts.removeFirst()
        var options: [Option] = []
        for part in parts where !part.isEmpty {
            guard let eq = part.firstIndex(of: "="), eq != part.startIndex else {
                throw InputError(file: path, path: "--plugin", reason: "option \"\(PrintableText.escaped(part))\" is not key=value; write --plugin PATH,key=value,key2=value2")
            }
            let key = String(part[..<eq]), value = String(part[part.index(after: eq)...])
            // The key names the row (`plugin:NAME[k=v]`): a space, a bracket or a second value for one
            // key would make a row a reader cannot tell apart or a plugin cannot read one way.
            guard key.utf8.count <= Self.maxOptionKey, key.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_-.".unicodeScalars.contains($0)) }) else {
                throw InputError(file: path, path: "--plugin", reason: "option key \"\(PrintableText.escaped(key))\" must be up to \(Self.maxOptionKey) letters, digits, '_', '-' or '.' (no spaces); write --plugin PATH,key=value")
            }
            guard value.utf8.count <= Self.maxOptionValue else {
                throw InputError(file: path, path: "--plugin", reason: "option \(key) has a value of \(value.utf8.count) bytes; at most \(Self.maxOptionValue) (it names the row)")
            }
            if options.contains(where: { $0.key == key }) {
                throw InputError(file: path, path: "--plugin", reason: "option \(key) is given twice; give each key once")
            }
            options.append(Option(key: key, value: value))
        }
        try self.init(path: path, options: options)
    }

    /// Loads every `--plugin` argument and refuses two rows of one name, before saying anything (so a
    /// usage error stays one line); then says, for each, that it runs in this process.
    package static func load(arguments: [String]) throws -> [PluginLibrary] {
        let loaded = try arguments.map(PluginLibrary.init(argument:))
        if let twice = Dictionary(grouping: loaded, by: \.strategyName).first(where: { $0.value.count > 1 }) {
            let same = Set(twice.value.map(\.absolutePath)).count == 1
            throw InputError(file: twice.value[0].path, path: "--plugin", reason: same
                ? "given twice with the same options; give each its own options (PATH,key=value) to compare them"
                : "\(twice.value.map(\.path).joined(separator: " and ")) both call themselves \(twice.value[0].name); each row needs its own name")
        }
        for library in loaded { TextOutput.standardError(library.loadedNotice) }
        return loaded
    }

    /// Said on standard error before anything runs: the last line before a crash names the suspect.
    package var loadedNotice: String {
        "bench: loaded plugin \(name) \(version) from \(PrintableText.escaped(path)); it runs inside this process, so if the run ends in a crash, the plugin is the first suspect"
    }

    /// The `--plugin` argument that loads this library again (absolute path, same options).
    package var argument: String { ([absolutePath] + options.map { "\($0.key)=\($0.value)" }).joined(separator: ",") }

    /// Loads `path`. Errors name the file and say what to fix; nothing here can crash on a wrong library
    /// short of the library's own constructors.
    package init(path: String, options: [Option] = []) throws {
        self.path = path
        self.options = options
        func fail(_ reason: String) -> InputError { InputError(file: path, path: "", reason: reason) }
        var isDirectory: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path.isEmpty ? "--plugin \"\"" : path, path: "", reason: "no such plugin file; build one with build-plugin DIR (in the TriggerBench checkout's bin/), which prints its path")
        }
        guard !isDirectory.boolValue else {
            throw fail("is a directory; build the plugin in it with build-plugin \(path) and pass the .so path it prints")
        }
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw fail("is not a regular file (a FIFO or a device); give the .so file build-plugin printed")
        }
        let bytes = (try? BoundedFile.read(path, limit: 1 << 30)) ?? []
        if let refusal = SwiftToolchain.refusal(plugin: bytes) { throw fail(refusal) }
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
        guard let raw = entry() else { throw fail("trigger_bench_plugin() returned NULL") }
        // The version comes first in every version's table; an older table is shorter, so only its own
        // fields are copied and the newer ones stay zero (absent).
        let abi = UnsafeRawPointer(raw).load(as: UInt32.self)
        guard abi >= TB_PLUGIN_ABI_MIN_VERSION, abi <= TB_PLUGIN_ABI_VERSION else {
            throw fail("built for plugin ABI version \(abi); this bench loads versions \(TB_PLUGIN_ABI_MIN_VERSION) to \(TB_PLUGIN_ABI_VERSION): rebuild it against Plugins/include/trigger_bench_plugin.h")
        }
        var table = tb_plugin()
        let size = abi >= 2 ? MemoryLayout<tb_plugin>.size : MemoryLayout<tb_plugin>.offset(of: \.describe)!
        withUnsafeMutableBytes(of: &table) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: size)) }
        abiVersion = abi
        guard let namePointer = table.name else { throw fail("its tb_plugin.name is NULL; set it to the name its rows should carry") }
        let name = String(decoding: UnsafeRawBufferPointer(start: namePointer, count: strnlen(namePointer, 65)), as: UTF8.self)
        guard !name.isEmpty, name.utf8.count <= 64,
              name.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")) })
        else { throw fail("its name \"\(PrintableText.escaped(name))\" must be 1 to 64 characters of A-Z a-z 0-9 . _ -") }
        self.name = name
        // Free-form, so shown escaped and cut to 64 bytes: it reaches terminals and results files.
        version = table.version.map { PrintableText.escaped(String(decoding: UnsafeRawBufferPointer(start: $0, count: strnlen($0, 64)), as: UTF8.self)) } ?? ""
        let missing = [("create", table.create == nil), ("destroy", table.destroy == nil), ("match", table.match == nil)].filter(\.1).map(\.0)
        guard missing.isEmpty else {
            throw fail("its tb_plugin table has no \(missing.joined(separator: ", ")); every plugin sets create, destroy and match")
        }
        guard (table.create_scratch == nil) == (table.destroy_scratch == nil) else {
            throw fail("its tb_plugin table sets one of create_scratch and destroy_scratch; set both or neither")
        }
        self.table = table
        sha256 = bytes.isEmpty ? "" : SHA256.hex(of: bytes)
    }

    /// This plugin as a run's strategy: its row, what the results record of it (`checked`: it passed
    /// `PluginAdmission` before the run) and how the counting child loads it again.
    package func runStrategy(checked: Bool) -> RunStrategy {
        RunStrategy(
            name: strategyName,
            origin: .init(name: name, version: version, path: path, sha256: sha256, options: options.isEmpty ? nil : options,
                          abiVersion: Int(abiVersion), checked: checked),
            childArguments: ["--child-plugin", argument],
            resolve: { [self] input in strategy(corpusJSON: try input.corpusJSON(), of: input.set) })
    }

    /// The strategy this plugin adds to a run whose corpus file holds `corpusJSON`, decoded as `original`.
    /// A set a delta made is handed to the plugin as JSON written from it (`CorpusEncoder`), so the text
    /// and the flat arrays always describe the same triggers.
    package func strategy(corpusJSON: [UInt8], of original: TriggerSet) -> StrategyRegistry.Strategy {
        StrategyRegistry.Strategy(
            name: strategyName, summary: "plugin \(name) \(version) from \(path)",
            make: { [self] set, vocabulary in
                try PluginMatcher(self, set: set, vocabulary: vocabulary, json: { set === original ? corpusJSON : CorpusEncoder.encode(set) }, options: options)
            })
    }
}

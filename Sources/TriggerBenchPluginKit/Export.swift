import CTriggerBenchPlugin

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plugin table (`trigger_bench_plugin.h`) for `M`, at a stable address for the life of the process.
/// Call it from the one function the library exports:
///
/// ```swift
/// @_cdecl("trigger_bench_plugin") public func plugin() -> UnsafeRawPointer { exportPlugin(MyMatcher.self) }
/// ```
///
/// Inlinable, so that the closures below are compiled in the plugin's module for its concrete type:
/// a call per event is one indirect call into specialised code, with no generic metadata lookup.
@inlinable
public func exportPlugin<M: TriggerMatcher>(_ type: M.Type) -> UnsafeRawPointer {
    installPlugin(name: M.name, version: M.version) { corpus in
        let matcher = try M(corpus: corpus)
        let triggerCount = corpus.triggerCount
        return MatcherHandle(
            describe: { matcher.describe() },
            makeScratch: { events in Unmanaged.passRetained(ScratchBox(matcher.makeScratch(events: events))).toOpaque() },
            match: { scratch, raw, index, out, candidates in
                let events = Events(raw)
                // The host hands back the scratch `makeScratch` made; borrowed, not retained, per call.
                return Unmanaged<ScratchBox<M.Scratch>>.fromOpaque(scratch!)._withUnsafeGuaranteedRef { box -> Int32 in
                    var matches = Matches(base: out, capacity: triggerCount)
                    matcher.match(index, in: events, scratch: &box.value, into: &matches)
                    candidates?.pointee += Int64(matches.candidates)
                    // A duplicate pushed the count past the corpus: report a count the host refuses.
                    return matches.overflowed ? Int32(triggerCount + 1) : Int32(matches.count)
                }
            },
            matchBatch: { scratch, raw, first, count, out, capacity, ends, candidates in
                let events = Events(raw)
                return Unmanaged<ScratchBox<M.Scratch>>.fromOpaque(scratch!)._withUnsafeGuaranteedRef { box -> Int64 in
                    var written = 0, done = 0, evaluated = 0
                    // An event writes at most triggerCount entries: stop while that many might not fit.
                    while done < count, written + triggerCount <= capacity {
                        var matches = Matches(base: out + written, capacity: triggerCount)
                        matcher.match(first + done, in: events, scratch: &box.value, into: &matches)
                        if matches.overflowed { return -1 }
                        written += matches.count
                        evaluated += matches.candidates
                        ends[done] = Int64(written)
                        done += 1
                    }
                    candidates?.pointee += Int64(evaluated)
                    return Int64(done)
                }
            })
    }
}

/// Makes the C table once: `bench` calls the entry when it loads the library, before any matcher exists.
@usableFromInline
func installPlugin(name: String, version: String, factory: @escaping (Corpus) throws -> MatcherHandle) -> UnsafeRawPointer {
    if let table = exportedTable { return UnsafeRawPointer(table) }
    exportedFactory = factory
    let table = UnsafeMutablePointer<tb_plugin>.allocate(capacity: 1)
    // strdup: the table outlives this call and `bench` reads the strings as C strings.
    table.initialize(to: tb_plugin(
        abi_version: TB_PLUGIN_ABI_VERSION, name: strdup(name), version: strdup(version),
        create: createThunk, destroy: destroyThunk, create_scratch: createScratchThunk, destroy_scratch: destroyScratchThunk,
        match: matchThunk, match_batch: matchBatchThunk, describe: describeThunk))
    exportedTable = table
    return UnsafeRawPointer(table)
}

// One plugin per library, written once by the entry and only read afterwards.
nonisolated(unsafe) private var exportedTable: UnsafeMutablePointer<tb_plugin>?
nonisolated(unsafe) private var exportedFactory: ((Corpus) throws -> MatcherHandle)?

/// A built matcher as the C entry points see it: one pointer, and closures compiled for its type.
@usableFromInline
final class MatcherHandle {
    // Events arrive as the ABI's pointer and are viewed inside the specialised closure, where the
    // compiler loads only the columns the matcher reads.
    @usableFromInline typealias Match = (UnsafeMutableRawPointer?, UnsafePointer<tb_events>, Int, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int64>?) -> Int32
    @usableFromInline typealias MatchBatch = (UnsafeMutableRawPointer?, UnsafePointer<tb_events>, Int, Int, UnsafeMutablePointer<Int32>, Int,
                                              UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>?) -> Int64
    let describe: () -> KeyValuePairs<String, String>
    let makeScratch: (Events) -> UnsafeMutableRawPointer
    let match: Match
    let matchBatch: MatchBatch

    @usableFromInline
    init(describe: @escaping () -> KeyValuePairs<String, String>, makeScratch: @escaping (Events) -> UnsafeMutableRawPointer,
         match: @escaping Match, matchBatch: @escaping MatchBatch) {
        self.describe = describe
        self.makeScratch = makeScratch
        self.match = match
        self.matchBatch = matchBatch
    }
}

/// A reader thread's scratch, owned by the host through an unmanaged reference.
@usableFromInline
final class ScratchBox<S> {
    @usableFromInline var value: S
    @inlinable init(_ value: S) { self.value = value }
}

private func handle(_ matcher: UnsafeRawPointer?) -> Unmanaged<MatcherHandle> { Unmanaged.fromOpaque(matcher!) }

private let createThunk: @convention(c) (UnsafePointer<tb_corpus>?, UnsafePointer<tb_vocabulary>?, UnsafePointer<tb_host>?,
                                         UnsafeMutablePointer<CChar>?, Int) -> UnsafeMutableRawPointer? = { corpus, vocabulary, host, buffer, capacity in
    let view = Corpus(corpus!, vocabulary: vocabulary!, host: host!)
    do {
        guard let factory = exportedFactory else { throw PluginKitError("the plugin table was not made by exportPlugin") }
        let made = try factory(view)
        return Unmanaged.passRetained(made).toOpaque()
    } catch {
        // One line, cut to the buffer: the host prints it as the reason the build failed.
        let reason = String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        if let buffer, capacity > 0 {
            let bytes = Array(reason.utf8.prefix(capacity - 1))
            for (k, b) in bytes.enumerated() { buffer[k] = CChar(bitPattern: b) }
            buffer[bytes.count] = 0
        }
        return nil
    }
}

private let describeThunk: @convention(c) (UnsafeRawPointer?, (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void)?,
                                           UnsafeMutableRawPointer?) -> Void = { matcher, fact, context in
    for (key, value) in handle(matcher)._withUnsafeGuaranteedRef({ $0.describe() }) {
        key.withCString { k in value.withCString { v in fact?(context, k, v) } }
    }
}

private let destroyThunk: @convention(c) (UnsafeMutableRawPointer?) -> Void = { matcher in
    Unmanaged<MatcherHandle>.fromOpaque(matcher!).release()
}

private let createScratchThunk: @convention(c) (UnsafeRawPointer?, UnsafePointer<tb_events>?) -> UnsafeMutableRawPointer? = { matcher, events in
    handle(matcher)._withUnsafeGuaranteedRef { $0.makeScratch(Events(events!)) }
}

private let destroyScratchThunk: @convention(c) (UnsafeMutableRawPointer?) -> Void = { scratch in
    // A scratch may outlive the matcher it was made with, so it is freed without one: its box knows its type.
    Unmanaged<AnyObject>.fromOpaque(scratch!).release()
}

private let matchThunk: @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafePointer<tb_events>?, Int64,
                                        UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int64>?) -> Int32 = { matcher, scratch, events, index, out, candidates in
    handle(matcher)._withUnsafeGuaranteedRef { $0.match(scratch, events!, Int(index), out!, candidates) }
}

private let matchBatchThunk: @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafePointer<tb_events>?, Int64, Int64,
                                             UnsafeMutablePointer<Int32>?, Int64, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?) -> Int64 = {
    matcher, scratch, events, first, count, out, capacity, ends, candidates in
    handle(matcher)._withUnsafeGuaranteedRef {
        $0.matchBatch(scratch, events!, Int(first), Int(count), out!, Int(capacity), ends!, candidates)
    }
}

struct PluginKitError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

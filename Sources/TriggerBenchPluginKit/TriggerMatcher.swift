/// A matcher written in Swift, exported as a plugin by one line:
///
/// ```swift
/// @_cdecl("trigger_bench_plugin") public func plugin() -> UnsafeRawPointer { exportPlugin(MyMatcher.self) }
/// ```
///
/// The rules a match must follow are docs/semantics.md, "Matching". A built matcher is shared by every
/// reader thread, so `match` must not change it: mutable state belongs in the `Scratch`, one per thread.
public protocol TriggerMatcher {
    /// Per-thread working memory (`Void` when none is needed).
    associatedtype Scratch = Void

    /// The row's name, `plugin:NAME`: 1 to 64 characters of A-Z a-z 0-9 . _ -.
    static var name: String { get }
    /// Free-form, recorded in the results.
    static var version: String { get }

    /// Builds the matcher. A thrown error becomes the one-line reason `bench` prints (exit 2).
    /// `corpus` stays valid for the matcher's life and may be kept.
    init(corpus: Corpus) throws

    /// A reader thread's scratch. It is also handed to the other matchers built from the same corpus
    /// (a publication writer's rebuilds), so size it from the corpus, not from this matcher.
    func makeScratch(events: Events) -> Scratch

    /// Appends the index of every trigger that matches event `event` to `matches`, each once, in any
    /// order. Must not block, and should not allocate (allocations are counted and shown). May add the
    /// conditions it evaluated to `matches.candidates`.
    func match(_ event: Int, in events: Events, scratch: inout Scratch, into matches: inout Matches)

    /// Facts about the built matcher (index shape, build phases), recorded in the results beside its
    /// rows as `plugin_facts`. Asked once, after the run. Optional.
    func describe() -> KeyValuePairs<String, String>
}

extension TriggerMatcher where Scratch == Void {
    public func makeScratch(events: Events) {}
}

extension TriggerMatcher {
    public func describe() -> KeyValuePairs<String, String> { [:] }
}

/// Where `match` writes: room for every trigger of the corpus once.
public struct Matches {
    @usableFromInline let base: UnsafeMutablePointer<Int32>
    @usableFromInline let capacity: Int
    /// Matches written so far.
    @inlinable public var count: Int { written }
    @usableFromInline var written = 0
    /// Conditions evaluated (shown as cand/ev); optional.
    public var candidates = 0
    /// Set when more matches were appended than the corpus has triggers (so some were duplicates): the
    /// extra are dropped and the host counts a bad count. A duplicate within room is counted by the host
    /// too: either way the run fails naming the plugin, as the ABI asks for each trigger at most once.
    @inlinable public var overflowed: Bool { dropped }
    @usableFromInline var dropped = false

    @inlinable init(base: UnsafeMutablePointer<Int32>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    @inlinable
    public mutating func append(_ trigger: Int) {
        guard written < capacity else {
            dropped = true
            return
        }
        base[written] = Int32(truncatingIfNeeded: trigger)
        written += 1
    }
}

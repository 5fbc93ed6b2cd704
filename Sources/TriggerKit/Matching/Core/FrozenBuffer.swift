#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An immutable array copied into manually allocated memory: unchecked element loads and no
/// reference counting of a buffer per access, for the hot loops of the fast strategies.
/// Indexing out of range is undefined behaviour in release builds (callers index with ids validated
/// at build time) and a trap in debug builds, where the subscript checks its bounds.
/// The memory comes from `malloc` so that a `Builder` can grow it with `realloc` and hand it over.
/// The `base` of every empty `FrozenBuffer` made from an array: aligned for any element, never read
/// or written (an empty buffer has no index to read), so sharing it across threads is safe.
nonisolated(unsafe) private let emptyBlock = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)

@usableFromInline package final class FrozenBuffer<Element: Sendable>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline package let count: Int
    /// False for an empty buffer made from an empty array: its `base` is a shared block never read
    /// (indexes hold many empty lists, and an allocation each was a build's malloc count).
    private let owns: Bool

    @usableFromInline package init(_ elements: [Element]) {
        count = elements.count
        owns = count > 0
        base = count > 0 ? Self.allocate(count) : emptyBlock.assumingMemoryBound(to: Element.self)
        elements.withUnsafeBufferPointer { src in
            if let p = src.baseAddress, count > 0 { base.initialize(from: p, count: count) }
        }
    }

    /// Adopts `count` initialised elements at `base`, which must come from `allocate` (or `realloc`).
    init(adopting base: UnsafeMutablePointer<Element>, count: Int) {
        self.base = base
        self.count = count
        owns = true
    }

    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = Swift.max(capacity, 1) * MemoryLayout<Element>.stride
        precondition(MemoryLayout<Element>.alignment <= 16, "malloc aligns to 16 bytes")
        guard let raw = malloc(bytes) else { fatalError("out of memory (\(bytes) bytes)") }
        return raw.bindMemory(to: Element.self, capacity: Swift.max(capacity, 1))
    }

    deinit {
        guard owns else { return }
        base.deinitialize(count: count)
        free(base)
    }

    @inlinable @inline(__always)
    package subscript(i: Int) -> Element {
        assert(i >= 0 && i < count, "index out of the frozen buffer's bounds")
        return base[i]
    }

    /// A copy of the elements, for tests and reports: never on a per-event path.
    package var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Sorts the elements in `range` by `key`, equal keys keeping their order. Only while the buffer
    /// is being built, before any reader holds it: the one write a frozen buffer allows.
    func reorder(_ range: Range<Int>, by key: (Element) -> Int32) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "a range outside the frozen buffer")
        var positions = range.map { UInt64(UInt32(bitPattern: key(base[$0]))) << 32 | UInt64($0) }
        positions.sort()
        let sorted = positions.map { base[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)] }
        for (k, e) in zip(range, sorted) { base[k] = e }
    }
}

extension FrozenBuffer where Element: BitwiseCopyable {
    /// Appends plain values into memory that grows by `realloc` (in place when the allocator can) and
    /// becomes a `FrozenBuffer` without a copy: a build appends thousands of predicates and entries,
    /// and an `Array` then `FrozenBuffer(array)` paid uniqueness checks per append, a copy per doubling
    /// and a final copy.
    package struct Builder: ~Copyable {
        private var base: UnsafeMutablePointer<Element>
        private(set) var count = 0
        private var capacity: Int

        package init(capacity: Int = 64) {
            self.capacity = Swift.max(capacity, 1)
            base = FrozenBuffer.allocate(self.capacity)
        }

        deinit { free(base) }

        package mutating func append(_ element: Element) {
            if count == capacity { resize(to: capacity * 2) }
            (base + count).initialize(to: element)
            count += 1
        }

        package subscript(i: Int) -> Element {
            get {
                precondition(i >= 0 && i < count, "index \(i) out of 0..<\(count)")
                return base[i]
            }
            set {
                precondition(i >= 0 && i < count, "index \(i) out of 0..<\(count)")
                base[i] = newValue
            }
        }

        /// Drops the elements from `newCount` on.
        package mutating func truncate(to newCount: Int) {
            precondition(newCount >= 0 && newCount <= count)
            count = newCount
        }

        /// The elements `from..<count` as a mutable buffer (valid until the next append).
        mutating func withTail<R>(from first: Int, _ body: (inout UnsafeMutableBufferPointer<Element>) -> R) -> R {
            precondition(first >= 0 && first <= count)
            var tail = UnsafeMutableBufferPointer(start: base + first, count: count - first)
            return body(&tail)
        }

        /// `realloc` to `newCapacity` elements (larger or smaller).
        private mutating func resize(to newCapacity: Int) {
            guard let raw = realloc(base, newCapacity * MemoryLayout<Element>.stride) else {
                fatalError("out of memory (\(newCapacity) elements)")
            }
            base = raw.bindMemory(to: Element.self, capacity: newCapacity)
            capacity = newCapacity
        }

        /// The appended elements as a frozen buffer (the memory changes hands; nothing is copied).
        /// `shrinking: false` keeps the spare capacity: for short-lived buffers, where the shrinking
        /// `realloc` (a copy, with jemalloc) cost more than the memory.
        package consuming func freeze(shrinking: Bool = true) -> FrozenBuffer<Element> {
            // Down to size first (the matcher keeps it as long as the set lives); shrinking stays in place.
            if shrinking, capacity > Swift.max(count, 1) { resize(to: Swift.max(count, 1)) }
            let frozen = FrozenBuffer(adopting: base, count: count)
            discard self
            return frozen
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One growable column of `EventColumns`: plain values in memory that stays put while the column
/// lives, so a view of every column is a set of pointers taken at once instead of nested
/// `withUnsafeBufferPointer` closures. A value type: a copy shares the memory until either side
/// appends (copy on write).
@usableFromInline package struct EventColumn<Element: BitwiseCopyable & Sendable>: @unchecked Sendable {
    @usableFromInline final class Storage {
        var base: UnsafeMutablePointer<Element>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = Swift.max(capacity, 1)
            base = FrozenBuffer<Element>.allocate(self.capacity)
        }

        func copy() -> Storage {
            let other = Storage(capacity: capacity)
            other.base.update(from: base, count: count)
            other.count = count
            return other
        }

        func reserve(_ wanted: Int) {
            guard wanted > capacity else { return }
            let bytes = wanted * MemoryLayout<Element>.stride
            guard let grown = realloc(base, bytes) else { fatalError("out of memory (\(bytes) bytes)") }
            base = grown.bindMemory(to: Element.self, capacity: wanted)
            capacity = wanted
        }

        deinit { free(base) }
    }

    private var storage = Storage(capacity: 16)

    @usableFromInline package init() {}

    @usableFromInline package var count: Int { storage.count }

    @usableFromInline package subscript(i: Int) -> Element {
        precondition(i >= 0 && i < storage.count, "index \(i) out of range 0..<\(storage.count)")
        return storage.base[i]
    }

    package mutating func reserveCapacity(_ n: Int) {
        unshare()
        storage.reserve(n)
    }

    package mutating func append(_ value: Element) {
        unshare()
        if storage.count == storage.capacity { storage.reserve(storage.capacity * 2) }
        storage.base[storage.count] = value
        storage.count += 1
    }

    private mutating func unshare() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The elements; valid while this column (or a copy sharing its memory) is alive and not appended to.
    package var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: storage.base, count: storage.count) }
}

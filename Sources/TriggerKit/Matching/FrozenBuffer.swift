/// An immutable array copied into manually allocated memory: unchecked element loads and no
/// reference counting of a buffer per access, for the hot loops of the fast strategies.
/// Indexing out of range is undefined behaviour: callers index with ids validated at build time.
public final class FrozenBuffer<Element: Sendable>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    public let count: Int

    public init(_ elements: [Element]) {
        count = elements.count
        base = .allocate(capacity: Swift.max(count, 1))
        elements.withUnsafeBufferPointer { src in
            if let p = src.baseAddress { base.initialize(from: p, count: count) }
        }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inlinable @inline(__always)
    public subscript(i: Int) -> Element { base[i] }
}

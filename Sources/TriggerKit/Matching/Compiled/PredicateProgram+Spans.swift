extension PredicateProgram {
    /// One (trigger, condition) of a bucket with everything its evaluation needs inline, so a
    /// bucket scan reads one contiguous array.
    @usableFromInline package struct Entry: Sendable, BitwiseCopyable {
        @usableFromInline var trigger: Int32
        /// -1 any; -2 an action no event can carry; else the push action id.
        @usableFromInline var action: Int32
        @usableFromInline var clauseStart: Int32
        @usableFromInline var clauseEnd: Int32
        /// The trigger's window as one unsigned range test: an event at `time` is inside it exactly when
        /// `UInt64(bitPattern: timeKey(time) &- windowFrom) <= windowSpan` (`timeKey` preserves order).
        @usableFromInline var windowFrom: Int64
        @usableFromInline var windowSpan: UInt64
        /// The condition's required property keys as presence bits, plus the bit of its push action
        /// when it names one: an event whose properties (and action) lack one of them is rejected by one
        /// mask test, before any predicate is looked at. Bits can collide, so a survivor's action is
        /// still compared exactly.
        @usableFromInline var requiredKeys: UInt64

        /// Whether an event at `timeKey` falls in the trigger's window.
        @inlinable @inline(__always)
        func covers(timeKey: Int64) -> Bool { UInt64(bitPattern: timeKey &- windowFrom) <= windowSpan }

        /// The entry screen without the predicates: the window holds the event and the push action is
        /// the event's. What a condition known to hold by an index still has to pass.
        @inlinable @inline(__always)
        func admits(timeKey: Int64, action eventAction: Int32) -> Bool {
            covers(timeKey: timeKey) && (action < 0 || action == eventAction)
        }

        /// Whether the entry screen passes every event: no window and any push action. An index adds
        /// such a condition's trigger without reading the entry again.
        var admitsEveryEvent: Bool {
            let from = PredicateProgram.timeKey(-.infinity)
            return action < 0 && windowFrom == from && windowSpan == UInt64(bitPattern: PredicateProgram.timeKey(.infinity) &- from)
        }
    }

    /// The compiled form of one bucket entry, or nil when it can never match (its action is one no
    /// event carries, or its trigger's window is empty): such entries are left out of the spans.
    func entry(_ e: TriggerBuckets.Entry) -> Entry? {
        let c = conditions[Int(conditionStart[Int(e.trigger)]) + Int(e.condition)]
        let from = windowFrom[Int(e.trigger)], to = windowTo[Int(e.trigger)]
        guard c.action != -2, from <= to else { return nil }
        return Entry(trigger: e.trigger, action: c.action, clauseStart: c.clauseStart, clauseEnd: c.clauseEnd, windowFrom: from,
                     windowSpan: UInt64(bitPattern: to &- from), requiredKeys: c.requiredKeys | (c.action >= 0 ? Self.keyBit(c.action) : 0))
    }

    /// A double's bits as an integer in the same order as the doubles (negative ones have their
    /// magnitude bits flipped; -0 counts as +0). Times and window bounds are never NaN.
    @inlinable @inline(__always)
    static func timeKey(_ d: Double) -> Int64 {
        let b = Int64(bitPattern: (d + 0).bitPattern)  // + 0 turns -0 into +0
        return b ^ ((b &>> 63) & .max)
    }

    /// The compiled entries laid out so that one contiguous span per bucket holds everything an event
    /// of that bucket evaluates: the bucket's own entries, then its companion's (a product's bucket is
    /// followed by a copy of the any-purchase bucket, a campaign's by any-push; see
    /// `TriggerBuckets.companions`). Not `merged`, and each span is the bucket alone, when the copies
    /// would more than double the entries.
    /// `merge: false` keeps every span to its bucket (`predicate-index`, when an any-purchase or any-push
    /// bucket has an index of its own rather than a copy behind each product's or campaign's span).
    package func spans(for buckets: TriggerBuckets, merge: Bool = true) -> Spans {
        let companion = buckets.companions()
        var copies = 0
        for b in 0..<buckets.bucketCount where companion[b] >= 0 { copies += buckets.range(of: companion[b]).count }
        let merged = merge && copies <= buckets.entries.count
        var out = FrozenBuffer<Entry>.Builder(capacity: buckets.entries.count + (merged ? copies : 0))
        var start = FrozenBuffer<Int32>.Builder(capacity: buckets.bucketCount + 1)
        start.append(0)
        for b in 0..<buckets.bucketCount {
            for k in buckets.range(of: Int32(b)) { if let e = entry(buckets.entries[k]) { out.append(e) } }
            if merged, companion[b] >= 0 {
                for k in buckets.range(of: companion[b]) { if let e = entry(buckets.entries[k]) { out.append(e) } }
            }
            start.append(Int32(out.count))
        }
        return Spans(entries: out.freeze(), start: start.freeze(), merged: merged)
    }

    /// Compiled entries in one span per bucket (`spans(for:)`), as `compiled` and `predicate-index` scan them.
    package struct Spans: Sendable {
        package let entries: FrozenBuffer<Entry>
        /// Bucket `b`'s span is `entries[start[b]..<start[b + 1]]`.
        let start: FrozenBuffer<Int32>
        /// Whether each span holds its companion bucket's entries too; if not, an event with two buckets
        /// scans two spans.
        package let merged: Bool

        @inline(__always)
        package func range(of bucket: Int32) -> Range<Int> { Int(start[Int(bucket)])..<Int(start[Int(bucket) + 1]) }
    }

    /// Scans one bucket (`range` of `entries`) for event `i` (see `screenAndEvaluate`). `compiled`
    /// scans every bucket so, `predicate-index` its uncrowded ones.
}

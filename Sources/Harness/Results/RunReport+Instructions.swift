extension RunReport {
    /// Sets instructions per event on the single-threaded, unpublished row of each counted strategy,
    /// after checking the counted loop found the same matches.
    package mutating func merge(_ counts: [InstructionCounter.Count]) throws {
        for count in counts {
            guard let k = results.firstIndex(where: { $0.key == RowKey(strategy: count.strategy) }) else {
                continue
            }
            let timed = results[k].matches
            guard timed.checksum == count.checksum, timed.events == count.events else {
                throw MatchedWrongly(description: "\(count.strategy) under callgrind matched differently (checksum \(count.checksum.hex) over \(count.events) events) from the timed run (\(timed.checksum.hex) over \(timed.events))")
            }
            results[k].instructionsPerEvent = count.instructionsPerEvent
        }
    }
}

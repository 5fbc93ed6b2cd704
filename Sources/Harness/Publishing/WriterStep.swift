import TriggerKit

/// What a writer does per publication, made on the writer thread when it starts and dropped when it
/// stops (a delta writer's state is then freed with it): `next` makes the matcher to publish, and
/// `rebuilds` says how many of the matchers made so far were full builds, `redirects` how many were
/// redirected delta snapshots.
struct WriterStep {
    let next: () throws -> any Matcher
    let rebuilds: () -> Int
    var redirects: () -> Int = { 0 }

    /// A delta writer's first state, kept for the run: each repetition's writer restarts from it (on the
    /// writer thread, one at a time; `restarted()` only reads it).
    final class DeltaTemplate: @unchecked Sendable {
        let writer: any TriggerSetWriter
        init(_ writer: any TriggerSetWriter) { self.writer = writer }
    }

    /// How a row's writer makes its steps: always a different matcher object from the one readers hold.
    /// A delta writer restarts from `template` each repetition; its first delta is applied untimed and
    /// unpublished, since the writer's first interning copies the table it shares with the events (a
    /// cost of starting, not of a delta).
    static func maker(_ mode: WriterSettings.Mode, strategy: StrategyRegistry.Strategy, set: TriggerSet, vocabulary: Vocabulary,
                      template: DeltaTemplate?) throws -> @Sendable () throws -> WriterStep {
        let make = strategy.make
        switch mode {
        case .deltas(let n):
            guard let template else { preconditionFailure("a delta writer starts from its template") }
            return {
                let writer = template.writer.restarted()
                var deltas = BenchDeltas(set, triggers: n)
                try writer.apply(deltas.next())
                // Rebuilds of published deltas only: the untimed first one is not among the sets counted.
                let untimed = (writer.rebuilds, writer.redirects)
                return WriterStep(next: { try writer.apply(deltas.next()) }, rebuilds: { writer.rebuilds - untimed.0 },
                                  redirects: { writer.redirects - untimed.1 })
            }
        case .rebuild:
            return {
                var count = 0
                return WriterStep(next: { count += 1; return try make(set, vocabulary) }, rebuilds: { count })
            }
        case .prebuilt:
            let cycle = PrebuiltCycle(try (0..<4).map { _ in try make(set, vocabulary) })
            return { WriterStep(next: { cycle.next() }, rebuilds: { 0 }) }
        }
    }
}

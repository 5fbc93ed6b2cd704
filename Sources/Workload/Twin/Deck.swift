/// Draws by shares without the noise of independent draws: a deck holds each index as many times as
/// its share of the deck's size (largest remainders), shuffled, and is dealt card by card, then
/// shuffled again. A group of 39 conditions gets its 13 % without filters as 5, not as 2 to 8.
struct Deck {
    let counts: [Int]
    var cards: [Int32] = []
    var next = 0
    /// Dealt by independent weighted draws instead, when the generation's cards are spent.
    var drawn = false
    var size: Int { counts.reduce(0, +) }

    /// At most this many cards: past it, a deck is a scaled copy (it is reshuffled when dealt out).
    static let maxCards = 1 << 20

    init(weights: [Int]) {
        let total = weights.reduce(0) { $0 + max(0, $1) }
        self.init(shares: weights.map { Double(max(0, $0)) }, size: min(total, Self.maxCards))
    }

    init(shares: [Double], size: Int) {
        let total = shares.reduce(0, +)
        let n = min(max(1, size), Self.maxCards)
        guard total > 0 else { counts = shares.isEmpty ? [] : [n] + Array(repeating: 0, count: shares.count - 1); return }
        let exact = shares.map { $0 / total * Double(n) }
        var counts = exact.map { Int($0.rounded(.down)) }
        let order = exact.indices.sorted { exact[$0] - Double(counts[$0]) > exact[$1] - Double(counts[$1]) }
        for i in order.prefix(n - counts.reduce(0, +)) { counts[i] += 1 }
        self.counts = counts
    }

    mutating func deal(_ rng: inout DeterministicRandom) -> Int {
        if drawn {
            var u = rng.below(max(1, size))
            for (i, c) in counts.enumerated() {
                if u < c { return i }
                u -= c
            }
            return 0
        }
        if next == cards.count {
            cards = counts.enumerated().flatMap { Array(repeating: Int32($0.offset), count: $0.element) }
            if cards.isEmpty { return 0 }
            for k in cards.indices.reversed() where k > 0 { cards.swapAt(k, rng.below(k + 1)) }
            next = 0
        }
        next += 1
        return Int(cards[next - 1])
    }
}

/// The decks of one corpus generation, by what they deal.
final class Decks {
    var decks: [String: Deck] = [:]
    /// Cards all decks may hold (64 MiB); a hand-written spec with thousands of heavy decks gets draws.
    var cardsLeft = 1 << 24

    func deal(_ name: String, _ rng: inout DeterministicRandom, make: () -> Deck) -> Int {
        if decks[name] == nil {
            var deck = make()
            if deck.size > cardsLeft { deck.drawn = true } else { cardsLeft -= deck.size }
            decks[name] = deck
        }
        return decks[name]!.deal(&rng)
    }
}

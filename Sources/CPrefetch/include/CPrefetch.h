#ifndef TRIGGER_BENCH_CPREFETCH_H
#define TRIGGER_BENCH_CPREFETCH_H

/// A software prefetch for reading of the cache line holding `address`, given as an integer: callers
/// compute it from a column's base without unwrapping an optional pointer (an empty column has none,
/// and a prefetch never faults on any address). Swift has no prefetch intrinsic; the replay loops use
/// this to pull a later event's property payload towards L1 while the current event is matched (see
/// CompiledMatcher.match).
static inline __attribute__((always_inline)) void trigger_bench_prefetch_address(unsigned long address) {
    __builtin_prefetch((const void *)address, 0, 3);
}

#endif

#ifndef TRIGGER_BENCH_CPREFETCH_H
#define TRIGGER_BENCH_CPREFETCH_H

/// A software prefetch of the cache line holding `address` for reading (no fault on any address).
/// Swift has no prefetch intrinsic; the replay loops use this to pull a later event's property
/// payload towards L1 while the current event is matched (see CompiledMatcher.match).
static inline __attribute__((always_inline)) void trigger_bench_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif

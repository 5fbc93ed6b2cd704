#ifndef TRIGGER_BENCH_CCYCLECOUNTER_H
#define TRIGGER_BENCH_CCYCLECOUNTER_H
// The CPU's own counter, for timing one event at a time (a clock_gettime call costs about as much as
// matching an event). x86-64: the time-stamp counter (invariant on current CPUs, so it ticks at a
// constant rate whatever the frequency); arm64: the virtual counter cntvct_el0; elsewhere the
// monotonic clock in nanoseconds. Ticks are converted to nanoseconds by calibrating against the
// monotonic clock (Harness/Measure/CycleClock.swift).
#include <stdint.h>

#if defined(__x86_64__)
#include <x86intrin.h>
/// A reading taken before the timed code: lfence keeps earlier instructions from drifting past it.
static inline uint64_t trigger_bench_ticks_begin(void) {
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}
/// A reading taken after the timed code: rdtscp waits for it to finish; lfence keeps later
/// instructions from starting before the read.
static inline uint64_t trigger_bench_ticks_end(void) {
    unsigned int aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}
#elif defined(__aarch64__)
static inline uint64_t trigger_bench_ticks_begin(void) {
    uint64_t t;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(t) :: "memory");
    return t;
}
static inline uint64_t trigger_bench_ticks_end(void) {
    uint64_t t;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(t) :: "memory");
    return t;
}
#else
#include <time.h>
static inline uint64_t trigger_bench_ticks_begin(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline uint64_t trigger_bench_ticks_end(void) { return trigger_bench_ticks_begin(); }
#endif

/// The name of the counter in use, for the report.
static inline const char *trigger_bench_ticks_source(void) {
#if defined(__x86_64__)
    return "rdtsc";
#elif defined(__aarch64__)
    return "cntvct_el0";
#else
    return "clock_gettime";
#endif
}

#endif

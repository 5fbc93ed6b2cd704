#ifndef TRIGGER_BENCH_DIGEST_H
#define TRIGGER_BENCH_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256 (FIPS 180-4) over streamed bytes: results record the digest of the files they replayed.
typedef struct trigger_bench_sha256 {
    uint32_t state[8];
    uint64_t length;
    uint8_t block[64];
    size_t used;
    /// Nonzero: the portable rounds even where the CPU has SHA extensions (tests compare the two).
    int portable;
} trigger_bench_sha256;

void trigger_bench_sha256_init(trigger_bench_sha256 *h);
void trigger_bench_sha256_update(trigger_bench_sha256 *h, const void *bytes, size_t count);
/// Whether this CPU's SHA extensions hash the blocks (x86-64 with SHA, SSE4.1 and SSSE3).
int trigger_bench_sha256_extensions(void);
/// Writes the 32-byte digest; `h` must be initialised again before reuse.
void trigger_bench_sha256_final(trigger_bench_sha256 *h, uint8_t digest[32]);

#endif

#include "CDigest.h"
#include <string.h>

// In C rather than Swift: a debug build hashes a large event log at C speed instead of 50x slower.
// Where the CPU has the SHA extensions (x86-64), blocks go through them: several times the speed of
// the portable rounds, which otherwise take a second core for as long as a large corpus decodes.

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t s[8], const uint8_t b[64]) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s[0], bb = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = bb; bb = a; a = t1 + t2;
    }
    s[0] += a; s[1] += bb; s[2] += c; s[3] += d; s[4] += e; s[5] += f; s[6] += g; s[7] += h;
}

void trigger_bench_sha256_init(trigger_bench_sha256 *h) {
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(h->state, initial, sizeof initial);
    h->length = 0;
    h->used = 0;
    h->portable = 0;
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

// The rounds of one 4-word group of the schedule: two SHA256RNDS2 steps on the words plus constants.
#define ROUNDS(words, g)                                                              \
    do {                                                                              \
        __m128i m = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)&K[4 * (g)])); \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);                                  \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0E));         \
    } while (0)

__attribute__((target("sha,sse4.1,ssse3")))
static void compress_sha_extensions(uint32_t s[8], const uint8_t *p, size_t blocks) {
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The state as the instructions hold it: ABEF and CDGH.
    __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&s[0]), 0xB1);
    __m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&s[4]), 0x1B);
    __m128i abef = _mm_alignr_epi8(dcba, hgfe, 8);
    __m128i cdgh = _mm_blend_epi16(hgfe, dcba, 0xF0);
    for (; blocks > 0; blocks--, p += 64) {
        __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), swap);
        __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), swap);
        __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), swap);
        __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), swap);
        ROUNDS(w0, 0);
        ROUNDS(w1, 1);
        w0 = _mm_sha256msg1_epu32(w0, w1);
        ROUNDS(w2, 2);
        w1 = _mm_sha256msg1_epu32(w1, w2);
        // Groups 3 to 12: each makes the group four ahead from the last four.
        for (int g = 3; g < 13; g++) {
            __m128i cur = g % 4 == 0 ? w0 : g % 4 == 1 ? w1 : g % 4 == 2 ? w2 : w3;
            __m128i prev = g % 4 == 0 ? w3 : g % 4 == 1 ? w0 : g % 4 == 2 ? w1 : w2;
            __m128i next = g % 4 == 0 ? w1 : g % 4 == 1 ? w2 : g % 4 == 2 ? w3 : w0;
            ROUNDS(cur, g);
            next = _mm_sha256msg2_epu32(_mm_add_epi32(next, _mm_alignr_epi8(cur, prev, 4)), cur);
            prev = _mm_sha256msg1_epu32(prev, cur);
            switch (g % 4) {
            case 0: w1 = next; w3 = prev; break;
            case 1: w2 = next; w0 = prev; break;
            case 2: w3 = next; w1 = prev; break;
            default: w0 = next; w2 = prev; break;
            }
        }
        ROUNDS(w1, 13);
        w2 = _mm_sha256msg2_epu32(_mm_add_epi32(w2, _mm_alignr_epi8(w1, w0, 4)), w1);
        ROUNDS(w2, 14);
        w3 = _mm_sha256msg2_epu32(_mm_add_epi32(w3, _mm_alignr_epi8(w2, w1, 4)), w2);
        ROUNDS(w3, 15);
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&s[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&s[4], _mm_alignr_epi8(dchg, feba, 8));
}

static int has_sha_extensions(void) {
    static int known = -1;  // a race only computes the same answer twice
    if (known < 0) {
        unsigned a, b, c, d;
        int sse41 = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1) && (c & bit_SSSE3);
        int sha = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
        known = sse41 && sha;
    }
    return known;
}
#endif

int trigger_bench_sha256_extensions(void) {
#if defined(__x86_64__)
    return has_sha_extensions();
#else
    return 0;
#endif
}

static void compress_blocks(const trigger_bench_sha256 *h, uint32_t s[8], const uint8_t *p, size_t blocks) {
#if defined(__x86_64__)
    if (!h->portable && has_sha_extensions()) { compress_sha_extensions(s, p, blocks); return; }
#endif
    for (; blocks > 0; blocks--, p += 64) compress(s, p);
}

void trigger_bench_sha256_update(trigger_bench_sha256 *h, const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    h->length += count;
    if (h->used > 0) {
        size_t take = 64 - h->used < count ? 64 - h->used : count;
        memcpy(h->block + h->used, p, take);
        h->used += take;
        p += take;
        count -= take;
        if (h->used < 64) return;
        compress_blocks(h, h->state, h->block, 1);
        h->used = 0;
    }
    // Whole blocks straight from the input, the rest kept for the next call.
    compress_blocks(h, h->state, p, count / 64);
    p += count / 64 * 64;
    count %= 64;
    memcpy(h->block, p, count);
    h->used = count;
}

void trigger_bench_sha256_final(trigger_bench_sha256 *h, uint8_t digest[32]) {
    uint64_t bits = h->length * 8;
    uint8_t pad = 0x80;
    trigger_bench_sha256_update(h, &pad, 1);
    uint8_t zero = 0;
    while (h->used != 56) trigger_bench_sha256_update(h, &zero, 1);
    uint8_t len[8];
    for (int i = 0; i < 8; i++) len[i] = (uint8_t)(bits >> (56 - 8 * i));
    trigger_bench_sha256_update(h, len, 8);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(h->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(h->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)h->state[i];
    }
}

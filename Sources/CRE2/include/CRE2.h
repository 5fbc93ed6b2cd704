#ifndef TRIGGER_BENCH_CRE2_H
#define TRIGGER_BENCH_CRE2_H
// A C face on RE2 (a linear-time regex engine: no backtracking, so no pattern can stall a match).
// Only what `regex` filters need: compile a case-insensitive UTF-8 pattern, search, free.
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trigger_bench_regex trigger_bench_regex;

/// Compiles `pattern` (RE2 syntax, case-insensitive, UTF-8). On failure returns NULL and writes RE2's
/// reason, NUL-terminated and cut to `reason_size` bytes, into `reason`.
trigger_bench_regex *trigger_bench_regex_compile(const char *pattern, size_t length, char *reason, size_t reason_size);

/// 1 when the pattern matches anywhere in `text` (a search, not an anchored match), else 0.
int trigger_bench_regex_search(const trigger_bench_regex *regex, const char *text, size_t length);

/* Instructions in the compiled program (RE2::ProgramSize): counted repetition expands here. */
size_t trigger_bench_regex_program_size(const trigger_bench_regex *regex);

void trigger_bench_regex_free(trigger_bench_regex *regex);

#ifdef __cplusplus
}
#endif
#endif

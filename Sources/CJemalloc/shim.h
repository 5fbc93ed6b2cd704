// jemalloc's public API. Only the `bench` executable links jemalloc (Debian builds it without a
// je_ prefix, so linking replaces malloc for the whole process); libraries and test bundles find
// `mallctl` at run time, so they also run under ThreadSanitizer, which brings its own allocator.
#include <jemalloc/jemalloc.h>

/// Called once by `bench` so the linker keeps jemalloc (Debian links with --as-needed).
static inline int trigger_bench_jemalloc_present(void) {
    return mallctl("version", 0, 0, 0, 0) == 0;
}

// A tiny shim around the client-request macros of <valgrind/callgrind.h>, which Swift cannot call
// directly (they are inline assembly). Without the valgrind headers it compiles to no-ops, and the
// instruction tier reports that it could not count.
#include "CCallgrind.h"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define TRIGGER_BENCH_HAVE_CALLGRIND 1
#endif

void trigger_bench_callgrind_start(void) {
#ifdef TRIGGER_BENCH_HAVE_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_TOGGLE_COLLECT;
#endif
}

void trigger_bench_callgrind_stop(void) {
#ifdef TRIGGER_BENCH_HAVE_CALLGRIND
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_STOP_INSTRUMENTATION;
#endif
}

int trigger_bench_running_on_valgrind(void) {
#ifdef TRIGGER_BENCH_HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

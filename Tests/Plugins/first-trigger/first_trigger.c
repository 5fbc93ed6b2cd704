// A deliberately wrong matcher for the harness's own tests: every event matches trigger 0 and nothing
// else. `bench run` must exit 1 on its row and `bench conform` must name the cases it fails.
#include "trigger_bench_plugin.h"
#include <stdlib.h>

static void *create(const tb_corpus *corpus, const tb_vocabulary *vocabulary, const tb_host *host, char *error,
                    size_t error_capacity) {
    (void)vocabulary, (void)host, (void)error, (void)error_capacity;
    return (void *)corpus;
}

static void destroy(void *matcher) { (void)matcher; }

static int32_t match(const void *matcher, void *scratch, const tb_events *events, int64_t index, int32_t *out,
                     int64_t *candidates) {
    (void)scratch, (void)events, (void)index, (void)candidates;
    if (((const tb_corpus *)matcher)->trigger_count == 0) return 0;
    out[0] = 0;
    return 1;
}

static const tb_plugin table = {
    .abi_version = TB_PLUGIN_ABI_VERSION, .name = "first-trigger", .version = "test",
    .create = create, .destroy = destroy, .match = match,
};

const tb_plugin *trigger_bench_plugin(void) { return &table; }

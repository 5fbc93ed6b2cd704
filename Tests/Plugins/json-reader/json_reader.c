// The example linear scan, refusing to build unless the corpus JSON it is handed names every trigger of
// the flat arrays, and as many triggers: a plugin that reads the JSON itself must be handed the set the
// flat arrays describe, after a delta too, not the file the run started from.
#define trigger_bench_plugin linear_scan_table
#include "../../../Examples/Plugins/linear-scan/linear_scan.c"
#undef trigger_bench_plugin

#include <string.h>

// Occurrences of `needle` in the JSON text (which holds no NUL).
static size_t occurrences(const tb_corpus *corpus, const char *needle, size_t length) {
    size_t count = 0;
    for (size_t at = 0; at + length <= corpus->json_length; at++) {
        if (memcmp(corpus->json + at, needle, length) == 0) count++;
    }
    return count;
}

static void *jr_create(const tb_corpus *corpus, const tb_vocabulary *vocabulary, const tb_host *host, char *error,
                       size_t error_capacity) {
    // Each trigger object has one "conditions" member; nothing else in a corpus is named so.
    size_t listed = occurrences(corpus, "\"conditions\"", 12);
    if (listed != (size_t)corpus->trigger_count) {
        snprintf(error, error_capacity, "json-reader: the JSON holds %zu triggers, the flat arrays %d", listed, corpus->trigger_count);
        return NULL;
    }
    for (int32_t t = 0; t < corpus->trigger_count; t++) {
        char quoted[300];
        const tb_string id = corpus->triggers[t].id;
        if (id.length > sizeof quoted - 3) continue;
        quoted[0] = '"';
        memcpy(quoted + 1, id.bytes, id.length);
        quoted[id.length + 1] = '"';
        if (occurrences(corpus, quoted, id.length + 2) == 0) {
            snprintf(error, error_capacity, "json-reader: trigger %.*s is not in the JSON", (int)id.length, id.bytes);
            return NULL;
        }
    }
    return ls_create(corpus, vocabulary, host, error, error_capacity);
}

static const tb_plugin table = {
    .abi_version = TB_PLUGIN_ABI_VERSION, .name = "json-reader", .version = "test",
    .create = jr_create, .destroy = ls_destroy, .match = ls_match, .match_batch = ls_match_batch,
};

const tb_plugin *trigger_bench_plugin(void) { return &table; }

// A plugin that wraps a library, for scripts/test-plugins: the matching is the example plugin's; around it,
// a vendored source (vendor/legacy.c), a prebuilt archive given in LDLIBS (library_tag), options from
// `--plugin PATH,key=value` and `describe` facts (ABI 2).
#define trigger_bench_plugin linear_scan_entry
#include "../../../Examples/Plugins/linear-scan/linear_scan.c"
#undef trigger_bench_plugin

int hash(const char *s);        // vendor/legacy.c
const char *library_tag(void);  // libtag.a

typedef struct wrapped {
    void *inner;
    char label[64];
    int options, filters;
} wrapped;

static void *w_create(const tb_corpus *corpus, const tb_vocabulary *vocabulary, const tb_host *host, char *error,
                      size_t error_capacity) {
    wrapped *w = calloc(1, sizeof *w);
    if (w == NULL) {
        snprintf(error, error_capacity, "wrapped: out of memory");
        return NULL;
    }
    w->inner = ls_create(corpus, vocabulary, host, error, error_capacity);
    snprintf(w->label, sizeof w->label, "none");
    for (int32_t k = 0; k < corpus->option_count; k++) {
        const tb_option *o = &corpus->options[k];
        if (o->key.length == 4 && memcmp(o->key.bytes, "fail", 4) == 0) {
            snprintf(error, error_capacity, "wrapped: asked to fail by option fail=%.*s", (int)o->value.length, o->value.bytes);
            ls_destroy(w->inner);
            free(w);
            return NULL;
        }
        if (o->key.length == 5 && memcmp(o->key.bytes, "label", 5) == 0)
            snprintf(w->label, sizeof w->label, "%.*s", (int)o->value.length, o->value.bytes);
    }
    w->options = corpus->option_count;
    w->filters = corpus->filter_count;
    return w;
}

static void w_destroy(void *matcher) {
    ls_destroy(((wrapped *)matcher)->inner);
    free(matcher);
}

static int32_t w_match(const void *matcher, void *scratch, const tb_events *events, int64_t index, int32_t *out,
                       int64_t *candidates) {
    return ls_match(((const wrapped *)matcher)->inner, scratch, events, index, out, candidates);
}

static void w_describe(const void *matcher, void (*fact)(void *context, const char *key, const char *value), void *context) {
    const wrapped *w = matcher;
    char text[32];
    fact(context, "library", library_tag());
    fact(context, "label", w->label);
    snprintf(text, sizeof text, "%d", w->options);
    fact(context, "options", text);
    snprintf(text, sizeof text, "%d", w->filters);
    fact(context, "filters", text);
    snprintf(text, sizeof text, "%d", hash("abc"));
    fact(context, "vendor_hash", text);
}

static const tb_plugin wrapped_plugin = {
    .abi_version = TB_PLUGIN_ABI_VERSION,
    .name = "wrapped",
    .version = "test",
    .create = w_create,
    .destroy = w_destroy,
    .match = w_match,
    .describe = w_describe,
};

const tb_plugin *trigger_bench_plugin(void) { return &wrapped_plugin; }

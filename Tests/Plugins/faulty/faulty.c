// The example plugin with one fault chosen by TB_TEST_FAULT when a matcher is built, for the harness's
// own tests of what a run catches (scripts/test-plugins):
//   wrong                 every matcher drops each event's first match (ABI-clean, wrong answers)
//   wrong-late            the same from event 1,000 on (past a short reference prefix)
//   wrong-after-rebuild   matchers after the first (a publication writer's) drop the first match
//   range-after-rebuild   matchers after the first also report an index past the corpus
//   batch-count           match_batch does its work, then returns one event more than it was given
//   refuse-regex          create refuses a corpus with a regex filter: a partial port, correct elsewhere
//   refuse-all            create refuses every corpus
//   refuse-long           create refuses every corpus with a reason as long as the error buffer holds
// Unset, it is the example plugin. Built with -DTB_TEST_SLOW (CFLAGS), every match is done twice: a
// correct plugin that costs about twice the instructions, for the gate's tests; with -DTB_TEST_WRONG
// (or `#define TB_TEST_WRONG` above the include) it always gives the `wrong` fault.
#define trigger_bench_plugin linear_scan_entry
#include "../../../Examples/Plugins/linear-scan/linear_scan.c"
#undef trigger_bench_plugin

typedef struct faulty {
    void *inner;
    int drop_first, out_of_range;
    int64_t drop_from; // the first event index whose first match is dropped
} faulty;

static int built = 0; // matchers built so far; `create` runs on one thread at a time
static int batch_count_fault = 0;

static void *f_create(const tb_corpus *corpus, const tb_vocabulary *vocabulary, const tb_host *host, char *error,
                      size_t error_capacity) {
    const char *fault = getenv("TB_TEST_FAULT");
    fault = fault ? fault : "";
    if ((strcmp(fault, "refuse-regex") == 0 && corpus->regex_count > 0) || strcmp(fault, "refuse-all") == 0) {
        snprintf(error, error_capacity, "faulty: regex filters are not supported");
        return NULL;
    }
    if (strcmp(fault, "refuse-long") == 0) {
        size_t n = error_capacity - 1;
        memset(error, 'r', n);
        error[n] = 0;
        return NULL;
    }
    faulty *f = malloc(sizeof *f);
    if (f == NULL) {
        snprintf(error, error_capacity, "faulty: out of memory");
        return NULL;
    }
    f->inner = ls_create(corpus, vocabulary, host, error, error_capacity);
    int rebuilt = built++ > 0;
#ifdef TB_TEST_WRONG
    fault = "wrong";
#endif
    f->drop_first = strcmp(fault, "wrong") == 0 || strcmp(fault, "wrong-late") == 0 ||
                    (rebuilt && strcmp(fault, "wrong-after-rebuild") == 0);
    f->drop_from = strcmp(fault, "wrong-late") == 0 ? 1000 : 0;
    f->out_of_range = rebuilt && strcmp(fault, "range-after-rebuild") == 0;
    batch_count_fault = strcmp(fault, "batch-count") == 0;
    return f;
}

static void f_destroy(void *matcher) {
    ls_destroy(((faulty *)matcher)->inner);
    free(matcher);
}

static int32_t f_match(const void *matcher, void *scratch, const tb_events *events, int64_t index, int32_t *out,
                       int64_t *candidates) {
    const faulty *f = matcher;
#ifdef TB_TEST_SLOW
    ls_match(f->inner, scratch, events, index, out, NULL);
#endif
    int32_t n = ls_match(f->inner, scratch, events, index, out, candidates);
    if (f->drop_first && index >= f->drop_from && n > 0) {
        memmove(out, out + 1, (size_t)(n - 1) * sizeof *out);
        n--;
    }
    if (f->out_of_range && n > 0) out[0] = ((const linear_scan *)f->inner)->corpus->trigger_count;
    return n;
}

static int64_t f_match_batch(const void *matcher, void *scratch, const tb_events *events, int64_t first, int64_t count,
                             int32_t *out, int64_t capacity, int64_t *ends, int64_t *candidates) {
    const faulty *f = matcher;
    int64_t trigger_count = ((const linear_scan *)f->inner)->corpus->trigger_count;
    int64_t written = 0, done = 0;
    for (; done < count && written + trigger_count <= capacity; done++) {
        written += f_match(matcher, scratch, events, first + done, out + written, candidates);
        ends[done] = written;
    }
    return batch_count_fault ? count + 1 : done;
}

static const tb_plugin faulty_plugin = {
    .abi_version = TB_PLUGIN_ABI_VERSION,
    .name = "faulty",
    .version = "test",
    .create = f_create,
    .destroy = f_destroy,
    .match = f_match,
    .match_batch = f_match_batch,
};

const tb_plugin *trigger_bench_plugin(void) { return &faulty_plugin; }

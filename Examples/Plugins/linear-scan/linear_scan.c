/*
 * linear_scan.c: an example TriggerBench plugin (see Plugins/include/trigger_bench_plugin.h).
 *
 * It is deliberately the simplest correct matcher: for every event it walks every trigger and
 * interprets the trigger's conditions and filters straight from the flat corpus the host decoded.
 * No index, no precomputation, no scratch memory. Use it as a template when porting a matcher:
 * replace `create` with your own build step and `match` with your own lookup, and keep the
 * filter semantics below (they are the oracle's, docs/semantics.md).
 *
 * Build: build-plugin "$TRIGGERBENCH/Examples/Plugins/linear-scan" (README: the export line)
 */
#include "trigger_bench_plugin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The corpus and host stay valid until `destroy`, so the matcher only keeps pointers to them. */
typedef struct linear_scan {
    const tb_corpus *corpus;
    const tb_host *host;
} linear_scan;

/* Bit patterns to doubles through memcpy: well defined, unlike a pointer cast. */
static double double_from_bits(uint64_t bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Compares an int64 with a finite double exactly: -1, 0 or 1 as i is below, equal to or above d.
 * Converting i to double would round (2^53 + 1 == 2^53 as doubles), so compare integer parts first. */
static int compare_int_double(int64_t i, double d) {
    if (d >= 9223372036854775808.0) return -1; /* d >= 2^63: above every int64 */
    if (d < -9223372036854775808.0) return 1;  /* d < -2^63: below every int64 */
    double whole = trunc(d);
    int64_t w = (int64_t)whole; /* exact: whole is an integer in int64 range */
    if (i != w) return i < w ? -1 : 1;
    double frac = d - whole;
    return frac > 0 ? -1 : (frac < 0 ? 1 : 0);
}

/* Exact three-way comparison of two numbers given as (TB_VALUE_INT or TB_VALUE_DOUBLE, bits). */
static int compare_numbers(uint8_t at, uint64_t a, uint8_t bt, uint64_t b) {
    if (at == TB_VALUE_INT && bt == TB_VALUE_INT) {
        int64_t x = (int64_t)a, y = (int64_t)b;
        return x < y ? -1 : (x == y ? 0 : 1);
    }
    if (at != TB_VALUE_INT && bt != TB_VALUE_INT) {
        double x = double_from_bits(a), y = double_from_bits(b);
        return x < y ? -1 : (x == y ? 0 : 1);
    }
    if (at == TB_VALUE_INT) return compare_int_double((int64_t)a, double_from_bits(b));
    return -compare_int_double((int64_t)b, double_from_bits(a));
}

/* Whether a property tag holds a value of the filter's type; otherwise the property counts as missing. */
static int tag_fits(uint8_t type, uint8_t tag) {
    switch (type) {
    case TB_TYPE_NUMBER: return tag == TB_VALUE_INT || tag == TB_VALUE_DOUBLE;
    case TB_TYPE_STRING: return tag == TB_VALUE_STRING;
    case TB_TYPE_BOOLEAN: return tag == TB_VALUE_BOOL;
    case TB_TYPE_DATE: return tag == TB_VALUE_DATE;
    default: return 0;
    }
}

/* Position of the event's property with key `key`, or -1. Properties are sorted by key, so the
 * scan stops at the first larger key. (A binary search would do; events have few properties.) */
static int32_t find_property(const tb_events *events, int64_t event, int32_t key) {
    for (int32_t p = events->property_start[event]; p < events->property_start[event + 1]; p++) {
        if (events->property_keys[p] == key) return p;
        if (events->property_keys[p] > key) break;
    }
    return -1;
}

static int filter_holds(const linear_scan *m, const tb_filter *f, const tb_events *events, int64_t event) {
    const tb_corpus *c = m->corpus;
    int32_t at = find_property(events, event, f->key);
    if (at < 0 || !tag_fits(f->type, events->property_tags[at])) {
        /* Missing (absent, null or another type): only the negative operators hold. */
        return f->op == TB_OP_NE || f->op == TB_OP_NOT_IN || f->op == TB_OP_NOT_REGEX || f->op == TB_OP_NOT_EXISTS;
    }
    uint8_t tag = events->property_tags[at];
    uint64_t bits = events->property_bits[at];
    if (f->op == TB_OP_EXISTS) return 1;
    if (f->op == TB_OP_NOT_EXISTS) return 0;

    switch (f->type) {
    case TB_TYPE_NUMBER:
        if (f->operand == TB_OPERAND_NUMBER) {
            int cmp = compare_numbers(tag, bits, f->number_tag, f->bits);
            switch (f->op) {
            case TB_OP_EQ: return cmp == 0;
            case TB_OP_NE: return cmp != 0;
            case TB_OP_GT: return cmp > 0;
            case TB_OP_GTE: return cmp >= 0;
            case TB_OP_LT: return cmp < 0;
            case TB_OP_LTE: return cmp <= 0;
            default: return 0;
            }
        }
        if (f->operand == TB_OPERAND_NUMBERS && (f->op == TB_OP_IN || f->op == TB_OP_NOT_IN)) {
            int found = 0;
            for (int32_t k = f->list_start; k < f->list_start + f->list_count && !found; k++)
                found = compare_numbers(tag, bits, c->number_tags[k], c->number_bits[k]) == 0;
            return f->op == TB_OP_IN ? found : !found;
        }
        return 0;

    case TB_TYPE_STRING: {
        /* The host interned equal strings to one id, so string equality is id equality. */
        int32_t id = (int32_t)bits;
        if (f->operand == TB_OPERAND_STRING) {
            if (f->op == TB_OP_EQ) return id == (int32_t)f->bits;
            if (f->op == TB_OP_NE) return id != (int32_t)f->bits;
            return 0;
        }
        if (f->operand == TB_OPERAND_STRINGS && (f->op == TB_OP_IN || f->op == TB_OP_NOT_IN)) {
            int found = 0;
            for (int32_t k = f->list_start; k < f->list_start + f->list_count && !found; k++)
                found = c->string_ids[k] == id;
            return f->op == TB_OP_IN ? found : !found;
        }
        if (f->operand == TB_OPERAND_REGEX && (f->op == TB_OP_REGEX || f->op == TB_OP_NOT_REGEX)) {
            const tb_string *s = &events->strings[id];
            int found = m->host->regex_search(c->regexes[f->bits].compiled, s->bytes, s->length) != 0;
            return f->op == TB_OP_REGEX ? found : !found;
        }
        return 0;
    }

    case TB_TYPE_BOOLEAN:
        if (f->operand != TB_OPERAND_BOOL) return 0;
        if (f->op == TB_OP_EQ) return bits == f->bits;
        if (f->op == TB_OP_NE) return bits != f->bits;
        return 0;

    case TB_TYPE_DATE: {
        if (f->operand != TB_OPERAND_SECONDS) return 0;
        /* d: the property's date, k: the constant (a date or a duration), t: the event's time. */
        double d = double_from_bits(bits), k = double_from_bits(f->bits), t = events->times[event];
        switch (f->op) {
        case TB_OP_BEFORE: return d < k;
        case TB_OP_AFTER: return d > k;
        case TB_OP_LESS_THAN_SECONDS_AGO: return d <= t && t - d < k;
        case TB_OP_MORE_THAN_SECONDS_AGO: return d <= t && t - d > k;
        case TB_OP_IN_LESS_THAN_SECONDS: return d >= t && d - t < k;
        case TB_OP_IN_MORE_THAN_SECONDS: return d >= t && d - t > k;
        default: return 0;
        }
    }

    default:
        return 0;
    }
}

/* Whether the condition's kind, key and action fit the event (before looking at any clause). */
static int condition_applies(const tb_condition *cond, const tb_events *events, int64_t event) {
    if (cond->kind != events->kinds[event]) return 0;
    int32_t key = events->keys[event], action = events->actions[event];
    switch (cond->kind) {
    case TB_EVENT_CUSTOM: return cond->key == key;
    case TB_EVENT_PURCHASE: return cond->key == -1 || cond->key == key;
    case TB_EVENT_SESSION_START: return 1;
    case TB_EVENT_PUSH_CLICK:
        return (cond->key == -1 || cond->key == key) && (cond->action == -1 || cond->action == action);
    default: return 0;
    }
}

/* Every clause holds (a conjunction), and a clause holds when any of its filters does. */
static int clauses_hold(const linear_scan *m, const tb_condition *cond, const tb_events *events, int64_t event) {
    const tb_corpus *c = m->corpus;
    for (int32_t k = cond->clause_start; k < cond->clause_start + cond->clause_count; k++) {
        const tb_clause *clause = &c->clauses[k];
        int any = 0;
        for (int32_t f = clause->filter_start; f < clause->filter_start + clause->filter_count && !any; f++)
            any = filter_holds(m, &c->filters[f], events, event);
        if (!any) return 0;
    }
    return 1;
}

static void *ls_create(const tb_corpus *corpus, const tb_vocabulary *vocabulary, const tb_host *host,
                       char *error, size_t error_capacity) {
    (void)vocabulary; /* string ids are compared, never their text (regexes go through the host) */
    linear_scan *m = malloc(sizeof *m);
    if (m == NULL) {
        snprintf(error, error_capacity, "linear-scan: out of memory");
        return NULL;
    }
    m->corpus = corpus;
    m->host = host;
    return m;
}

static void ls_destroy(void *matcher) { free(matcher); }

/* Allocates nothing: results go straight into `out`, which has room for every trigger. */
static int32_t ls_match(const void *matcher, void *scratch, const tb_events *events, int64_t index,
                        int32_t *out, int64_t *candidates) {
    (void)scratch; /* no create_scratch, so always NULL */
    const linear_scan *m = matcher;
    const tb_corpus *c = m->corpus;
    double time = events->times[index];
    int32_t written = 0;
    int64_t evaluated = 0;
    for (int32_t t = 0; t < c->trigger_count; t++) {
        const tb_trigger *trigger = &c->triggers[t];
        if (trigger->has_start_time && !(time >= trigger->start_time)) continue;
        if (trigger->has_end_time && !(time <= trigger->end_time)) continue;
        for (int32_t k = trigger->condition_start; k < trigger->condition_start + trigger->condition_count; k++) {
            const tb_condition *cond = &c->conditions[k];
            if (!condition_applies(cond, events, index)) continue;
            evaluated++;
            if (clauses_hold(m, cond, events, index)) {
                out[written++] = t;
                break; /* report each trigger once, however many of its conditions match */
            }
        }
    }
    if (candidates != NULL) *candidates += evaluated;
    return written;
}

/* Saves the host one call per event. An event writes at most trigger_count entries, so stopping
 * while that many might not fit keeps every write inside `capacity`. */
static int64_t ls_match_batch(const void *matcher, void *scratch, const tb_events *events, int64_t first,
                              int64_t count, int32_t *out, int64_t capacity, int64_t *ends, int64_t *candidates) {
    const linear_scan *m = matcher;
    int64_t trigger_count = m->corpus->trigger_count;
    int64_t written = 0, done = 0;
    for (; done < count; done++) {
        if (written + trigger_count > capacity) break;
        written += ls_match(matcher, scratch, events, first + done, out + written, candidates);
        ends[done] = written;
    }
    return done;
}

static const tb_plugin plugin = {
    .abi_version = TB_PLUGIN_ABI_VERSION,
    .name = "linear-scan",
    .version = "1.0",
    .create = ls_create,
    .destroy = ls_destroy,
    .create_scratch = NULL,
    .destroy_scratch = NULL,
    .match = ls_match,
    .match_batch = ls_match_batch,
};

const tb_plugin *trigger_bench_plugin(void) { return &plugin; }

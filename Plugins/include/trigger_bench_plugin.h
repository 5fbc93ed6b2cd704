/*
 * trigger_bench_plugin.h: the C ABI through which `bench` loads a matcher from a shared library.
 *
 * A plugin exports one function, `trigger_bench_plugin`, returning a `tb_plugin` table. `bench` calls
 * `create` once per trigger set with the corpus (its JSON text, and the same corpus decoded and
 * validated by the host into flat arrays of vocabulary ids), then `match` (or `match_batch`) for each
 * event from the struct-of-arrays replay buffers every built-in strategy reads, and `destroy` at the end.
 * docs/plugins.md describes ownership, lifetime, threading and how to wrap C++, Rust or Swift code.
 *
 * All strings are UTF-8 and not NUL-terminated unless stated; every id is an index into a string table.
 */
#ifndef TRIGGER_BENCH_PLUGIN_H
#define TRIGGER_BENCH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header. `bench` loads plugins of versions TB_PLUGIN_ABI_MIN_VERSION to this one;
 * version 2 added the corpus's counts and options (`tb_corpus`) and `describe` (`tb_plugin`), at the
 * ends of their structs, so a version-1 plugin still loads and simply does not see them. */
#define TB_PLUGIN_ABI_VERSION 2u
#define TB_PLUGIN_ABI_MIN_VERSION 1u

/* Event kinds (`tb_events.kinds`, `tb_condition.kind`). */
enum {
    TB_EVENT_CUSTOM = 0,        /* key: event name id */
    TB_EVENT_PURCHASE = 1,      /* key: product id */
    TB_EVENT_SESSION_START = 2, /* key: -1 */
    TB_EVENT_PUSH_CLICK = 3     /* key: campaign id or -1; action: tapped action id or -1 */
};

/* Property value tags (`tb_events.property_tags`, number constants). */
enum {
    TB_VALUE_INT = 0,    /* bits: int64_t */
    TB_VALUE_DOUBLE = 1, /* bits: the double's bit pattern */
    TB_VALUE_STRING = 2, /* bits: string id */
    TB_VALUE_BOOL = 3,   /* bits: 0 or 1 */
    TB_VALUE_DATE = 4,   /* bits: epoch seconds as a double's bit pattern */
    TB_VALUE_NULL = 5    /* bits: 0 */
};

/* Filter property types (`tb_filter.type`). A property holds a value of the type when its tag is:
 * number: INT or DOUBLE; string: STRING; boolean: BOOL; date: DATE. Otherwise it counts as missing. */
enum { TB_TYPE_NUMBER = 0, TB_TYPE_STRING = 1, TB_TYPE_BOOLEAN = 2, TB_TYPE_DATE = 3 };

/* Filter operators (`tb_filter.op`). On a missing property only NE, NOT_IN, NOT_REGEX and NOT_EXISTS hold. */
enum {
    TB_OP_EQ = 0, TB_OP_NE, TB_OP_GT, TB_OP_GTE, TB_OP_LT, TB_OP_LTE,
    TB_OP_IN, TB_OP_NOT_IN, TB_OP_EXISTS, TB_OP_NOT_EXISTS,
    TB_OP_REGEX, TB_OP_NOT_REGEX,
    TB_OP_BEFORE, TB_OP_AFTER,
    TB_OP_LESS_THAN_SECONDS_AGO, TB_OP_MORE_THAN_SECONDS_AGO,
    TB_OP_IN_LESS_THAN_SECONDS, TB_OP_IN_MORE_THAN_SECONDS
};

/* What `tb_filter.bits` and the list fields hold. */
enum {
    TB_OPERAND_NONE = 0,    /* exists / not_exists */
    TB_OPERAND_NUMBER = 1,  /* number_tag (INT or DOUBLE) and bits */
    TB_OPERAND_NUMBERS = 2, /* corpus.number_tags/number_bits[list_start ..< list_start + list_count] */
    TB_OPERAND_STRING = 3,  /* bits: string id */
    TB_OPERAND_STRINGS = 4, /* corpus.string_ids[list_start ..< list_start + list_count] */
    TB_OPERAND_BOOL = 5,    /* bits: 0 or 1 */
    TB_OPERAND_SECONDS = 6, /* bits: a double's bit pattern: epoch seconds (before/after) or a duration */
    TB_OPERAND_REGEX = 7    /* bits: index into corpus.regexes */
};

typedef struct tb_string {
    const char *bytes;
    size_t length;
} tb_string;

/* Interned strings by id. The corpus's strings come first (ids below `count` of the vocabulary given to
 * `create`); strings seen only in events have higher ids and appear only in `tb_events.strings`.
 * Two strings have the same id exactly when they are equal (Unicode canonical equivalence). */
typedef struct tb_vocabulary {
    const tb_string *strings;
    int32_t count;
} tb_vocabulary;

typedef struct tb_filter {
    int32_t key;        /* property key id */
    uint8_t type;       /* TB_TYPE_* */
    uint8_t op;         /* TB_OP_* */
    uint8_t operand;    /* TB_OPERAND_* */
    uint8_t number_tag; /* TB_VALUE_INT or TB_VALUE_DOUBLE for TB_OPERAND_NUMBER */
    uint64_t bits;
    int32_t list_start;
    int32_t list_count;
} tb_filter;

/* A clause holds when any of its filters holds. */
typedef struct tb_clause {
    int32_t filter_start;
    int32_t filter_count;
} tb_clause;

/* One way a trigger fires: the event kind and key fit (key -1: any purchase / any campaign; action -1:
 * any action) and every clause holds. Session-start and push-click conditions have no clauses. */
typedef struct tb_condition {
    uint8_t kind;
    int32_t key;
    int32_t action;
    int32_t clause_start;
    int32_t clause_count;
} tb_condition;

/* A trigger matches an event when the event time lies in its inclusive window and any condition matches. */
typedef struct tb_trigger {
    tb_string id;
    uint8_t has_start_time;
    uint8_t has_end_time;
    double start_time;
    double end_time;
    int32_t condition_start;
    int32_t condition_count;
} tb_trigger;

/* A `regex` constant: a case-insensitive RE2 search pattern, compiled by the host in Unicode NFC.
 * `pattern` is the text as the corpus wrote it, not normalized. */
typedef struct tb_regex {
    tb_string pattern;
    const void *compiled; /* for tb_host.regex_search */
} tb_regex;

/* A `key=value` the user gave after the plugin's path (`--plugin PATH,key=value,...`), in order. */
typedef struct tb_option {
    tb_string key;
    tb_string value;
} tb_option;

typedef struct tb_corpus {
    /* The corpus as trigger-corpus/1 JSON, for plugins with their own decoder: the file as given, or, for
     * a set a delta made, that set written out: always the triggers the arrays below describe. */
    const char *json;
    size_t json_length;
    int32_t trigger_count; /* a matcher reports triggers by index, 0 ..< trigger_count, in corpus order */
    const tb_trigger *triggers;
    const tb_condition *conditions;
    const tb_clause *clauses;
    const tb_filter *filters;
    const uint8_t *number_tags;
    const uint64_t *number_bits;
    const int32_t *string_ids;
    const tb_regex *regexes;
    int32_t regex_count;
    /* Since version 2: the lengths of the arrays above, and the user's options for this plugin. */
    int32_t condition_count;
    int32_t clause_count;
    int32_t filter_count;
    int32_t number_count;    /* number_tags and number_bits */
    int32_t string_id_count; /* string_ids */
    const tb_option *options;
    int32_t option_count;
} tb_corpus;

/* Services of the host, valid from `create` until `destroy` returns. */
typedef struct tb_host {
    /* 1 when the regex matches anywhere in the text, else 0. Thread-safe, allocates nothing. */
    int (*regex_search)(const void *compiled, const char *bytes, size_t length);
} tb_host;

/* The replay buffers: event i's properties are positions property_start[i] ..< property_start[i + 1],
 * sorted by key id with unique keys. `strings` covers every id the events use. */
typedef struct tb_events {
    int64_t count;
    const uint8_t *kinds;
    const int32_t *keys;
    const int32_t *actions;
    const double *times;
    const int32_t *property_start; /* count + 1 entries */
    const int32_t *property_keys;
    const uint8_t *property_tags;
    const uint64_t *property_bits;
    const tb_string *strings;
    int32_t string_count;
    int32_t corpus_string_count; /* ids at or above this are strings no corpus constant equals */
} tb_events;

typedef struct tb_plugin {
    uint32_t abi_version; /* TB_PLUGIN_ABI_VERSION */
    const char *name;     /* NUL-terminated; the row is `plugin:NAME` ([A-Za-z0-9._-], at most 64 bytes) */
    const char *version;  /* NUL-terminated, free-form */

    /* Builds a matcher. `corpus`, `vocabulary` and `host` stay valid until `destroy(matcher)` returns.
     * On failure returns NULL and writes a NUL-terminated one-line reason into `error`. */
    void *(*create)(const tb_corpus *corpus, const tb_vocabulary *vocabulary, const tb_host *host,
                    char *error, size_t error_capacity);
    void (*destroy)(void *matcher);

    /* Optional (both or neither): per-thread working memory. Each reader thread gets its own scratch;
     * `match` may write to its scratch and must not write to the matcher. Without them scratch is NULL.
     * A scratch is also handed to the other matchers the plugin builds from the same corpus (a
     * publication writer's rebuilds), and may outlive the matcher it was created with: size it from
     * the corpus, and do not touch any matcher in `destroy_scratch`. */
    void *(*create_scratch)(const void *matcher, const tb_events *events);
    void (*destroy_scratch)(void *scratch);

    /* Matches event `index`: writes the corpus indices of the matching triggers (any order, each at most
     * once) into `out`, which has room for `trigger_count` entries, and returns how many. May add the
     * number of conditions it evaluated to `*candidates`. Must not block or keep `events`. It should not
     * allocate: allocations are allowed (a faithful wrapper of a library that allocates is a valid row),
     * counted and shown in the row's alloc/ev and B/ev. */
    int32_t (*match)(const void *matcher, void *scratch, const tb_events *events, int64_t index,
                     int32_t *out, int64_t *candidates);

    /* Optional: matches events first ..< first + count. Appends each event's matches to `out` and sets
     * `ends[k]` to the number of entries written after event first + k. Stops early when the next event
     * might not fit in `capacity` (always at least `trigger_count`); returns the number of events done. */
    int64_t (*match_batch)(const void *matcher, void *scratch, const tb_events *events, int64_t first,
                           int64_t count, int32_t *out, int64_t capacity, int64_t *ends, int64_t *candidates);

    /* Since version 2, optional: facts about a built matcher (build phases, index shape, fallback
     * shares), reported by calling `fact` once per fact with NUL-terminated text the host copies. Called
     * after the run; recorded in the results beside the plugin's rows (`plugin_facts`). */
    void (*describe)(const void *matcher, void (*fact)(void *context, const char *key, const char *value), void *context);
} tb_plugin;

/* The one symbol a plugin exports. */
const tb_plugin *trigger_bench_plugin(void);
typedef const tb_plugin *(*tb_plugin_entry)(void);

#ifdef __cplusplus
}
#endif

#endif

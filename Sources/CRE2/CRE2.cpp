#include "CRE2.h"

#include <re2/re2.h>
#include <cstring>

struct trigger_bench_regex {
    re2::RE2 re;
    explicit trigger_bench_regex(const re2::StringPiece &pattern, const re2::RE2::Options &options) : re(pattern, options) {}
};

static void copy_reason(const char *text, char *reason, size_t reason_size) {
    if (reason == nullptr || reason_size == 0) return;
    size_t n = std::strlen(text);
    if (n >= reason_size) n = reason_size - 1;
    std::memcpy(reason, text, n);
    reason[n] = 0;
}

extern "C" trigger_bench_regex *trigger_bench_regex_compile(const char *pattern, size_t length, char *reason, size_t reason_size) {
    re2::RE2::Options options;
    options.set_case_sensitive(false);
    // Errors are returned to the caller, who names the trigger and path; RE2 must not print them.
    options.set_log_errors(false);
    trigger_bench_regex *regex = nullptr;
    try {
        regex = new trigger_bench_regex(re2::StringPiece(pattern, length), options);
    } catch (...) {
        regex = nullptr;
    }
    if (regex == nullptr) {
        copy_reason("out of memory", reason, reason_size);
        return nullptr;
    }
    if (!regex->re.ok()) {
        copy_reason(regex->re.error().c_str(), reason, reason_size);
        delete regex;
        return nullptr;
    }
    return regex;
}

extern "C" int trigger_bench_regex_search(const trigger_bench_regex *regex, const char *text, size_t length) {
    // RE2 matching is const and thread-safe: reader threads share one compiled pattern.
    return regex->re.Match(re2::StringPiece(text, length), 0, length, re2::RE2::UNANCHORED, nullptr, 0) ? 1 : 0;
}

extern "C" size_t trigger_bench_regex_program_size(const trigger_bench_regex *regex) {
    int size = regex->re.ProgramSize();
    return size > 0 ? static_cast<size_t>(size) : 0;
}

extern "C" void trigger_bench_regex_free(trigger_bench_regex *regex) { delete regex; }

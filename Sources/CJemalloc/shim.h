// jemalloc's public API (Debian builds it without a je_ prefix, so linking it replaces malloc
// for the whole process, the Swift runtime included).
#include <jemalloc/jemalloc.h>

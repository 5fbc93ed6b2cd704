// The plugin ABI is header-only; SwiftPM needs a source file to make Plugins/include a C module.
#include "trigger_bench_plugin.h"

#ifndef TRIGGER_BENCH_CCALLGRIND_H
#define TRIGGER_BENCH_CCALLGRIND_H

/// Starts counting instructions when the process runs under `valgrind --tool=callgrind
/// --instr-atstart=no --collect-atstart=no`; a handful of no-op instructions otherwise.
void trigger_bench_callgrind_start(void);

/// Stops counting (the matching loop is over).
void trigger_bench_callgrind_stop(void);

/// 1 when running under valgrind, 0 otherwise (or when the valgrind headers were missing at build time).
int trigger_bench_running_on_valgrind(void);

#endif

#ifndef TRIGGER_BENCH_CSIGNALS_H
#define TRIGGER_BENCH_CSIGNALS_H
// Temporary output files removed when the process is interrupted (SIGINT, SIGTERM, SIGHUP), so an
// interrupted write leaves neither a truncated target (outputs are renamed into place only when
// complete) nor a stray temporary file. The handler only calls unlink(2) and re-raises the signal:
// both are async-signal-safe.

/// Installs the handlers (idempotent), ignores SIGPIPE, so a closed pipe is an EPIPE error that the
/// writer handles instead of a silent death, and opens /dev/null on any of descriptors 0–2 that the
/// parent closed.
void trigger_bench_signals_install(void);

/// Remembers `path` for removal on interruption; returns a slot, or -1 when every slot is taken or
/// the path is too long (the file is then only removed on normal exits).
int trigger_bench_temporary_register(const char *path);

/// Forgets a slot (the file was renamed into place or removed).
void trigger_bench_temporary_unregister(int slot);
/// Remembers a temporary folder, removed (once its registered files are) on interruption; -1 if full.
int trigger_bench_folder_register(const char *path);
void trigger_bench_folder_unregister(int slot);
/// Remembers a child process, sent SIGTERM on interruption; -1 if full.
int trigger_bench_child_register(int pid);
void trigger_bench_child_unregister(int slot);

#endif

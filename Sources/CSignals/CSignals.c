#include "CSignals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

enum { SLOTS = 32, PATH_BYTES = 4096 };

static char paths[SLOTS][PATH_BYTES];
// 1 while a slot holds a path. sig_atomic_t and volatile: read by the handler, which may interrupt
// register/unregister; a slot's path is written before it is marked used.
static volatile sig_atomic_t used[SLOTS];
// Folders to remove after their files (rmdir, so only once empty), and child processes to stop: a
// valgrind child would otherwise run on, orphaned, after bench is stopped.
static char folders[SLOTS][PATH_BYTES];
static volatile sig_atomic_t folder_used[SLOTS];
static volatile sig_atomic_t children[SLOTS];

static void remove_temporaries(int signo) {
    for (int i = 0; i < SLOTS; i++) {
        // Stopped first, so a child no longer writes into the files removed next.
        if (children[i] > 0) kill((pid_t)children[i], SIGTERM);
    }
    for (int i = 0; i < SLOTS; i++) {
        if (used[i]) {
            // Pairs with the release fence in register: the path is read only after its flag.
            atomic_signal_fence(memory_order_acquire);
            unlink(paths[i]);
        }
    }
    for (int i = 0; i < SLOTS; i++) {
        if (folder_used[i]) {
            atomic_signal_fence(memory_order_acquire);
            rmdir(folders[i]);
        }
    }
    signal(signo, SIG_DFL);
    raise(signo);
}

void trigger_bench_signals_install(void) {
    static int installed = 0;
    if (installed) return;
    installed = 1;
    // A standard descriptor the parent closed would be reused by the next open (an output's temporary
    // file would become "standard output" and receive the table): hold it with /dev/null instead.
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            int held = open("/dev/null", O_RDWR);
            if (held >= 0 && held != fd) close(held);
        }
    }
    signal(SIGPIPE, SIG_IGN);
    // Past `ulimit -f` a write fails with EFBIG, reported like a full disk, instead of killing the process
    // with its temporaries left behind.
    signal(SIGXFSZ, SIG_IGN);
    int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction action, previous;
        // A signal the parent ignores (nohup, a background job) stays ignored.
        if (sigaction(signals[i], NULL, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
        memset(&action, 0, sizeof action);
        action.sa_handler = remove_temporaries;
        sigemptyset(&action.sa_mask);
        sigaction(signals[i], &action, NULL);
    }
}

// Copies `path` into a free slot of `table` and marks it used; -1 when the path is too long or no slot is free.
static int claim(char table[SLOTS][PATH_BYTES], volatile sig_atomic_t *flags, const char *path) {
    size_t n = strlen(path);
    if (n >= PATH_BYTES) return -1;
    for (int i = 0; i < SLOTS; i++) {
        if (!flags[i]) {
            memcpy(table[i], path, n + 1);
            // The path must be complete before the handler can see the slot in use.
            atomic_signal_fence(memory_order_release);
            flags[i] = 1;
            return i;
        }
    }
    return -1;
}

int trigger_bench_temporary_register(const char *path) { return claim(paths, used, path); }

void trigger_bench_temporary_unregister(int slot) {
    if (slot >= 0 && slot < SLOTS) used[slot] = 0;
}

int trigger_bench_folder_register(const char *path) { return claim(folders, folder_used, path); }

void trigger_bench_folder_unregister(int slot) {
    if (slot >= 0 && slot < SLOTS) folder_used[slot] = 0;
}

int trigger_bench_child_register(int pid) {
    for (int i = 0; i < SLOTS; i++) {
        if (children[i] == 0) {
            children[i] = pid;
            return i;
        }
    }
    return -1;
}

void trigger_bench_child_unregister(int slot) {
    if (slot >= 0 && slot < SLOTS) children[slot] = 0;
}

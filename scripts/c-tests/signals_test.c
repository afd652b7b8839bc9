/*
 * signals_test.c — loading libInkHit leaves the host's signal dispositions as they were.
 *
 * The Swift runtime's backtracer installs handlers for SIGQUIT, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV and
 * SIGTRAP and an alternate signal stack when libswiftCore loads; libInkHit's constructor takes them back
 * (Sources/CInkHitHost). Modes:
 *   signals_test state             print every disposition (sigaction: handler, flags, mask) and the alternate
 *                                  stack; scripts/c-abi-test.sh builds this once linked with -lInkHit and once
 *                                  without, and compares the outputs
 *   signals_test dlopen LIB        the state before and after dlopen(LIB) must be equal
 *   signals_test dlopen-own LIB    the same with the host's own SIGSEGV handler installed first (kept)
 *   signals_test crash             (linked with -lInkHit) a NULL dereference in the host's own code: the
 *                                  process must die of SIGSEGV with no Swift backtrace on stderr
 *   signals_test dlopen-taken LIB  (built with -DCOUNT_SIGACTION -rdynamic) as dlopen, and the Swift runtime must
 *                                  have installed handlers while the library loaded (counted by this program's
 *                                  own sigaction, which the library's calls reach): the check above is then not
 *                                  vacuous — something was taken, and given back. scripts/c-abi-test.sh runs it on
 *                                  the library copied into a toolchain-like folder, where the runtime inside
 *                                  libInkHit finds a swift-backtrace and takes the signals.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LINKED
#include <inkhit.h>
#endif

static const int signals[] = {SIGQUIT, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP};

/* Every field a host could observe, as text. */
static void state(char *out, size_t size) {
    size_t n = 0;
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
        struct sigaction sa;
        sigaction(signals[i], NULL, &sa);
        void *handler = (sa.sa_flags & SA_SIGINFO) ? (void *)sa.sa_sigaction : (void *)sa.sa_handler;
        unsigned long mask = 0;
        for (int s = 1; s < 64; s++) if (sigismember(&sa.sa_mask, s) == 1) mask |= 1ul << (s - 1);
        n += (size_t)snprintf(out + n, size - n, "signal %d: handler %p flags 0x%x mask 0x%lx\n", signals[i], handler,
                              (unsigned)sa.sa_flags, mask);
    }
    stack_t ss;
    sigaltstack(NULL, &ss);
    snprintf(out + n, size - n, "alternate stack: %p size %zu flags %d\n", ss.ss_sp, ss.ss_size, ss.ss_flags);
}

static void own_handler(int signal) { (void)signal; _exit(3); }

#ifdef COUNT_SIGACTION
/* Handlers installed through sigaction() by anything loaded into this process (it interposes libc's). */
static int installed;
int sigaction(int signal, const struct sigaction *action, struct sigaction *old) {
    static int (*real)(int, const struct sigaction *, struct sigaction *);
    if (real == NULL) real = (int (*)(int, const struct sigaction *, struct sigaction *))(uintptr_t)dlsym(RTLD_NEXT, "sigaction");
    if (action != NULL) {
        void *handler = (action->sa_flags & SA_SIGINFO) ? (void *)action->sa_sigaction : (void *)action->sa_handler;
        if (handler != (void *)SIG_DFL && handler != (void *)SIG_IGN) installed++;
    }
    return real(signal, action, old);
}
#endif

int main(int argc, char **argv) {
    static char before[2048], after[2048];
    if (argc >= 2 && strcmp(argv[1], "state") == 0) {
        state(before, sizeof before);
        fputs(before, stdout);
#ifdef LINKED
        return inkhit_version() / 10000 == INKHIT_VERSION_MAJOR ? 0 : 1;   /* the library is really used */
#else
        return 0;
#endif
    }
    if (argc >= 3 && (strcmp(argv[1], "dlopen") == 0 || strcmp(argv[1], "dlopen-own") == 0 ||
                      strcmp(argv[1], "dlopen-taken") == 0)) {
        if (strcmp(argv[1], "dlopen-own") == 0) signal(SIGSEGV, own_handler);
        state(before, sizeof before);
        void *lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (!lib) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 2; }
        uint32_t (*version)(void) = (uint32_t (*)(void))dlsym(lib, "inkhit_version");
        if (!version || version() == 0) { fprintf(stderr, "inkhit_version not found\n"); return 2; }
        state(after, sizeof after);
        if (strcmp(before, after) != 0) {
            fprintf(stderr, "loading changed the host's signal state:\nbefore:\n%safter:\n%s", before, after);
            return 1;
        }
#ifdef COUNT_SIGACTION
        if (strcmp(argv[1], "dlopen-taken") == 0) {
            if (installed == 0) {
                fprintf(stderr, "dlopen-taken: nothing installed a handler while the library loaded\n");
                return 1;
            }
            printf("dlopen-taken: %d handlers installed while loading, all given back\n", installed);
        }
#endif
        printf("%s: the state after dlopen equals the state before (7 signals, alternate stack)\n", argv[1]);
        return 0;
    }
#ifdef LINKED
    if (argc >= 2 && strcmp(argv[1], "crash") == 0) {
        if (inkhit_version() == 0) return 2;
        volatile int *volatile null = NULL;
        return *null;                                  /* the host's own bug */
    }
#endif
    fprintf(stderr, "usage: signals_test state | dlopen LIB | dlopen-own LIB | dlopen-taken LIB | crash\n");
    return 2;
}

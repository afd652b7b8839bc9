// Not API: see README.md. Gives a non-Swift host the signal dispositions the Swift runtime's backtracer took
// when libInkHit (and with it the Swift runtime: linked in, or libswiftCore) was loaded.
#define _GNU_SOURCE
#include "inkhit_host.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

// The signals the Swift runtime's Linux crash handler takes (stdlib/public/runtime/CrashHandlerLinux.cpp).
static const int ihh_signals[] = {SIGQUIT, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP};

static int ihh_is_swift_core(const char *path) {
    if (path == NULL) return 0;
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    return strncmp(base, "libswiftCore.", 13) == 0;
}

enum { IHH_NOT_SWIFT = 0, IHH_OWN_RUNTIME = 1, IHH_SWIFT_CORE = 2 };

// Which Swift runtime a handler's code lies in: the one linked into this library (libInkHit as `./inkhit
// install-c` links it, the runtime inside with its symbols hidden; this library installs no handler of its own,
// so a handler in its image is the runtime's), a libswiftCore (a development build, linked against the
// toolchain's runtime), or neither.
static int ihh_runtime_of(const struct sigaction *sa) {
    void *code = (sa->sa_flags & SA_SIGINFO) ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
    if (code == (void *)SIG_DFL || code == (void *)SIG_IGN) return IHH_NOT_SWIFT;
    Dl_info info, self;
    if (dladdr(code, &info) == 0) return IHH_NOT_SWIFT;
    if (dladdr((void *)ihh_is_swift_core, &self) != 0 && info.dli_fbase == self.dli_fbase) return IHH_OWN_RUNTIME;
    return ihh_is_swift_core(info.dli_fname) ? IHH_SWIFT_CORE : IHH_NOT_SWIFT;
}

// dl_iterate_phdr visits the executable first: does its dynamic section name libswiftCore as NEEDED?
static int ihh_visit_main(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    int *result = data;
    const ElfW(Dyn) *dynamic = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    }
    if (dynamic == NULL) return 1;
    uintptr_t strtab = 0;
    for (const ElfW(Dyn) *d = dynamic; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_STRTAB) strtab = (uintptr_t)d->d_un.d_ptr;
    }
    if (strtab == 0) return 1;
    // glibc before 2.35 relocates DT_STRTAB in place; later ones leave the link-time address.
    if (strtab < (uintptr_t)info->dlpi_addr) strtab += (uintptr_t)info->dlpi_addr;
    for (const ElfW(Dyn) *d = dynamic; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_NEEDED && ihh_is_swift_core((const char *)(strtab + d->d_un.d_val))) *result = 1;
    }
    return 1;                           // only the first object: the executable
}

// SIG_DFL with no flags and an empty mask: exactly the disposition a process starts with. glibc's sigaction()
// adds SA_RESTORER to every call, so on x86-64 the kernel is asked directly (its struct: handler, flags,
// restorer, a 64-bit mask).
static int ihh_set_default(int signal) {
#if defined(__x86_64__) && defined(SYS_rt_sigaction)
    struct { void (*handler)(int); unsigned long flags; void (*restorer)(void); unsigned long mask; } k = {SIG_DFL, 0, NULL, 0};
    return (int)syscall(SYS_rt_sigaction, signal, &k, NULL, sizeof k.mask);
#else
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    return sigaction(signal, &dfl, NULL);
#endif
}

__attribute__((constructor)) static void ihh_restore_host_signals(void) {
    if (getenv("SWIFT_BACKTRACE") != NULL) return;
    // A Swift program's libswiftCore handlers are its own; the handlers of the runtime inside this library are
    // never the host's (a Swift host's runtime, loaded first, took the signals before; this one only takes a
    // signal whose disposition is still SIG_DFL).
    int swift_program = 0;
    dl_iterate_phdr(ihh_visit_main, &swift_program);
    int restored = 0;
    for (size_t i = 0; i < sizeof ihh_signals / sizeof ihh_signals[0]; i++) {
        struct sigaction current;
        if (sigaction(ihh_signals[i], NULL, &current) != 0) continue;
        int runtime = ihh_runtime_of(&current);
        if (runtime == IHH_NOT_SWIFT || (runtime == IHH_SWIFT_CORE && swift_program)) continue;
        if (ihh_set_default(ihh_signals[i]) == 0) restored++;
    }
    if (restored == 0) return;
    // The runtime gave this (the loading) thread an alternate stack of SIGSTKSZ + 16 KiB if it had none.
    stack_t ss;
    if (sigaltstack(NULL, &ss) != 0 || ss.ss_sp == NULL || ss.ss_flags != 0) return;
    long dynamic_size = sysconf(_SC_SIGSTKSZ);
    if (ss.ss_size != 8192 + 16384 && (dynamic_size <= 0 || ss.ss_size != (size_t)dynamic_size + 16384)) return;
    stack_t off;
    memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    if (sigaltstack(&off, NULL) == 0) munmap(ss.ss_sp, ss.ss_size);
}
#endif

// Not API: see README.md. Gives a non-Swift host the signal dispositions the Swift runtime's backtracer took
// when libInkHit (and with it libswiftCore) was loaded.
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

// Whether a handler's code lies in libswiftCore.
static int ihh_in_swift_core(const struct sigaction *sa) {
    void *code = (sa->sa_flags & SA_SIGINFO) ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
    if (code == (void *)SIG_DFL || code == (void *)SIG_IGN) return 0;
    Dl_info info;
    return dladdr(code, &info) != 0 && ihh_is_swift_core(info.dli_fname);
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
    int swift_program = 0;
    dl_iterate_phdr(ihh_visit_main, &swift_program);
    if (swift_program) return;
    int restored = 0;
    for (size_t i = 0; i < sizeof ihh_signals / sizeof ihh_signals[0]; i++) {
        struct sigaction current;
        if (sigaction(ihh_signals[i], NULL, &current) != 0 || !ihh_in_swift_core(&current)) continue;
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

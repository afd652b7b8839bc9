// Not API: a pass-through wrapper of glibc's allocator that counts allocated bytes while enabled.
//
// The executable that links this file defines malloc, calloc, realloc, free and the aligned allocators;
// the dynamic linker resolves every library's calls (the Swift runtime, FreeType, HarfBuzz) to these, and
// they forward to glibc's own entry points (__libc_malloc, …), so the heap is glibc's. When counting is off
// a call costs one relaxed atomic load more than glibc's.
#include "MallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic int counting;
static _Atomic int64_t allocations, bytes, live, peak;

static inline void counted(void *p, size_t requested) {
    if (p == NULL || !atomic_load_explicit(&counting, memory_order_relaxed)) return;
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bytes, (int64_t)requested, memory_order_relaxed);
    int64_t now = atomic_fetch_add_explicit(&live, (int64_t)malloc_usable_size(p), memory_order_relaxed)
                  + (int64_t)malloc_usable_size(p);
    int64_t old = atomic_load_explicit(&peak, memory_order_relaxed);
    while (now > old && !atomic_compare_exchange_weak_explicit(&peak, &old, now, memory_order_relaxed,
                                                               memory_order_relaxed)) {}
}

static inline void released(void *p) {
    if (p == NULL || !atomic_load_explicit(&counting, memory_order_relaxed)) return;
    atomic_fetch_sub_explicit(&live, (int64_t)malloc_usable_size(p), memory_order_relaxed);
}

void *malloc(size_t size) {
    void *p = __libc_malloc(size);
    counted(p, size);
    return p;
}

void *calloc(size_t n, size_t size) {
    void *p = __libc_calloc(n, size);
    counted(p, n * size);
    return p;
}

void *realloc(void *old, size_t size) {
    released(old);
    void *p = __libc_realloc(old, size);
    if (p == NULL && old != NULL && size != 0) {
        // Failed: the old block is still live.
        if (atomic_load_explicit(&counting, memory_order_relaxed))
            atomic_fetch_add_explicit(&live, (int64_t)malloc_usable_size(old), memory_order_relaxed);
        return NULL;
    }
    counted(p, size);
    return p;
}

void free(void *p) {
    released(p);
    __libc_free(p);
}

void *memalign(size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    counted(p, size);
    return p;
}

void *aligned_alloc(size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    counted(p, size);
    return p;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    counted(p, size);
    *out = p;
    return 0;
}

int ink_malloc_counter_available(void) { return 1; }

void ink_malloc_counter_start(void) {
    atomic_store(&counting, 0);
    atomic_store(&allocations, 0);
    atomic_store(&bytes, 0);
    atomic_store(&live, 0);
    atomic_store(&peak, 0);
    atomic_store(&counting, 1);
}

InkMallocStats ink_malloc_counter_stop(void) {
    atomic_store(&counting, 0);
    InkMallocStats s = { atomic_load(&allocations), atomic_load(&bytes), atomic_load(&peak), atomic_load(&live) };
    return s;
}

#else

int ink_malloc_counter_available(void) { return 0; }
void ink_malloc_counter_start(void) {}
InkMallocStats ink_malloc_counter_stop(void) { InkMallocStats s = { 0, 0, 0, 0 }; return s; }

#endif

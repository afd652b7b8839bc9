/*
 * Not API: the handle registry and the per-thread error message behind libInkHit's C interface
 * (Sources/CInkHit/include/inkhit.h). Only InkHitC and CInkHit use it; it is not installed.
 *
 * A handle is (generation << 32) | slot. Slots live in chunks of 4,096 that are allocated once and never
 * freed, so a lookup never touches freed memory, whatever value it is given. A slot's generation is even
 * while it is free and odd while it holds an object; releasing bumps it, so a stale handle (an even or
 * older generation) never matches. Inserting and removing take a mutex; lookups take none: they read the
 * generation with acquire ordering, and the object and kind written before it was published.
 */
#ifndef INKHIT_RUNTIME_H
#define INKHIT_RUNTIME_H

/* A few functions say their pointers are never NULL (so Swift takes them without a check); the others keep
 * C's unspecified nullability. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

#include <stddef.h>
#include <stdint.h>

#define IHR_CHUNK_BITS 12u
#define IHR_CHUNK_SIZE (1u << IHR_CHUNK_BITS)
/** 16,384 chunks of 4,096 slots: 67,108,864 live handles at most. */
#define IHR_MAX_CHUNKS 16384u

typedef struct ihr_slot {
    uint32_t generation;
    uint32_t kind;
    void *object;
} ihr_slot;

extern ihr_slot *ihr_chunks[IHR_MAX_CHUNKS];

/** The object `handle` names when it is live and of `kind`, else NULL, unprotected: only for checks (use
 *  `ihr_protect` to use the object). Lock-free; inlined into callers. */
static inline void *ihr_lookup(uintptr_t handle, uint32_t kind) {
    uint32_t slot = (uint32_t)handle;
    uint32_t generation = (uint32_t)((uint64_t)handle >> 32);
    uint32_t chunk = slot >> IHR_CHUNK_BITS;
    if (chunk >= IHR_MAX_CHUNKS) return NULL;
    ihr_slot *c = __atomic_load_n(&ihr_chunks[chunk], __ATOMIC_ACQUIRE);
    if (c == NULL) return NULL;
    ihr_slot *s = &c[slot & (IHR_CHUNK_SIZE - 1u)];
    if (__atomic_load_n(&s->generation, __ATOMIC_ACQUIRE) != generation || (generation & 1u) == 0) return NULL;
    if (__atomic_load_n(&s->kind, __ATOMIC_RELAXED) != kind) return NULL;
    return __atomic_load_n(&s->object, __ATOMIC_RELAXED);
}

/*
 * Calls in flight and releases (hazard pointers, Michael 2004, with asymmetric fences as in folly's
 * hazptr): a call that uses a handle's object announces it in its thread's record (`ihr_protect`) before it
 * trusts it, and withdraws it when done (`ihr_unprotect`); a release takes the handle out of the registry,
 * then waits until no thread announces the object (`ihr_wait_unused`) before dropping it. So an object is
 * never freed under a call: a release waits for the calls in flight that use it (only those), and a call
 * that starts after the release finds the handle released.
 *
 * On Linux the announcing thread pays a plain store and a compiler barrier: the releasing thread issues
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which puts a full barrier into every running thread of the
 * process. Where membarrier is missing (other systems, a seccomp filter), every announce is followed by a
 * full fence instead.
 */

/** One thread's record: the object its current call protects (NULL: none). Records are kept in a list for
 *  the whole process and reused by later threads once their thread has ended. */
typedef struct ihr_thread {
    void *hazard;
    struct ihr_thread *next;
    uint32_t in_use;
    /** `ihr_asymmetric`, copied here when the thread registers (one load from the record a call has at hand). */
    int32_t asymmetric;
} ihr_thread;

#if defined(__SANITIZE_THREAD__)
#define IHR_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define IHR_TSAN 1
#endif
#endif

/* The record is reached with one load from the thread pointer (the library's own variable, a few bytes of
 * static TLS). */
#if defined(__linux__) && !defined(IHR_TSAN)
#define IHR_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define IHR_TLS_MODEL
#endif

/** The calling thread's record (NULL until its first protected call). */
extern _Thread_local ihr_thread *ihr_self IHR_TLS_MODEL;
/** 1 when releases issue membarrier, so that announcing needs no fence. */
extern int32_t ihr_asymmetric;

/** Registers the calling thread (once per thread; records of ended threads are reused). */
ihr_thread *_Nonnull ihr_register_thread(void);

/** The calling thread's record (registering the thread on its first call). */
static inline ihr_thread *_Nonnull ihr_current(void) {
    ihr_thread *t = ihr_self;
    return __builtin_expect(t != NULL, 1) ? t : ihr_register_thread();
}

/** `ihr_protect` with the calling thread's record at hand (`ihr_current()`, read once per call). */
static inline void *_Nullable ihr_protect_in(ihr_thread *_Nonnull t, uintptr_t handle, uint32_t kind) {
    uint32_t slot = (uint32_t)handle;
    uint32_t generation = (uint32_t)((uint64_t)handle >> 32);
    uint32_t chunk = slot >> IHR_CHUNK_BITS;
    if (chunk >= IHR_MAX_CHUNKS) return NULL;
    ihr_slot *c = __atomic_load_n(&ihr_chunks[chunk], __ATOMIC_ACQUIRE);
    if (c == NULL) return NULL;
    ihr_slot *s = &c[slot & (IHR_CHUNK_SIZE - 1u)];
    if (__atomic_load_n(&s->generation, __ATOMIC_ACQUIRE) != generation || (generation & 1u) == 0) return NULL;
    if (__atomic_load_n(&s->kind, __ATOMIC_RELAXED) != kind) return NULL;
    void *object = __atomic_load_n(&s->object, __ATOMIC_RELAXED);
    __atomic_store_n(&t->hazard, object, __ATOMIC_RELAXED);
    if (__builtin_expect(t->asymmetric, 1)) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    /* Still live after the announcement: a release from here on waits for us. */
    if (__atomic_load_n(&s->generation, __ATOMIC_ACQUIRE) != generation) {
        __atomic_store_n(&t->hazard, (void *)0, __ATOMIC_RELEASE);
        return NULL;
    }
    return object;
}

/** The object `handle` names when it is live and of `kind`, protected until `ihr_unprotect()` (which the
 *  caller must call, also when it gets NULL: harmless then); NULL otherwise. One object per thread at a
 *  time: a second `ihr_protect` replaces the first. Lock-free; inlined into callers. */
static inline void *ihr_protect(uintptr_t handle, uint32_t kind) {
    return ihr_protect_in(ihr_current(), handle, kind);
}

/** Ends the protection of `t`'s current object (`t`: the calling thread's record). */
static inline void ihr_unprotect_in(ihr_thread *_Nonnull t) { __atomic_store_n(&t->hazard, (void *)0, __ATOMIC_RELEASE); }

/** Ends the protection of the calling thread's current object. */
static inline void ihr_unprotect(void) {
    ihr_thread *t = ihr_self;
    if (t != NULL) ihr_unprotect_in(t);
}

/** Waits until no thread's current call protects `object` (already taken out of the registry). */
void ihr_wait_unused(void *object);

/** Stores `object` (not NULL) of `kind` (> 0) and returns its handle; 0 when every slot is taken. */
uintptr_t ihr_insert(void *object, uint32_t kind);

/** Frees the slot of a live handle of `kind` and returns its object; NULL (nothing changed) otherwise. */
void *ihr_remove(uintptr_t handle, uint32_t kind);

/** Why a lookup failed, for the message. */
enum {
    IHR_NULL = 0,          /* the handle is 0 */
    IHR_UNKNOWN = 1,       /* never handed out (or its slot was reused 2^31 times since) */
    IHR_RELEASED = 2,      /* handed out, then released */
    IHR_WRONG_KIND = 3,    /* live, but of another kind (written to *actual_kind) */
    IHR_LIVE = 4           /* live and of `kind` */
};
int32_t ihr_describe(uintptr_t handle, uint32_t kind, uint32_t *actual_kind);

/** Live handles. */
size_t ihr_live_count(void);

/** Sets the calling thread's message: `length` bytes of UTF-8 (no NUL needed), cut at a character
 *  boundary with "…" when longer than 1,023 bytes. */
void ihr_set_error(const char *message, size_t length);

/** The calling thread's message (never NULL: the same buffer for the thread's lifetime, "" before the first
 *  message; a static "" only when there was no memory for a buffer). */
const char *ihr_error(void);

#pragma clang diagnostic pop

#endif

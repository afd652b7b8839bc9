/*
 * Not API: the handle registry and the per-thread error message behind libInkHit's C interface
 * (Sources/CInkHit/include/inkhit.h). Only InkHitC and CInkHit use it; it is not installed.
 *
 * A handle is (generation << 32) | slot. Slots live in chunks of 4,096 that are allocated once and never
 * freed, so a lookup never touches freed memory, whatever value it is given; the first chunk is static, so the
 * slots of the first 4,096 live handles (released slots are reused first) are found without a load. A slot's
 * generation is even while it is free and odd while it holds an object; releasing bumps it, so a stale handle
 * (an even or older generation) never matches. The generation and the kind share one word, the slot's tag,
 * so one comparison checks both (a free slot's kind is 0, which no handle has). Inserting and removing take
 * a mutex; lookups take none: they read the tag with acquire ordering, and the object and hot pointer written
 * before it was published.
 */
#ifndef INKHIT_RUNTIME_H
#define INKHIT_RUNTIME_H

/* A few functions say their pointers are never NULL (so Swift takes them without a check); the others keep
 * C's unspecified nullability. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

#include <stddef.h>
#include <stdint.h>

/* The registry's globals are the library's own (never exported): declared hidden here too, so the inline
 * lookups compiled into InkHitC address them relative to the code, without a load from the GOT. */
#define IHR_INTERNAL __attribute__((visibility("hidden")))

#define IHR_CHUNK_BITS 12u
#define IHR_CHUNK_SIZE (1u << IHR_CHUNK_BITS)
/** 16,384 chunks of 4,096 slots: 67,108,864 live handles at most. */
#define IHR_MAX_CHUNKS 16384u

typedef struct ihr_slot {
    /** (generation << 32) | kind: generation odd and kind > 0 while the slot holds an object. */
    uint64_t tag;
    /** The object (the registry holds one retain of it), which hazards name. */
    void *object;
    /** What the hot queries read in its place (an index's storage, kept alive by the object), or the object. */
    void *hot;
} ihr_slot;

/** The first chunk (static) and the others (allocated when first needed; ihr_chunks[0] is unused). */
extern ihr_slot ihr_chunk0[IHR_CHUNK_SIZE] IHR_INTERNAL;
extern ihr_slot *ihr_chunks[IHR_MAX_CHUNKS] IHR_INTERNAL;

/** The slot of slot number `slot`, or NULL when its chunk was never allocated. */
static inline ihr_slot *ihr_slot_at(uint32_t slot) {
    uint32_t chunk = slot >> IHR_CHUNK_BITS;
    if (__builtin_expect(chunk == 0, 1)) return &ihr_chunk0[slot];
    if (chunk >= IHR_MAX_CHUNKS) return NULL;
    ihr_slot *c = __atomic_load_n(&ihr_chunks[chunk], __ATOMIC_ACQUIRE);
    return c == NULL ? NULL : &c[slot & (IHR_CHUNK_SIZE - 1u)];
}

/** The tag a live handle of `kind` has in its slot. */
static inline uint64_t ihr_tag(uintptr_t handle, uint32_t kind) {
    return ((uint64_t)handle & 0xFFFFFFFF00000000ull) | kind;
}

/** The object `handle` names when it is live and of `kind`, else NULL, unprotected: only for checks (use
 *  `ihr_protect` to use the object). Lock-free; inlined into callers. */
static inline void *ihr_lookup(uintptr_t handle, uint32_t kind) {
    ihr_slot *s = ihr_slot_at((uint32_t)handle);
    if (s == NULL || kind == 0 || __atomic_load_n(&s->tag, __ATOMIC_ACQUIRE) != ihr_tag(handle, kind)) return NULL;
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
extern _Thread_local ihr_thread *ihr_self IHR_TLS_MODEL IHR_INTERNAL;
/** 1 when releases issue membarrier, so that announcing needs no fence. */
extern int32_t ihr_asymmetric IHR_INTERNAL;

/** Registers the calling thread (once per thread; records of ended threads are reused). */
ihr_thread *_Nonnull ihr_register_thread(void);

/** The calling thread's record (registering the thread on its first call). */
static inline ihr_thread *_Nonnull ihr_current(void) {
    ihr_thread *t = ihr_self;
    return __builtin_expect(t != NULL, 1) ? t : ihr_register_thread();
}

/** The slot's object announced in `t`'s hazard and `*hot` its hot pointer, when `handle` is live and of `kind`;
 *  NULL (nothing announced) otherwise. The one dependent load before the slot is none for the first chunk. */
static inline void *_Nullable ihr_protect_slot(ihr_thread *_Nonnull t, uintptr_t handle, uint32_t kind,
                                               void *_Nullable *_Nonnull hot) {
    ihr_slot *s = ihr_slot_at((uint32_t)handle);
    uint64_t tag = ihr_tag(handle, kind);
    if (s == NULL || kind == 0 || __atomic_load_n(&s->tag, __ATOMIC_ACQUIRE) != tag) return NULL;
    void *object = __atomic_load_n(&s->object, __ATOMIC_RELAXED);
    *hot = __atomic_load_n(&s->hot, __ATOMIC_RELAXED);
    __atomic_store_n(&t->hazard, object, __ATOMIC_RELAXED);
    if (__builtin_expect(t->asymmetric, 1)) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    /* Still live after the announcement: a release from here on waits for us. */
    if (__atomic_load_n(&s->tag, __ATOMIC_ACQUIRE) != tag) {
        __atomic_store_n(&t->hazard, (void *)0, __ATOMIC_RELEASE);
        return NULL;
    }
    return object;
}

/** `ihr_protect` with the calling thread's record at hand (`ihr_current()`, read once per call). */
static inline void *_Nullable ihr_protect_in(ihr_thread *_Nonnull t, uintptr_t handle, uint32_t kind) {
    void *hot;
    return ihr_protect_slot(t, handle, kind, &hot);
}

/** As `ihr_protect_in`, returning the slot's hot pointer (an index's storage: one load less than through its
 *  object), protected with its object until `ihr_unprotect_in(t)`; NULL when the handle is not live and of
 *  `kind`. */
static inline void *_Nullable ihr_protect_hot_in(ihr_thread *_Nonnull t, uintptr_t handle, uint32_t kind) {
    /* ihr_protect_slot's steps, returning the hot pointer itself (never NULL in a live slot). */
    ihr_slot *s = ihr_slot_at((uint32_t)handle);
    uint64_t tag = ihr_tag(handle, kind);
    if (s == NULL || kind == 0 || __atomic_load_n(&s->tag, __ATOMIC_ACQUIRE) != tag) return NULL;
    void *object = __atomic_load_n(&s->object, __ATOMIC_RELAXED);
    void *hot = __atomic_load_n(&s->hot, __ATOMIC_RELAXED);
    __atomic_store_n(&t->hazard, object, __ATOMIC_RELAXED);
    if (__builtin_expect(t->asymmetric, 1)) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    if (__atomic_load_n(&s->tag, __ATOMIC_ACQUIRE) != tag) {
        __atomic_store_n(&t->hazard, (void *)0, __ATOMIC_RELEASE);
        return NULL;
    }
    return hot;
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

/** Stores `object` (not NULL) of `kind` (> 0), with `hot` (NULL: the object) for the hot queries, and returns
 *  its handle; 0 when every slot is taken. */
uintptr_t ihr_insert(void *object, uint32_t kind, void *_Nullable hot);

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

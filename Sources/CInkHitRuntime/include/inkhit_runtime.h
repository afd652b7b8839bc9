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

/** The object `handle` names when it is live and of `kind`, else NULL. Lock-free; inlined into callers. */
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

/** The calling thread's message (never NULL). */
const char *ihr_error(void);

#endif

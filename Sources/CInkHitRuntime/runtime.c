// Not API: see include/inkhit_runtime.h.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1            /* syscall(2), for membarrier */
#endif
#include "inkhit_runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

_Static_assert(sizeof(void *) == 8, "InkHit's handles need 64-bit pointers");

#define IHR_HIDDEN __attribute__((visibility("hidden")))

IHR_HIDDEN ihr_slot ihr_chunk0[IHR_CHUNK_SIZE];
IHR_HIDDEN ihr_slot *ihr_chunks[IHR_MAX_CHUNKS];

static pthread_mutex_t ihr_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint32_t ihr_next_slot;       /* slots below it have been used at least once */
static uint32_t *ihr_free;           /* released slots, reused last-in first-out */
static size_t ihr_free_count, ihr_free_capacity;
static size_t ihr_live;

IHR_HIDDEN uintptr_t ihr_insert(void *object, uint32_t kind, void *hot) {
    if (object == NULL || kind == 0) return 0;
    uintptr_t handle = 0;
    pthread_mutex_lock(&ihr_mutex);
    uint32_t slot;
    int have = 0;
    if (ihr_free_count > 0) {
        slot = ihr_free[--ihr_free_count];
        have = 1;
    } else if (ihr_next_slot < IHR_MAX_CHUNKS * IHR_CHUNK_SIZE) {
        slot = ihr_next_slot;
        uint32_t chunk = slot >> IHR_CHUNK_BITS;
        if (chunk == 0) {
            ihr_next_slot += 1;
            have = 1;
        } else if (ihr_chunks[chunk] == NULL) {
            ihr_slot *c = calloc(IHR_CHUNK_SIZE, sizeof(ihr_slot));
            if (c != NULL) __atomic_store_n(&ihr_chunks[chunk], c, __ATOMIC_RELEASE);
        }
        if (chunk != 0 && ihr_chunks[chunk] != NULL) {
            ihr_next_slot += 1;
            have = 1;
        }
    }
    if (have) {
        ihr_slot *s = ihr_slot_at(slot);
        uint32_t generation = (uint32_t)(s->tag >> 32) + 1u;          /* even (free) -> odd (live) */
        __atomic_store_n(&s->object, object, __ATOMIC_RELAXED);
        __atomic_store_n(&s->hot, hot != NULL ? hot : object, __ATOMIC_RELAXED);
        __atomic_store_n(&s->tag, ((uint64_t)generation << 32) | kind, __ATOMIC_RELEASE);
        handle = (uintptr_t)(((uint64_t)generation << 32) | slot);
        ihr_live += 1;
    }
    pthread_mutex_unlock(&ihr_mutex);
    return handle;
}

IHR_HIDDEN void *ihr_remove(uintptr_t handle, uint32_t kind) {
    pthread_mutex_lock(&ihr_mutex);
    void *object = ihr_lookup(handle, kind);
    if (object != NULL) {
        uint32_t slot = (uint32_t)handle;
        ihr_slot *s = ihr_slot_at(slot);
        uint32_t generation = (uint32_t)(s->tag >> 32) + 1u;          /* odd -> even, kind 0 */
        __atomic_store_n(&s->tag, (uint64_t)generation << 32, __ATOMIC_RELEASE);
        __atomic_store_n(&s->object, NULL, __ATOMIC_RELAXED);
        __atomic_store_n(&s->hot, NULL, __ATOMIC_RELAXED);
        if (ihr_free_count == ihr_free_capacity) {
            size_t capacity = ihr_free_capacity ? ihr_free_capacity * 2 : 1024;
            uint32_t *grown = realloc(ihr_free, capacity * sizeof(uint32_t));
            if (grown != NULL) {
                ihr_free = grown;
                ihr_free_capacity = capacity;
            }
        }
        /* Without room in the free list the slot stays unused (it costs 16 bytes), never wrong. */
        if (ihr_free_count < ihr_free_capacity) ihr_free[ihr_free_count++] = slot;
        ihr_live -= 1;
    }
    pthread_mutex_unlock(&ihr_mutex);
    return object;
}

IHR_HIDDEN int32_t ihr_describe(uintptr_t handle, uint32_t kind, uint32_t *actual_kind) {
    if (handle == 0) return IHR_NULL;
    uint32_t slot = (uint32_t)handle;
    uint32_t generation = (uint32_t)((uint64_t)handle >> 32);
    int32_t result = IHR_UNKNOWN;
    pthread_mutex_lock(&ihr_mutex);
    if ((generation & 1u) != 0 && slot < ihr_next_slot && (slot >> IHR_CHUNK_BITS) < IHR_MAX_CHUNKS) {
        ihr_slot *s = ihr_slot_at(slot);
        uint32_t current = (uint32_t)(s->tag >> 32), current_kind = (uint32_t)s->tag;
        if (current == generation) {
            result = current_kind == kind ? IHR_LIVE : IHR_WRONG_KIND;
            if (actual_kind != NULL) *actual_kind = current_kind;
        } else if (generation < current) {
            result = IHR_RELEASED;
        }
    }
    pthread_mutex_unlock(&ihr_mutex);
    return result;
}

/* ---- Calls in flight (see the header) ---- */

IHR_HIDDEN _Thread_local ihr_thread *ihr_self IHR_TLS_MODEL;
IHR_HIDDEN int32_t ihr_asymmetric;
static ihr_thread *ihr_threads;                 /* every record, pushed once, never freed */
static pthread_once_t ihr_once = PTHREAD_ONCE_INIT;
static pthread_key_t ihr_key;

/* A thread ends: its record is free for the next thread (its hazard is withdrawn first). */
static void ihr_thread_ended(void *record) {
    ihr_thread *t = record;
    __atomic_store_n(&t->hazard, (void *)0, __ATOMIC_RELEASE);
    __atomic_store_n(&t->in_use, 0u, __ATOMIC_RELEASE);
}

static void ihr_init(void) {
    pthread_key_create(&ihr_key, ihr_thread_ended);
#if defined(__linux__) && defined(SYS_membarrier) && !defined(IHR_TSAN)
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        __atomic_store_n(&ihr_asymmetric, 1, __ATOMIC_RELEASE);
    }
#endif
}

IHR_HIDDEN ihr_thread *ihr_register_thread(void) {
    pthread_once(&ihr_once, ihr_init);
    ihr_thread *t = NULL;
    for (ihr_thread *r = __atomic_load_n(&ihr_threads, __ATOMIC_ACQUIRE); r != NULL; r = r->next) {
        uint32_t free_ = 0u;
        if (__atomic_compare_exchange_n(&r->in_use, &free_, 1u, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) { t = r; break; }
    }
    if (t == NULL) {
        t = calloc(1, sizeof(ihr_thread));
        if (t == NULL) abort();     /* 24 bytes once per thread: without them no call could be made safely */
        t->in_use = 1u;
        ihr_thread *head = __atomic_load_n(&ihr_threads, __ATOMIC_RELAXED);
        do { t->next = head; } while (!__atomic_compare_exchange_n(&ihr_threads, &head, t, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    }
    t->asymmetric = __atomic_load_n(&ihr_asymmetric, __ATOMIC_ACQUIRE);
    pthread_setspecific(ihr_key, t);
    ihr_self = t;
    return t;
}

IHR_HIDDEN void ihr_wait_unused(void *object) {
    pthread_once(&ihr_once, ihr_init);
    /* Every thread's announcement made before now is visible from here on, and every thread that announces
     * later re-checks the slot after it and finds the handle gone. */
#if defined(__linux__) && defined(SYS_membarrier) && !defined(IHR_TSAN)
    if (__atomic_load_n(&ihr_asymmetric, __ATOMIC_ACQUIRE)) {
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    }
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (ihr_thread *r = __atomic_load_n(&ihr_threads, __ATOMIC_ACQUIRE); r != NULL; r = r->next) {
        while (__atomic_load_n(&r->hazard, __ATOMIC_ACQUIRE) == object) sched_yield();
    }
}

IHR_HIDDEN size_t ihr_live_count(void) {
    pthread_mutex_lock(&ihr_mutex);
    size_t n = ihr_live;
    pthread_mutex_unlock(&ihr_mutex);
    return n;
}

/* The message lives in a buffer of its own per thread (made on its first message or inkhit_last_error(), freed when the
 * thread ends), reached through a pthread key: not in thread-local storage, because libInkHit's thread-local
 * block is static TLS (`ihr_self` is initial-exec, which makes the loader reserve the library's whole block in the
 * surplus glibc keeps for dlopen'd libraries: about 1.6 KB for the whole process). A 1 KB message there left room
 * for no second such library (a second copy of libInkHit, in another plugin, failed to load: "cannot allocate
 * memory in static TLS block"). Only error paths and inkhit_last_error() come here. */
#define IHR_MESSAGE_CAPACITY 1024
static pthread_key_t ihr_message_key;
static pthread_once_t ihr_message_once = PTHREAD_ONCE_INIT;
static int ihr_message_ready;

static void ihr_message_init(void) { ihr_message_ready = pthread_key_create(&ihr_message_key, free) == 0; }

/* The calling thread's buffer, made if it has none (NULL only when that fails). */
static char *ihr_message(void) {
    pthread_once(&ihr_message_once, ihr_message_init);
    if (!ihr_message_ready) return NULL;
    char *m = pthread_getspecific(ihr_message_key);
    if (m == NULL) {
        m = malloc(IHR_MESSAGE_CAPACITY);
        if (m == NULL) return NULL;
        m[0] = 0;
        if (pthread_setspecific(ihr_message_key, m) != 0) { free(m); return NULL; }
    }
    return m;
}

IHR_HIDDEN void ihr_set_error(const char *message, size_t length) {
    char *m = ihr_message();
    if (m == NULL) return;        /* no memory for it: the status still says what went wrong */
    if (message == NULL) length = 0;
    if (length <= IHR_MESSAGE_CAPACITY - 1) {
        if (length > 0) memcpy(m, message, length);
        m[length] = 0;
        return;
    }
    /* Keep what fits before "…" (3 bytes), cut before a continuation byte so no character is split. */
    size_t keep = IHR_MESSAGE_CAPACITY - 1 - 3;
    while (keep > 0 && ((unsigned char)message[keep] & 0xC0u) == 0x80u) keep -= 1;
    memcpy(m, message, keep);
    memcpy(m + keep, "\xE2\x80\xA6", 3);
    m[keep + 3] = 0;
}

/* Made here too, so that the pointer a thread gets stays the one whose text later failures change (inkhit.h). */
IHR_HIDDEN const char *ihr_error(void) {
    const char *m = ihr_message();
    return m != NULL ? m : "";
}

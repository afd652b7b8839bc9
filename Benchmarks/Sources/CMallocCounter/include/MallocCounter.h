// Not API: counts the bytes a region of code allocates with malloc (ink-bench-summary only).
#ifndef INK_MALLOC_COUNTER_H
#define INK_MALLOC_COUNTER_H

#include <stdint.h>

/// What the allocator saw between `ink_malloc_counter_start` and `ink_malloc_counter_stop`.
typedef struct {
    /// Allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign).
    int64_t allocations;
    /// Bytes requested by those calls (a realloc counts its new size, as a free + malloc would).
    int64_t bytes;
    /// Highest net growth of live heap bytes (usable sizes allocated minus freed) above the start.
    int64_t peakLiveBytes;
    /// Net growth of live heap bytes at the stop (usable sizes allocated minus freed while counting): what
    /// the region left allocated.
    int64_t liveBytes;
} InkMallocStats;

/// 1 when this process's allocations go through the counter (glibc), else 0 (the counters stay 0).
int ink_malloc_counter_available(void);
/// Zeroes the counters and starts counting (process-wide; meant for single-threaded regions).
void ink_malloc_counter_start(void);
/// Stops counting and returns what was counted since the start.
InkMallocStats ink_malloc_counter_stop(void);

#endif

/* Software on a hart, as it would call SynCron (never run here: the example
 * platform has no ISS). scripts/test-vp-example.sh compiles it freestanding
 * against the installed <syncron/syncron_mmio.h> to keep the C API honest. */
#include <syncron/syncron_mmio.h>
uint32_t worker(uint32_t hart) {
    syncron_arena_t arena;
    syncron_arena_init(&arena, 0x80000000u, 4096);
    uint64_t lock = create_syncvar(&arena), bar = create_syncvar(&arena), sem = create_syncvar(&arena),
             cond = create_syncvar(&arena);
    syncron_hart_t h = syncron_hart(0x10000000u, hart, SYNCRON_MMIO_DEFAULT_WINDOW);
    uint32_t st = lock_acquire(&h, lock);
    st |= cond_wait(&h, cond, lock);
    st |= cond_signal(&h, cond);
    st |= cond_broadcast(&h, cond);
    st |= lock_release(&h, lock);
    st |= barrier_wait_within_unit(&h, bar, 4);
    st |= barrier_wait_across_units(&h, bar, 8);
    st |= sem_wait(&h, sem, 2);
    st |= sem_post(&h, sem);
    return st | syncron_status(&h) | syncron_hart_id(&h);
}

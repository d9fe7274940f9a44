/*
 * SynCron from software on an instruction-set simulator: the memory-mapped
 * register window of the SynCron front end (docs/integration.md) and the
 * paper's Table 2 API over it. Freestanding C99: only volatile loads and
 * stores, no libc. Each hart owns one window at
 *     base + hart * window_bytes
 * (hart = the global hart ID, unit * harts_per_unit + local ID).
 *
 * Register map of one window (offsets in bytes, registers 32 bits wide; on a
 * 64-bit bus VAR and INFO may also be accessed as one 64-bit register):
 *   0x000 VAR_LO   RW  address of the synchronization variable, bits 0..31
 *   0x004 VAR_HI   RW  bits 32..63
 *   0x008 INFO_LO  RW  MessageInfo: barrier participants, semaphore initial
 *   0x00C INFO_HI  RW    resources, or the lock address of cond_wait
 *   0x010 STATUS   R   outcome of this hart's last access (SYNCRON_ST_*)
 *   0x014 HART     R   this window's global hart ID
 *   0x018 EXPECTED_LO RW  compare-and-swap's expected value (model extension)
 *   0x01C EXPECTED_HI RW
 *   0x020 RESULT_LO   R   the old value the last read-modify-write returned
 *   0x024 RESULT_HI   R
 *   0x028 FAIRNESS RW  lock fairness threshold of the whole fabric: after
 *                      this many consecutive grants of a lock inside a unit
 *                      the lock goes to another waiting unit (0 = off); a
 *                      write applies from the SEs' next grant decision
 *   0x100 + 8*op   command slots, op = the request's Table 3 opcode:
 *                  a LOAD issues a req_sync request and returns (the STATUS
 *                  code) when the SE's grant arrives; a STORE issues a
 *                  req_async request and completes at once.
 */
#ifndef SYNCRON_MMIO_H
#define SYNCRON_MMIO_H

#include <stdint.h>

#include "syncron_mmio_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One hart's view of the fabric. */
typedef struct {
    uintptr_t window; /* base + hart * window_bytes */
} syncron_hart_t;

/* A bump allocator for synchronization variables: one zeroed 64-byte line
 * each, inside the range the fabric serves (FabricParams::var_base). */
typedef struct {
    uint64_t next;
    uint64_t end;
} syncron_arena_t;

static inline syncron_hart_t syncron_hart(uintptr_t base, uint32_t hart, uint32_t window_bytes) {
    syncron_hart_t h;
    h.window = base + (uintptr_t)hart * window_bytes;
    return h;
}

static inline void syncron_arena_init(syncron_arena_t* a, uint64_t base, uint64_t bytes) {
    a->next = (base + 63u) & ~(uint64_t)63u;
    a->end = base + bytes;
}

/* Table 2 create_syncvar: the address of a fresh 64-byte line, 0 when the
 * arena is exhausted. Software must keep the line zero and never touch it. */
static inline uint64_t create_syncvar(syncron_arena_t* a) {
    if (a->next + 64u > a->end) return 0;
    const uint64_t v = a->next;
    a->next += 64u;
    return v;
}

static inline void syncron_write32_(const syncron_hart_t* h, uint32_t off, uint32_t value) {
    *(volatile uint32_t*)(h->window + off) = value;
}

static inline uint32_t syncron_read32_(const syncron_hart_t* h, uint32_t off) {
    return *(volatile uint32_t*)(h->window + off);
}

static inline void syncron_set_(const syncron_hart_t* h, uint64_t var, uint64_t info) {
    syncron_write32_(h, SYNCRON_MMIO_VAR_LO, (uint32_t)var);
    syncron_write32_(h, SYNCRON_MMIO_VAR_HI, (uint32_t)(var >> 32));
    syncron_write32_(h, SYNCRON_MMIO_INFO_LO, (uint32_t)info);
    syncron_write32_(h, SYNCRON_MMIO_INFO_HI, (uint32_t)(info >> 32));
}

/* req_sync: returns the STATUS code (SYNCRON_ST_OK once granted). */
static inline uint32_t syncron_sync_(const syncron_hart_t* h, uint32_t op, uint64_t var, uint64_t info) {
    syncron_set_(h, var, info);
    return syncron_read32_(h, SYNCRON_MMIO_CMD(op));
}

/* req_async: returns the STATUS code of the request. */
static inline uint32_t syncron_async_(const syncron_hart_t* h, uint32_t op, uint64_t var) {
    syncron_set_(h, var, 0);
    syncron_write32_(h, SYNCRON_MMIO_CMD(op), 0);
    return syncron_read32_(h, SYNCRON_MMIO_STATUS);
}

static inline uint32_t syncron_status(const syncron_hart_t* h) { return syncron_read32_(h, SYNCRON_MMIO_STATUS); }
static inline uint32_t syncron_hart_id(const syncron_hart_t* h) { return syncron_read32_(h, SYNCRON_MMIO_HART); }

/* The local grant threshold (paper §4 and §6), for every SE of the fabric.
 * Returns the STATUS code of the write. */
static inline uint32_t syncron_set_lock_fairness(const syncron_hart_t* h, uint32_t threshold) {
    syncron_write32_(h, SYNCRON_MMIO_FAIRNESS, threshold);
    return syncron_read32_(h, SYNCRON_MMIO_STATUS);
}
static inline uint32_t syncron_lock_fairness(const syncron_hart_t* h) {
    return syncron_read32_(h, SYNCRON_MMIO_FAIRNESS);
}

/* Table 2. Each returns the STATUS code (SYNCRON_ST_OK on success). A bad
 * access also gets a bus error response by default; on an ISS that traps on
 * every error response, the platform sets FabricParams::error_responses =
 * false, and the loads then return the code without a trap
 * (docs/integration.md, "If your VP ..."). */
static inline uint32_t lock_acquire(const syncron_hart_t* h, uint64_t lock) {
    return syncron_sync_(h, SYNCRON_OP_LOCK_ACQUIRE, lock, 0);
}
static inline uint32_t lock_release(const syncron_hart_t* h, uint64_t lock) {
    return syncron_async_(h, SYNCRON_OP_LOCK_RELEASE, lock);
}
static inline uint32_t barrier_wait_within_unit(const syncron_hart_t* h, uint64_t barrier, uint32_t initial_cores) {
    return syncron_sync_(h, SYNCRON_OP_BARRIER_WITHIN_UNIT, barrier, initial_cores);
}
static inline uint32_t barrier_wait_across_units(const syncron_hart_t* h, uint64_t barrier, uint32_t initial_cores) {
    return syncron_sync_(h, SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, initial_cores);
}
static inline uint32_t sem_wait(const syncron_hart_t* h, uint64_t sem, uint32_t initial_resources) {
    return syncron_sync_(h, SYNCRON_OP_SEM_WAIT, sem, initial_resources);
}
static inline uint32_t sem_post(const syncron_hart_t* h, uint64_t sem) {
    return syncron_async_(h, SYNCRON_OP_SEM_POST, sem);
}
/* Releases `lock`, waits for a signal, re-acquires `lock` (Mesa semantics:
 * re-check the predicate). */
static inline uint32_t cond_wait(const syncron_hart_t* h, uint64_t cond, uint64_t lock) {
    const uint32_t st = syncron_sync_(h, SYNCRON_OP_COND_WAIT, cond, lock);
    if (st != SYNCRON_ST_OK) return st;
    return lock_acquire(h, lock);
}
static inline uint32_t cond_signal(const syncron_hart_t* h, uint64_t cond) {
    return syncron_async_(h, SYNCRON_OP_COND_SIGNAL, cond);
}
static inline uint32_t cond_broadcast(const syncron_hart_t* h, uint64_t cond) {
    return syncron_async_(h, SYNCRON_OP_COND_BROADCAST, cond);
}

/* Model extension (paper §6): a read-modify-write of the 8-byte aligned word
 * `word`, executed by its Master SE. op: SYNCRON_OP_RMW_*; `expected` for
 * SYNCRON_OP_RMW_CAS only. Stores the word's old value in *old and returns
 * the STATUS code (SYNCRON_ST_OK when done). */
static inline uint32_t syncron_rmw(const syncron_hart_t* h, uint32_t op, uint64_t word, uint64_t operand,
                                   uint64_t expected, uint64_t* old) {
    syncron_write32_(h, SYNCRON_MMIO_EXPECTED_LO, (uint32_t)expected);
    syncron_write32_(h, SYNCRON_MMIO_EXPECTED_HI, (uint32_t)(expected >> 32));
    syncron_set_(h, word, operand);
    (void)syncron_read32_(h, SYNCRON_MMIO_CMD(op)); /* the low half; RESULT has all of it */
    const uint32_t st = syncron_status(h);
    if (st == SYNCRON_ST_OK)
        *old = (uint64_t)syncron_read32_(h, SYNCRON_MMIO_RESULT_LO) |
               ((uint64_t)syncron_read32_(h, SYNCRON_MMIO_RESULT_HI) << 32);
    return st;
}

#ifdef __cplusplus
}
#endif

#endif /* SYNCRON_MMIO_H */

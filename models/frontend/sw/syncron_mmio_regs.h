/*
 * The register map of the SynCron front end's per-hart window
 * (docs/integration.md), shared by the C API (syncron_mmio.h) and the model.
 * Freestanding C99 and C++.
 */
#ifndef SYNCRON_MMIO_REGS_H
#define SYNCRON_MMIO_REGS_H

#define SYNCRON_MMIO_VAR_LO 0x000u
#define SYNCRON_MMIO_VAR_HI 0x004u
#define SYNCRON_MMIO_INFO_LO 0x008u
#define SYNCRON_MMIO_INFO_HI 0x00Cu
#define SYNCRON_MMIO_STATUS 0x010u
#define SYNCRON_MMIO_HART 0x014u
/* Model extension (paper §6, the SE's read-modify-write): compare-and-swap's
 * expected value, and the old value the last rmw returned. */
#define SYNCRON_MMIO_EXPECTED_LO 0x018u
#define SYNCRON_MMIO_EXPECTED_HI 0x01Cu
#define SYNCRON_MMIO_RESULT_LO 0x020u
#define SYNCRON_MMIO_RESULT_HI 0x024u
/* Lock fairness threshold of the whole fabric (paper §4 and §6), read/write
 * from any hart: after this many consecutive grants of a lock inside a unit
 * the SE hands it to another waiting unit; 0 = off. */
#define SYNCRON_MMIO_FAIRNESS 0x028u
#define SYNCRON_MMIO_CMD_BASE 0x100u
#define SYNCRON_MMIO_CMD_STRIDE 8u
#define SYNCRON_MMIO_CMD_SLOTS 64u
/* Registers and slots end here; a window is a power of two at least this big. */
#define SYNCRON_MMIO_MIN_WINDOW 0x400u
#define SYNCRON_MMIO_DEFAULT_WINDOW 0x400u

/* Command slot of a Table 3 request opcode. */
#define SYNCRON_MMIO_CMD(op) (SYNCRON_MMIO_CMD_BASE + (op)*SYNCRON_MMIO_CMD_STRIDE)

/* The requests a core sends (Table 3 raw opcodes). Loads: req_sync. */
#define SYNCRON_OP_LOCK_ACQUIRE 1u          /* load  */
#define SYNCRON_OP_LOCK_RELEASE 4u          /* store */
#define SYNCRON_OP_BARRIER_WITHIN_UNIT 10u  /* load, INFO = participants */
#define SYNCRON_OP_BARRIER_ACROSS_UNITS 11u /* load, INFO = participants */
#define SYNCRON_OP_SEM_WAIT 17u             /* load, INFO = initial resources */
#define SYNCRON_OP_SEM_POST 23u             /* store */
#define SYNCRON_OP_COND_WAIT 26u            /* load, INFO = the lock's address */
#define SYNCRON_OP_COND_SIGNAL 29u          /* store */
#define SYNCRON_OP_COND_BROADCAST 32u       /* store */
/* Read-modify-write of the 8-byte aligned word VAR (model extension): loads,
 * INFO = operand (cas: the new value), EXPECTED = cas's expected value. The
 * load returns the word's old value (an 8-byte load all of it, a 4-byte load
 * its low half; RESULT keeps all of it); STATUS says whether it was done. */
#define SYNCRON_OP_RMW_FETCH_ADD 43u
#define SYNCRON_OP_RMW_SWAP 44u
#define SYNCRON_OP_RMW_CAS 45u
#define SYNCRON_OP_RMW_MIN 46u /* unsigned */
#define SYNCRON_OP_RMW_MAX 47u /* unsigned */

/* STATUS codes. Any code but OK comes with a TLM error response. */
#define SYNCRON_ST_OK 0u
#define SYNCRON_ST_BAD_OFFSET 1u   /* no register at this offset */
#define SYNCRON_ST_BAD_SIZE 2u     /* wrong access size or alignment */
#define SYNCRON_ST_BAD_OPCODE 3u   /* command slot of no core request */
#define SYNCRON_ST_NOT_HELD 4u     /* lock_release / cond_wait without the lock */
#define SYNCRON_ST_ALREADY_HELD 5u /* lock_acquire of a lock this hart holds */
#define SYNCRON_ST_BAD_VARIABLE 6u /* VAR (or cond_wait's lock) outside the variables' range */
#define SYNCRON_ST_BAD_ARGUMENT 7u /* barrier participants 0 or more than the harts; an rmw's VAR not 8-byte aligned */
#define SYNCRON_ST_BAD_COMMAND                                                                                         \
    8u                              /* load of a store-only slot, store of a load-only slot,
                                       write to a read-only register, or an extended (atomic)
                                       load of a blocking slot */
#define SYNCRON_ST_KIND_MISMATCH 9u /* VAR used before as another primitive */

#endif /* SYNCRON_MMIO_REGS_H */

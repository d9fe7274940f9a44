/* A software synchronization server as the paper describes Central and Hier
 * (§5): a core that polls its mailbox, decodes a SynCron message
 * (docs/message_format.md), looks the variable up in a software table, runs
 * the primitive's state machine and sends the replies. Written for this
 * project to be counted (scripts/cited-code-counts.py server); the state
 * machines follow the simulator's SeCore (models/se/core/master_se.cpp,
 * local_se.cpp): docs/schemes.md, "The server loop, measured". */
#ifndef SERVER_LOOP_H
#define SERVER_LOOP_H

#include <stdint.h>

#define WIRE_BYTES 18
#define MBOX_SLOTS 4096 /* a power of two */
#define TABLE_ENTRIES 256
#define MAX_UNITS 4

/* Opcodes (paper Table 3; raw values of models/protocol/opcode.h). */
enum {
    OP_LOCK_ACQUIRE_GLOBAL = 0,
    OP_LOCK_ACQUIRE_LOCAL = 1,
    OP_LOCK_RELEASE_GLOBAL = 3,
    OP_LOCK_RELEASE_LOCAL = 4,
    OP_LOCK_GRANT_GLOBAL = 6,
    OP_LOCK_GRANT_LOCAL = 7,
    OP_BARRIER_WAIT_GLOBAL = 9,
    OP_BARRIER_WAIT_LOCAL_WITHIN = 10,
    OP_BARRIER_WAIT_LOCAL_ACROSS = 11,
    OP_BARRIER_DEPART_GLOBAL = 13,
    OP_BARRIER_DEPART_LOCAL = 14,
    OP_SEM_WAIT_GLOBAL = 16,
    OP_SEM_WAIT_LOCAL = 17,
    OP_SEM_GRANT_GLOBAL = 19,
    OP_SEM_GRANT_LOCAL = 20,
    OP_SEM_POST_GLOBAL = 22,
    OP_SEM_POST_LOCAL = 23,
    OP_COND_WAIT_GLOBAL = 25,
    OP_COND_WAIT_LOCAL = 26,
    OP_COND_SIGNAL_GLOBAL = 28,
    OP_COND_SIGNAL_LOCAL = 29,
    OP_COND_BROAD_GLOBAL = 31,
    OP_COND_BROAD_LOCAL = 32,
    OP_COND_GRANT_GLOBAL = 34,
    OP_COND_GRANT_LOCAL = 35,
    OP_COUNT = 43
};

/* A mailbox: the window a core's messages arrive in, as a ring of wire-form
 * messages (the sender writes a slot and advances tail, the owner reads the
 * slot at head and advances head). */
struct mailbox {
    volatile uint32_t head, tail;
    uint8_t slot[MBOX_SLOTS][WIRE_BYTES];
};

/* Where the server's replies go: a send queue of (destination, message);
 * dest < 64 is a client core (its CoreID), dest >= 64 the server of unit
 * dest - 64. The network (the driver) delivers them. */
struct send_entry {
    uint32_t dest;
    uint8_t wire[WIRE_BYTES];
};
struct sendq {
    volatile uint32_t head, tail;
    struct send_entry e[MBOX_SLOTS];
};

/* One slot of the software table: 64 bytes, the state of one variable as
 * the SE's VarState holds it (models/se/core/var_state.h). */
struct entry {
    uint64_t addr;   /* 0: free */
    uint64_t info;   /* lock: owner; barrier: arrivals; semaphore: delta|init|known; condvar: its lock */
    uint64_t local;  /* own-core waiting list (central: every client, by flat index) */
    uint8_t kind;    /* 0 lock, 1 barrier, 2 semaphore, 3 condvar */
    uint8_t global;  /* SEs (servers) waiting as a whole */
    uint8_t pending; /* local server: a global request is outstanding */
    uint8_t rr_local, rr_global;
    uint8_t pad[64 - 29];
};

struct server {
    uint32_t unit;              /* this server's unit */
    uint32_t units;             /* 1: central (every variable is its own); 4: hier */
    uint32_t home_shift;        /* hier: a variable's home unit = (addr >> home_shift) % units */
    uint32_t total_clients;     /* client cores of the system */
    uint8_t clients[MAX_UNITS]; /* client cores per unit */
    uint32_t errors;            /* messages the state machines refused */
    uint32_t internal_core;     /* a lock release cond_wait leaves to serve (internal_lock != 0) */
    uint64_t internal_lock;
    struct mailbox* in;
    struct sendq* out;
    struct entry table[TABLE_ENTRIES];
};

/* Serves the next message of the mailbox; 0 if it was empty. */
int server_step(struct server* s);

/* Wire form (docs/message_format.md): 64-bit address, 6-bit opcode, 6-bit
 * CoreID, 64-bit MessageInfo in one little-endian 140-bit stream. */
void wire_pack(uint8_t w[WIRE_BYTES], uint64_t addr, unsigned op, unsigned core, uint64_t info);
void wire_unpack(const uint8_t w[WIRE_BYTES], uint64_t* addr, unsigned* op, unsigned* core, uint64_t* info);

#endif

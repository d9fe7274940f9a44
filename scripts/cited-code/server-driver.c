/* Feeds the server loop (server-loop.c) the messages of the paper's Figure 10
 * microbenchmarks, as docs/workloads.md describes them: 60 client cores (15
 * per unit) run `ops` operations of lock, barrier, semaphore and condition
 * variable in turn, and a seeded random interleaving of clients and servers
 * stands in for the timing. Written for this project
 * (scripts/cited-code-counts.py server; docs/schemes.md, "The server loop,
 * measured").
 *
 * Each message is served through serve_op_N (N = its opcode), so callgrind's
 * call arcs from serve_op_N to server_step give the cost per message kind.
 * Build this file with -fno-ipa-icf -fno-optimize-sibling-calls (the
 * wrappers stay distinct functions that call server_step).
 *
 * Usage: server-driver central|hier OPS SEED */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server-loop.h"

#define UNITS 4
#define PER_UNIT 15 /* client cores per unit; local ID 15 is the server core */
#define CLIENTS (UNITS * PER_UNIT)
#define HOME_SHIFT 12 /* hier: a variable's home unit = (addr >> 12) % 4 */

/* Variables, all homed in unit 0 as the microbenchmarks' are. */
#define LOCK_VAR 0x10000ull
#define BARRIER_VAR 0x20000ull
#define SEM_VAR 0x30000ull
#define COND_VAR 0x40000ull
#define COND_LOCK 0x50000ull

#define W(n) \
    static __attribute__((noinline)) int serve_op_##n(struct server* s) { return server_step(s); }
W(0) W(1) W(2) W(3) W(4) W(5) W(6) W(7) W(8) W(9) W(10) W(11) W(12) W(13) W(14) W(15) W(16) W(17) W(18)
W(19) W(20) W(21) W(22) W(23) W(24) W(25) W(26) W(27) W(28) W(29) W(30) W(31) W(32) W(33) W(34) W(35) W(36)
W(37) W(38) W(39) W(40) W(41) W(42)
#undef W
static int (*const serve_op[OP_COUNT])(struct server*) = {
    serve_op_0,  serve_op_1,  serve_op_2,  serve_op_3,  serve_op_4,  serve_op_5,  serve_op_6,  serve_op_7,
    serve_op_8,  serve_op_9,  serve_op_10, serve_op_11, serve_op_12, serve_op_13, serve_op_14, serve_op_15,
    serve_op_16, serve_op_17, serve_op_18, serve_op_19, serve_op_20, serve_op_21, serve_op_22, serve_op_23,
    serve_op_24, serve_op_25, serve_op_26, serve_op_27, serve_op_28, serve_op_29, serve_op_30, serve_op_31,
    serve_op_32, serve_op_33, serve_op_34, serve_op_35, serve_op_36, serve_op_37, serve_op_38, serve_op_39,
    serve_op_40, serve_op_41, serve_op_42};

static int hier;
static unsigned nservers;
static struct server servers[UNITS];
static struct mailbox inboxes[UNITS];
static struct sendq outqs[UNITS];
static unsigned long handled[OP_COUNT];

enum { LOCKB, BARRIERB, SEMB, CONDB, NBENCH };

struct client {
    int step; /* position in the current operation */
    unsigned done; /* operations finished */
    int blocked; /* waiting for a reply of opcode `awaits` */
    unsigned awaits;
};
static struct client clients[CLIENTS];
static int bench;
static unsigned ops;
static long holder_lock = -1, holder_cond_lock = -1, tokens;

static uint64_t rng;
static unsigned rnd(unsigned n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng >> 33) % n);
}

static void fail(const char* why) {
    fprintf(stderr, "server-driver: %s\n", why);
    exit(1);
}

/* A client's request into its server's mailbox. */
static void request(unsigned i, unsigned op, uint64_t addr, uint64_t info) {
    unsigned unit = i / PER_UNIT, local = i % PER_UNIT;
    struct mailbox* m = &inboxes[hier ? unit : 0];
    if (m->tail - m->head >= MBOX_SLOTS) fail("mailbox full");
    wire_pack(m->slot[m->tail & (MBOX_SLOTS - 1)], addr, op, hier ? local : unit * 16 + local, info);
    m->tail = m->tail + 1;
}

static void block(unsigned i, unsigned op) {
    clients[i].blocked = 1;
    clients[i].awaits = op;
}

static void finish_op(unsigned i) {
    clients[i].step = 0;
    clients[i].done++;
}

/* The client's next action (it is not blocked and not done). */
static void act(unsigned i) {
    struct client* c = &clients[i];
    int producer = i & 1;
    switch (bench) {
    case LOCKB:
        if (c->step == 0) {
            request(i, OP_LOCK_ACQUIRE_LOCAL, LOCK_VAR, 0);
            block(i, OP_LOCK_GRANT_LOCAL);
            c->step = 1;
        } else { /* empty critical section */
            if (holder_lock != (long)i) fail("lock released by a non-holder");
            holder_lock = -1;
            request(i, OP_LOCK_RELEASE_LOCAL, LOCK_VAR, 0);
            finish_op(i);
        }
        return;
    case BARRIERB:
        request(i, OP_BARRIER_WAIT_LOCAL_ACROSS, BARRIER_VAR, CLIENTS);
        block(i, OP_BARRIER_DEPART_LOCAL);
        c->step = 1; /* finished on departure */
        return;
    case SEMB:
        if (producer) {
            request(i, OP_SEM_POST_LOCAL, SEM_VAR, 0);
            finish_op(i);
        } else {
            request(i, OP_SEM_WAIT_LOCAL, SEM_VAR, 0);
            block(i, OP_SEM_GRANT_LOCAL);
            c->step = 1;
        }
        return;
    case CONDB:
        if (c->step == 0) { /* take the lock */
            request(i, OP_LOCK_ACQUIRE_LOCAL, COND_LOCK, 0);
            block(i, OP_LOCK_GRANT_LOCAL);
            c->step = 1;
            return;
        }
        if (holder_cond_lock != (long)i) fail("condvar lock not held");
        if (producer) { /* add a token, signal, release */
            if (c->step == 1) {
                tokens++;
                request(i, OP_COND_SIGNAL_LOCAL, COND_VAR, 0);
                c->step = 2;
            } else {
                holder_cond_lock = -1;
                request(i, OP_LOCK_RELEASE_LOCAL, COND_LOCK, 0);
                finish_op(i);
            }
            return;
        }
        if (tokens == 0) { /* wait: the server releases the lock for us */
            holder_cond_lock = -1;
            request(i, OP_COND_WAIT_LOCAL, COND_VAR, COND_LOCK);
            block(i, OP_COND_GRANT_LOCAL);
            c->step = 3;
            return;
        }
        tokens--;
        holder_cond_lock = -1;
        request(i, OP_LOCK_RELEASE_LOCAL, COND_LOCK, 0);
        finish_op(i);
        return;
    }
}

/* A reply from a server to client i. */
static void receive(unsigned i, unsigned op, uint64_t addr) {
    struct client* c = &clients[i];
    if (!c->blocked || c->awaits != op) fail("unexpected reply");
    c->blocked = 0;
    if (op == OP_LOCK_GRANT_LOCAL) {
        long* h = addr == LOCK_VAR ? &holder_lock : &holder_cond_lock;
        if (*h != -1) fail("two lock holders");
        *h = (long)i;
    }
    if (op == OP_BARRIER_DEPART_LOCAL || op == OP_SEM_GRANT_LOCAL) finish_op(i);
    if (op == OP_COND_GRANT_LOCAL) { /* woken: take the lock again */
        request(i, OP_LOCK_ACQUIRE_LOCAL, COND_LOCK, 0);
        block(i, OP_LOCK_GRANT_LOCAL);
        c->step = 1;
    }
}

static void deliver(unsigned from) {
    struct sendq* q = &outqs[from];
    while (q->head != q->tail) {
        struct send_entry* e = &q->e[q->head & (MBOX_SLOTS - 1)];
        uint64_t addr, info;
        unsigned op, core;
        wire_unpack(e->wire, &addr, &op, &core, &info);
        if (e->dest >= 64) {
            struct mailbox* m = &inboxes[e->dest - 64];
            if (m->tail - m->head >= MBOX_SLOTS) fail("mailbox full");
            memcpy(m->slot[m->tail & (MBOX_SLOTS - 1)], e->wire, WIRE_BYTES);
            m->tail = m->tail + 1;
        } else {
            unsigned i = hier ? from * PER_UNIT + e->dest : (e->dest / 16) * PER_UNIT + e->dest % 16;
            receive(i, op, addr);
        }
        q->head = q->head + 1;
    }
}

static void run_bench(void) {
    memset(clients, 0, sizeof clients);
    for (;;) {
        unsigned ready[CLIENTS + UNITS], n = 0;
        for (unsigned i = 0; i < CLIENTS; ++i) {
            /* back-pressure: a client waits while its server has 64 messages queued */
            const struct mailbox* m = &inboxes[hier ? i / PER_UNIT : 0];
            if (!clients[i].blocked && clients[i].done < ops && m->tail - m->head < 64) ready[n++] = i;
        }
        for (unsigned u = 0; u < nservers; ++u)
            if (inboxes[u].head != inboxes[u].tail) ready[n++] = CLIENTS + u;
        if (n == 0) break;
        unsigned pick = ready[rnd(n)];
        if (pick < CLIENTS) {
            act(pick);
            continue;
        }
        struct server* s = &servers[pick - CLIENTS];
        const uint8_t* w = s->in->slot[s->in->head & (MBOX_SLOTS - 1)];
        unsigned op = w[8] & 0x3f;
        handled[op]++;
        serve_op[op](s);
        if (s->errors) fail("the server refused a message");
        deliver(pick - CLIENTS);
    }
    for (unsigned i = 0; i < CLIENTS; ++i)
        if (clients[i].done < ops) fail("a client never finished");
}

int main(int argc, char** argv) {
    if (argc != 4 || (strcmp(argv[1], "central") && strcmp(argv[1], "hier")))
        fail("usage: server-driver central|hier OPS SEED");
    hier = strcmp(argv[1], "hier") == 0;
    ops = (unsigned)strtoul(argv[2], 0, 10);
    rng = strtoull(argv[3], 0, 10);
    nservers = hier ? UNITS : 1;
    for (unsigned u = 0; u < nservers; ++u) {
        struct server* s = &servers[u];
        s->unit = u;
        s->units = hier ? UNITS : 1;
        s->home_shift = HOME_SHIFT;
        s->total_clients = CLIENTS;
        for (unsigned k = 0; k < UNITS; ++k) s->clients[k] = PER_UNIT;
        s->in = &inboxes[u];
        s->out = &outqs[u];
    }
    for (bench = 0; bench < NBENCH; ++bench) run_bench();
    if (tokens != 0) fail("condvar tokens left");
    for (unsigned op = 0; op < OP_COUNT; ++op)
        if (handled[op]) printf("handled %u %lu\n", op, handled[op]);
    printf("ok\n");
    return 0;
}

/* The server loop of Central and Hier (paper §5), written for this project:
 * see server-loop.h and docs/schemes.md, "The server loop, measured". */
#include "server-loop.h"

#include <string.h>

#define VALID (1ull << 63)
#define WHOLE_SE (1ull << 62)
#define COND_WITHDRAW 1ull
#define TO_SERVER 64u /* send_entry.dest of the server of unit u: 64 + u */

enum { LOCK, BARRIER, SEM, COND };

/* Per opcode: primitive (bits 0..1), global level (bit 2), acquire type
 * (bit 3), valid at a server (bit 4). Overflow and abort opcodes never
 * reach a server of Central or Hier. */
#define K(kind, global, acq) (uint8_t)((kind) | ((global) << 2) | ((acq) << 3) | 16)
static const uint8_t op_class[64] = {
    [OP_LOCK_ACQUIRE_GLOBAL] = K(LOCK, 1, 1),       [OP_LOCK_ACQUIRE_LOCAL] = K(LOCK, 0, 1),
    [OP_LOCK_RELEASE_GLOBAL] = K(LOCK, 1, 0),       [OP_LOCK_RELEASE_LOCAL] = K(LOCK, 0, 0),
    [OP_LOCK_GRANT_GLOBAL] = K(LOCK, 1, 0),         [OP_BARRIER_WAIT_GLOBAL] = K(BARRIER, 1, 1),
    [OP_BARRIER_WAIT_LOCAL_WITHIN] = K(BARRIER, 0, 1), [OP_BARRIER_WAIT_LOCAL_ACROSS] = K(BARRIER, 0, 1),
    [OP_BARRIER_DEPART_GLOBAL] = K(BARRIER, 1, 0),  [OP_SEM_WAIT_GLOBAL] = K(SEM, 1, 1),
    [OP_SEM_WAIT_LOCAL] = K(SEM, 0, 1),             [OP_SEM_GRANT_GLOBAL] = K(SEM, 1, 0),
    [OP_SEM_POST_GLOBAL] = K(SEM, 1, 0),            [OP_SEM_POST_LOCAL] = K(SEM, 0, 0),
    [OP_COND_WAIT_GLOBAL] = K(COND, 1, 1),          [OP_COND_WAIT_LOCAL] = K(COND, 0, 1),
    [OP_COND_SIGNAL_GLOBAL] = K(COND, 1, 0),        [OP_COND_SIGNAL_LOCAL] = K(COND, 0, 0),
    [OP_COND_BROAD_GLOBAL] = K(COND, 1, 0),         [OP_COND_BROAD_LOCAL] = K(COND, 0, 0),
    [OP_COND_GRANT_GLOBAL] = K(COND, 1, 0),
};

void wire_pack(uint8_t w[WIRE_BYTES], uint64_t addr, unsigned op, unsigned core, uint64_t info) {
    uint64_t hi = info >> 4; /* info bits 4..63 go to stream bits 80..139 */
    memcpy(w, &addr, 8);
    w[8] = (uint8_t)((op & 0x3f) | (core << 6));
    w[9] = (uint8_t)(((core >> 2) & 0xf) | (info << 4));
    memcpy(w + 10, &hi, 8); /* byte 17's upper half (padding) stays 0 */
}

void wire_unpack(const uint8_t w[WIRE_BYTES], uint64_t* addr, unsigned* op, unsigned* core, uint64_t* info) {
    uint64_t hi;
    memcpy(addr, w, 8);
    memcpy(&hi, w + 10, 8);
    *op = w[8] & 0x3f;
    *core = (unsigned)(w[8] >> 6) | ((unsigned)(w[9] & 0xf) << 2);
    *info = (uint64_t)(w[9] >> 4) | (hi << 4);
}

static void send(struct server* s, unsigned dest, unsigned op, uint64_t addr, unsigned core, uint64_t info) {
    struct sendq* q = s->out;
    struct send_entry* e = &q->e[q->tail & (MBOX_SLOTS - 1)];
    e->dest = dest;
    wire_pack(e->wire, addr, op, core, info);
    q->tail = q->tail + 1;
}

static unsigned home(const struct server* s, uint64_t addr) {
    return s->units == 1 ? s->unit : (unsigned)((addr >> s->home_shift) % s->units);
}

/* The slot of a variable, allocated at first use and kept (an idle
 * variable's state is all zero). NULL: the table is full. */
static struct entry* lookup(struct server* s, uint64_t addr, unsigned kind) {
    unsigned i = (unsigned)(((addr >> 6) * 0x9E3779B97F4A7C15ull) >> 56);
    for (unsigned n = 0; n < TABLE_ENTRIES; ++n, i = (i + 1) & (TABLE_ENTRIES - 1)) {
        struct entry* e = &s->table[i];
        if (e->addr == addr) return e;
        if (e->addr == 0) {
            e->addr = addr;
            e->kind = (uint8_t)kind;
            return e;
        }
    }
    return 0;
}

/* The first waiter at or after position rr, wrapping; -1 if none. */
static int next_rr(uint64_t bits, unsigned rr) {
    if (!bits) return -1;
    uint64_t after = rr < 64 ? bits & (~0ull << rr) : 0;
    return __builtin_ctzll(after ? after : bits);
}

/* ---------------------------------------------------------------- the home server */

/* A requester at the home server: an own client core (local-level message,
 * `who` = its CoreID) or another unit's server (global, `who` = its unit). */
static uint64_t owner_code(int is_se, unsigned who) { return is_se ? VALID | WHOLE_SE | who : VALID | who; }

static int waiting(const struct entry* e, int is_se, unsigned who) {
    return is_se ? (e->global >> who) & 1 : (int)((e->local >> who) & 1);
}

static void enqueue(struct entry* e, int is_se, unsigned who) {
    if (is_se)
        e->global |= (uint8_t)(1u << who);
    else
        e->local |= 1ull << who;
}

static void reply(struct server* s, int is_se, unsigned who, unsigned local_op, unsigned global_op, uint64_t addr) {
    if (is_se)
        send(s, TO_SERVER + who, global_op, addr, who, 0);
    else
        send(s, who, local_op, addr, who, 0);
}

/* The home server serves its own cores first, then the other servers in
 * rotation (paper Figure 4; MasterSe::pick_next). Dequeues the one picked. */
static int pick_next(struct server* s, struct entry* e, int* is_se, unsigned* who) {
    int c = next_rr(e->local, e->rr_local);
    if (c >= 0) {
        e->local &= ~(1ull << c);
        e->rr_local = (uint8_t)(c + 1);
        *is_se = 0;
        *who = (unsigned)c;
        return 1;
    }
    for (unsigned i = 0; i < s->units; ++i) {
        unsigned u = (e->rr_global + i) % s->units;
        if ((e->global >> u) & 1) {
            e->rr_global = (uint8_t)(u + 1);
            *is_se = 1;
            *who = u;
            return 1;
        }
    }
    return 0;
}

static void release_all(struct server* s, struct entry* e, unsigned local_op, unsigned global_op, uint64_t addr) {
    for (uint64_t b = e->local; b; b &= b - 1) send(s, (unsigned)__builtin_ctzll(b), local_op, addr, 0, 0);
    for (unsigned u = 0; u < s->units; ++u)
        if ((e->global >> u) & 1) send(s, TO_SERVER + u, global_op, addr, u, 0);
    e->local = 0;
    e->global = 0;
}

/* cond_wait releases the waiter's lock: one more message, served after the
 * one that caused it (as the SE's internal messages are). */
static void internal_release(struct server* s, uint64_t lock, unsigned core) {
    s->internal_lock = lock;
    s->internal_core = core;
}

static void home_lock(struct server* s, struct entry* e, unsigned op, int is_se, unsigned who, uint64_t addr) {
    if (op_class[op] & 8) { /* acquire */
        if (waiting(e, is_se, who) || e->info == owner_code(is_se, who)) {
            ++s->errors;
            return;
        }
        if (!(e->info & VALID)) {
            e->info = owner_code(is_se, who);
            reply(s, is_se, who, OP_LOCK_GRANT_LOCAL, OP_LOCK_GRANT_GLOBAL, addr);
        } else {
            enqueue(e, is_se, who);
        }
        return;
    }
    if (e->info != owner_code(is_se, who)) {
        ++s->errors;
        return;
    }
    if (pick_next(s, e, &is_se, &who)) {
        if (is_se) e->global &= (uint8_t)~(1u << who);
        e->info = owner_code(is_se, who);
        reply(s, is_se, who, OP_LOCK_GRANT_LOCAL, OP_LOCK_GRANT_GLOBAL, addr);
    } else {
        e->info = 0;
    }
}

static void home_barrier(struct server* s, struct entry* e, int is_se, unsigned who, uint64_t addr, uint64_t info) {
    if (!is_se && waiting(e, is_se, who)) {
        ++s->errors;
        return;
    }
    /* two-level: one message of a server stands for its unit's clients */
    uint64_t weight = is_se && info == s->total_clients ? s->clients[who] : 1;
    enqueue(e, is_se, who);
    e->info += weight;
    if (e->info < info) return;
    release_all(s, e, OP_BARRIER_DEPART_LOCAL, OP_BARRIER_DEPART_GLOBAL, addr);
    e->info = 0;
}

static void home_sem(struct server* s, struct entry* e, unsigned op, int is_se, unsigned who, uint64_t addr,
                     uint64_t info) {
    int32_t delta = (int32_t)(uint32_t)e->info;
    uint32_t init = (uint32_t)(e->info >> 32) & 0x7fffffffu;
    int known = (int)(e->info >> 63);
    if (op_class[op] & 8) { /* wait */
        if (waiting(e, is_se, who)) {
            ++s->errors;
            return;
        }
        if (!known) {
            init = (uint32_t)info;
            known = 1;
        }
        if ((int64_t)init + delta > 0) {
            --delta;
            reply(s, is_se, who, OP_SEM_GRANT_LOCAL, OP_SEM_GRANT_GLOBAL, addr);
        } else {
            enqueue(e, is_se, who);
        }
    } else if (pick_next(s, e, &is_se, &who)) { /* post: a waiter takes it */
        if (is_se) e->global &= (uint8_t)~(1u << who);
        reply(s, is_se, who, OP_SEM_GRANT_LOCAL, OP_SEM_GRANT_GLOBAL, addr);
    } else {
        ++delta;
    }
    if (delta == 0 && !e->local && !e->global) known = 0, init = 0;
    e->info = (uint64_t)(uint32_t)delta | ((uint64_t)(init & 0x7fffffffu) << 32) | (known ? VALID : 0);
}

static void home_cond(struct server* s, struct entry* e, unsigned op, int is_se, unsigned who, uint64_t addr,
                      uint64_t info) {
    if (op == OP_COND_WAIT_LOCAL || op == OP_COND_WAIT_GLOBAL) {
        if (!is_se && waiting(e, is_se, who)) {
            ++s->errors;
            return;
        }
        enqueue(e, is_se, who);
        e->info = info;
        if (!is_se)
            internal_release(s, info, who); /* the waiter's lock, released for it */
        else if (home(s, info) != s->unit)
            send(s, TO_SERVER + who, 41 /* cond_registered_global */, addr, who, info);
        return;
    }
    if (is_se) e->global &= (uint8_t)~(1u << who); /* that server has no waiter left */
    if (op == OP_COND_SIGNAL_LOCAL || op == OP_COND_SIGNAL_GLOBAL) {
        if (is_se && (info & COND_WITHDRAW)) return;
        if (!pick_next(s, e, &is_se, &who)) return; /* nobody waits: no effect */
        /* a server stays registered until it withdraws */
        reply(s, is_se, who, OP_COND_GRANT_LOCAL, OP_COND_GRANT_GLOBAL, addr);
        return;
    }
    release_all(s, e, OP_COND_GRANT_LOCAL, OP_COND_BROAD_GLOBAL, addr); /* broadcast */
}

/* ---------------------------------------------------------------- a unit's server (hier) */

static void to_home(struct server* s, unsigned op, uint64_t addr, uint64_t info) {
    send(s, TO_SERVER + home(s, addr), op, addr, s->unit, info);
}

/* Grants the next own waiter in rotation; its CoreID, or -1. */
static int grant_next_local(struct server* s, struct entry* e, unsigned op, uint64_t addr) {
    int c = next_rr(e->local, e->rr_local);
    if (c < 0) return -1;
    e->local &= ~(1ull << c);
    e->rr_local = (uint8_t)(c + 1);
    send(s, (unsigned)c, op, addr, (unsigned)c, 0);
    return c;
}

static void unit_lock(struct server* s, struct entry* e, unsigned op, unsigned core, uint64_t addr) {
    int held = (e->info & VALID) != 0;
    int c;
    switch (op) {
    case OP_LOCK_ACQUIRE_LOCAL:
        if (((e->local >> core) & 1) || (held && (e->info & 0xffff) == core)) break;
        e->local |= 1ull << core;
        if (!held && !e->pending) { /* the unit's one aggregated request */
            e->pending = 1;
            to_home(s, OP_LOCK_ACQUIRE_GLOBAL, addr, 0);
        }
        return;
    case OP_LOCK_GRANT_GLOBAL:
        if (!e->pending || held) break;
        e->pending = 0;
        c = grant_next_local(s, e, OP_LOCK_GRANT_LOCAL, addr);
        if (c < 0) break;
        e->info = VALID | (unsigned)c;
        return;
    case OP_LOCK_RELEASE_LOCAL:
        if (!held || (e->info & 0xffff) != core) break;
        c = grant_next_local(s, e, OP_LOCK_GRANT_LOCAL, addr);
        if (c >= 0) { /* handed over inside the unit */
            e->info = VALID | (unsigned)c;
            return;
        }
        e->info = 0;
        to_home(s, OP_LOCK_RELEASE_GLOBAL, addr, 0);
        return;
    }
    ++s->errors;
}

static void unit_barrier(struct server* s, struct entry* e, unsigned op, unsigned core, uint64_t addr, uint64_t info) {
    if (op == OP_BARRIER_DEPART_GLOBAL) {
        for (uint64_t b = e->local; b; b &= b - 1)
            send(s, (unsigned)__builtin_ctzll(b), OP_BARRIER_DEPART_LOCAL, addr, 0, 0);
        e->local = 0;
        e->info = 0;
        return;
    }
    if ((e->local >> core) & 1) {
        ++s->errors;
        return;
    }
    e->local |= 1ull << core;
    ++e->info;
    if (op == OP_BARRIER_WAIT_LOCAL_WITHIN) {
        if (e->info < info) return;
        for (uint64_t b = e->local; b; b &= b - 1)
            send(s, (unsigned)__builtin_ctzll(b), OP_BARRIER_DEPART_LOCAL, addr, 0, 0);
        e->local = 0;
        e->info = 0;
        return;
    }
    /* across units: two-level when every client core takes part (one message
     * per unit), else every arrival is forwarded */
    if (info != s->total_clients || e->info == s->clients[s->unit]) to_home(s, OP_BARRIER_WAIT_GLOBAL, addr, info);
}

static void unit_sem(struct server* s, struct entry* e, unsigned op, unsigned core, uint64_t addr, uint64_t info) {
    switch (op) {
    case OP_SEM_WAIT_LOCAL:
        if ((e->local >> core) & 1) {
            ++s->errors;
            return;
        }
        e->local |= 1ull << core;
        e->info = info; /* initial resources, repeated in every global request */
        if (!e->pending) {
            e->pending = 1;
            to_home(s, OP_SEM_WAIT_GLOBAL, addr, info);
        }
        return;
    case OP_SEM_POST_LOCAL: /* more waiters than the outstanding request covers: hand it over */
        if (__builtin_popcountll(e->local) >= 2)
            grant_next_local(s, e, OP_SEM_GRANT_LOCAL, addr);
        else
            to_home(s, OP_SEM_POST_GLOBAL, addr, 0);
        return;
    case OP_SEM_GRANT_GLOBAL:
        if (!e->pending) {
            ++s->errors;
            return;
        }
        e->pending = 0;
        if (e->local) {
            grant_next_local(s, e, OP_SEM_GRANT_LOCAL, addr);
            if (e->local) {
                e->pending = 1;
                to_home(s, OP_SEM_WAIT_GLOBAL, addr, e->info);
            }
        } else {
            to_home(s, OP_SEM_POST_GLOBAL, addr, 0); /* give the resource back */
        }
        return;
    }
    ++s->errors;
}

static void unit_cond(struct server* s, struct entry* e, unsigned op, unsigned core, uint64_t addr, uint64_t info) {
    switch (op) {
    case OP_COND_WAIT_LOCAL:
        if ((e->local >> core) & 1) {
            ++s->errors;
            return;
        }
        e->local |= 1ull << core;
        e->info = info;
        if (!e->pending) { /* register before the lock is released */
            e->pending = 1;
            to_home(s, OP_COND_WAIT_GLOBAL, addr, info);
        }
        internal_release(s, info, core);
        return;
    case OP_COND_SIGNAL_LOCAL:
    case OP_COND_GRANT_GLOBAL:
        if (e->local) {
            grant_next_local(s, e, OP_COND_GRANT_LOCAL, addr);
        } else {
            e->pending = 0;
            to_home(s, OP_COND_SIGNAL_GLOBAL, addr, 0);
        }
        break;
    case OP_COND_BROAD_LOCAL:
    case OP_COND_BROAD_GLOBAL:
        for (uint64_t b = e->local; b; b &= b - 1)
            send(s, (unsigned)__builtin_ctzll(b), OP_COND_GRANT_LOCAL, addr, 0, 0);
        e->local = 0;
        e->pending = 0;
        if (op == OP_COND_BROAD_LOCAL) to_home(s, OP_COND_BROAD_GLOBAL, addr, 0);
        break;
    default: ++s->errors; return;
    }
    if (!e->local && e->pending) { /* the last waiter here was woken: withdraw */
        e->pending = 0;
        to_home(s, OP_COND_SIGNAL_GLOBAL, addr, COND_WITHDRAW);
    }
}

/* ---------------------------------------------------------------- dispatch */

static void handle(struct server* s, uint64_t addr, unsigned op, unsigned who, uint64_t info) {
    unsigned cls = op_class[op & 63];
    if (!(cls & 16)) {
        ++s->errors;
        return;
    }
    unsigned kind = cls & 3;
    struct entry* e = lookup(s, addr, kind);
    if (!e || e->kind != kind) {
        ++s->errors;
        return;
    }
    if (home(s, addr) == s->unit) {
        int is_se = (cls >> 2) & 1;
        switch (kind) {
        case LOCK: home_lock(s, e, op, is_se, who, addr); return;
        case BARRIER: home_barrier(s, e, is_se, who, addr, info); return;
        case SEM: home_sem(s, e, op, is_se, who, addr, info); return;
        default: home_cond(s, e, op, is_se, who, addr, info); return;
        }
    }
    switch (kind) {
    case LOCK: unit_lock(s, e, op, who, addr); return;
    case BARRIER: unit_barrier(s, e, op, who, addr, info); return;
    case SEM: unit_sem(s, e, op, who, addr, info); return;
    default: unit_cond(s, e, op, who, addr, info); return;
    }
}

int server_step(struct server* s) {
    struct mailbox* m = s->in;
    uint32_t h = m->head;
    if (h == m->tail) return 0;
    const uint8_t* w = m->slot[h & (MBOX_SLOTS - 1)];
    uint64_t addr, info;
    unsigned op, core;
    if (w[17] >> 4) { /* padding bits must be zero */
        ++s->errors;
    } else {
        wire_unpack(w, &addr, &op, &core, &info);
        handle(s, addr, op, core, info);
        while (s->internal_lock) {
            addr = s->internal_lock;
            s->internal_lock = 0;
            handle(s, addr, OP_LOCK_RELEASE_LOCAL, s->internal_core, 0);
        }
    }
    m->head = h + 1;
    return 1;
}

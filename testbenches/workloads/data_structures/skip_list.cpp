// Skip list (paper Table 6: 5K elements, 100% deletion): the optimistic lazy
// skip list of Herlihy, Lev, Luchangco and Shavit ("A Simple Optimistic
// Skiplist Algorithm", SIROCCO 2007), as ASCYLIB's sl-herlihy. Every node has
// its own lock and two flags, marked (logically deleted) and fully_linked
// (linked at all its levels). Lookups take no lock: they walk down from the
// head's top level until a level holds the key, and answer "found" only for
// an unmarked, fully linked node. An insert searches, locks the distinct
// predecessors from level 0 up, validates that each is unmarked and still
// points at the (unmarked) successor found, links the node bottom-up and
// sets fully_linked; a remove locks the victim, marks it, then locks and
// validates the predecessors the same way and unlinks it top-down. A failed
// validation releases the locks, backs off as ASCYLIB does (exponentially,
// from the 13th consecutive failure on) and searches again. The backoff is
// needed here: SynCron's lock, as evaluated, keeps a lock inside a unit while
// that unit's cores ask for it, so inserters retrying in a tight loop on a
// predecessor's lock can starve forever the remove they wait for.
//
// Partitioning: the skip list of a unit (nodes and node locks) lives in that
// unit's memory; an operation goes to its key's partition. Levels: a node
// has 1..L levels, L = floor(log2(ceil(elements / units))) clamped to
// [1, 24] (log2 of a partition's initial size, as ASCYLIB sizes its levels;
// L = 10 for Table 6), drawn from a geometric distribution (p = 1/2), per
// core from its own seeded stream. Cost: a search loads 2 words (next, key)
// per node it reaches, about 2 (log2 n + L); a lookup adds 2 flag loads and
// no synchronization request. A remove that finds its key adds 5 + k + 3h
// loads, 1 + h stores and 2 (1 + k) synchronization requests for a victim of
// h levels with k distinct predecessors; one that does not adds at most 3
// loads and none.
//
// Checking: updates that succeed are logged under their locks just before
// the store that linearizes them (marked for a remove, fully_linked for an
// insert), so a lock-free reader that sees the store logs after them (in LT
// the store is served in the same host step as the log: exact; in AT a
// reader that started after the log and whose whole search, at least 2L
// loads, was served before the one store would be misjudged: not seen).
// Updates that fail change nothing, and they decide from lock-free reads
// (or, for a remove that finds its victim marked once it holds the victim's
// lock, from a mark that may be older than a re-insertion of the key): they
// are checked as lookups of their key over their whole run, like the
// lock-free lookups.
#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "testbenches/workloads/data_structures/data_structures.h"
#include "testbenches/workloads/data_structures/ds_workload.h"
#include "testbenches/workloads/data_structures/node_pool.h"
#include "testbenches/workloads/data_structures/set_log.h"

namespace syncron {
namespace {

constexpr unsigned kWord = 8;
// Node: key, levels (1..L), marked, fully_linked, lock (the node's
// syncronVar handle), next[L].
constexpr uint64_t kKey = 0, kLevels = 8, kMarked = 16, kFullyLinked = 24, kLock = 32, kNext = 40;
constexpr unsigned kMaxLevelsCap = 24;
// ASCYLIB's backoff after failed validations: nops once it exceeds 5000,
// doubling, at most 131071 (ASCYLIB masks with 131071 instead; a cap keeps
// backing off where the mask of a power of two would drop to 0).
constexpr uint64_t kBackoffFrom = 5000, kBackoffMax = 131071;
constexpr uint64_t kTailKey = std::numeric_limits<uint64_t>::max(); // above every key; the head's key is 0

class SkipList final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override {
        // a node of two levels on average and its lock (a syncronVar takes a line)
        return kNext + 2 * uint64_t{kWord} + 64;
    }
    void build(Driver& d) override {
        const uint64_t per_unit = (elements() + units() - 1) / units();
        m_levels = 1;
        while (m_levels < kMaxLevelsCap && (uint64_t(1) << (m_levels + 1)) <= per_unit) ++m_levels;
        m_node_bytes = kNext + uint64_t(m_levels) * kWord;
        m_head.assign(units(), 0);
        m_tail.assign(units(), 0);
        m_pool.assign(units(), NodePool{});
        m_spare_locks.assign(units(), {});
        m_spare_used.assign(units(), 0);
        m_rng.clear();
        for (unsigned core = 0; core < cores(); ++core) m_rng.emplace_back(stream(core));
        std::mt19937_64 build_rng = stream(cores()); // the initial nodes' levels
        const std::vector<uint64_t> keys = initial_keys();
        std::vector<std::vector<uint64_t>> initial(units());
        for (uint64_t k : keys) initial[partition_of(k)].push_back(k);
        for (unsigned p = 0; p < units(); ++p) {
            m_pool[p].reserve(d, p, initial[p].size() + 2 + max_inserts(), static_cast<unsigned>(m_node_bytes),
                              "workload skip_list");
            for (uint64_t i = 0; i < max_inserts(); ++i) m_spare_locks[p].push_back(create_lock(d, p, "node locks"));
            const auto make = [&](uint64_t key, unsigned levels) {
                const uint64_t node = m_pool[p].take();
                d.write(node + kKey, key, kWord);
                d.write(node + kLevels, levels, kWord);
                d.write(node + kFullyLinked, 1, kWord);
                d.write(node + kLock, create_lock(d, p, "node locks"), kWord);
                return node;
            };
            m_head[p] = make(0, m_levels);
            std::vector<uint64_t> last(m_levels, m_head[p]); // per level, the last node linked so far
            for (uint64_t k : initial[p]) {                  // ascending
                const unsigned levels = random_levels(build_rng);
                const uint64_t node = make(k, levels);
                for (unsigned l = 0; l < levels; ++l) {
                    d.write(last[l] + next(l), node, kWord);
                    last[l] = node;
                }
            }
            m_tail[p] = make(kTailKey, m_levels);
            for (unsigned l = 0; l < m_levels; ++l) d.write(last[l] + next(l), m_tail[p], kWord);
        }
        m_log.start(std::set<uint64_t>(keys.begin(), keys.end()));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        switch (op) {
        case Op::lookup: return lookup(c, key);
        case Op::insert: return insert(c, key);
        case Op::remove: return remove(c, key);
        }
        return false;
    }

    // The cited code's work per operation besides loads and stores,
    // {outside, inside} its locks (workload.op_work=measured): ASCYLIB
    // 3c2d1a2 `src/skiplist-herlihy_lb`, gcc -O2, callgrind, 5K elements; docs/workloads.md.
    // Lookups and failing updates take no lock there: all outside.
    MeasuredWork measured_work() const override {
        MeasuredWork w;
        w.lookup_hit = {138, 0};
        w.lookup_miss = {149, 0};
        w.insert_ok = {316, 73};
        w.insert_fail = {316, 0};
        w.remove_ok = {244, 61};
        w.remove_fail = {250, 0};
        return w;
    }

    void verify(Driver& d, CheckResult& r) override { read_back(d, r); }

private:
    void read_back(Driver& d, CheckResult& r) {
        std::set<uint64_t> in_memory;
        for (unsigned p = 0; p < units(); ++p)
            if (!verify_partition(d, p, in_memory, r)) return;
        m_log.check("skip_list", in_memory, r);
    }

    // A search's result, per level: the last node with a smaller key and the
    // first with a key at least the searched one (private: the core's stack).
    struct Window {
        std::vector<uint64_t> preds, succs;
    };

    static uint64_t next(unsigned level) { return kNext + uint64_t(level) * kWord; }

    std::mt19937_64 stream(unsigned core) const {
        std::seed_seq s{uint32_t(seed()), uint32_t(seed() >> 32), core, 0x736b6970u};
        return std::mt19937_64(s);
    }

    unsigned random_levels(std::mt19937_64& rng) const {
        unsigned levels = 1;
        while (levels < m_levels && (rng() & 1)) ++levels;
        return levels;
    }

    /// Herlihy et al.'s findNode: fills `w`, returns the highest level at
    /// which a node with `key` was found, or -1.
    int find(CoreApi& c, unsigned p, uint64_t key, Window& w) {
        w.preds.assign(m_levels, 0);
        w.succs.assign(m_levels, 0);
        int found = -1;
        uint64_t pred = m_head[p];
        for (int l = static_cast<int>(m_levels) - 1; l >= 0; --l) {
            uint64_t curr = c.load(pred + next(l), kWord);
            uint64_t curr_key = c.load(curr + kKey, kWord);
            while (key > curr_key) { // the tail's key stops every search
                pred = curr;
                curr = c.load(pred + next(l), kWord);
                curr_key = c.load(curr + kKey, kWord);
            }
            if (found == -1 && key == curr_key) found = l;
            w.preds[l] = pred;
            w.succs[l] = curr;
        }
        return found;
    }

    /// Locks preds[0..levels-1] (each distinct node once, level 0 first) and
    /// validates each against its successor; on failure releases them all.
    /// `succ_unmarked`: an insert also requires the successors unmarked.
    bool lock_predecessors(CoreApi& c, const Window& w, unsigned levels, uint64_t succ_of_all, bool succ_unmarked,
                           std::vector<SyncVar>& held, std::vector<uint64_t>& held_nodes) {
        held.clear();
        held_nodes.clear();
        bool valid = true;
        for (unsigned l = 0; valid && l < levels; ++l) {
            const uint64_t pred = w.preds[l];
            const uint64_t succ = succ_of_all ? succ_of_all : w.succs[l];
            // A node is the predecessor at several levels: lock it once.
            if (std::find(held_nodes.begin(), held_nodes.end(), pred) == held_nodes.end()) {
                const SyncVar lock = c.load(pred + kLock, kWord);
                c.lock_acquire(lock);
                held.push_back(lock);
                held_nodes.push_back(pred);
            }
            valid = c.load(pred + kMarked, kWord) == 0 && (!succ_unmarked || c.load(succ + kMarked, kWord) == 0) &&
                    c.load(pred + next(l), kWord) == succ;
        }
        if (!valid) release(c, held);
        return valid;
    }

    static void release(CoreApi& c, const std::vector<SyncVar>& held) {
        for (SyncVar lock : held) c.lock_release(lock);
    }

    /// After a failed validation, as ASCYLIB: once failures pile up, back
    /// off exponentially so that the update the validation waits for (a
    /// remove unlinking a marked node) gets the locks. Under an unfair lock
    /// (SynCron keeps a lock inside a unit while its cores ask for it) the
    /// retries of one unit could otherwise starve it forever.
    static void back_off(CoreApi& c, uint64_t& backoff) {
        if (backoff > kBackoffFrom) c.compute(std::min(backoff, kBackoffMax));
        backoff = std::min(backoff * 2, 2 * kBackoffMax);
    }

    bool lookup(CoreApi& c, uint64_t key) {
        // ASCYLIB's contains: walk down until a level holds the key.
        const uint64_t since = m_log.now();
        uint64_t pred = m_head[partition_of(key)], node = 0;
        for (int l = static_cast<int>(m_levels) - 1; l >= 0 && node == 0; --l) {
            uint64_t curr = c.load(pred + next(l), kWord);
            uint64_t curr_key = c.load(curr + kKey, kWord);
            while (key > curr_key) {
                pred = curr;
                curr = c.load(pred + next(l), kWord);
                curr_key = c.load(curr + kKey, kWord);
            }
            if (key == curr_key) node = curr;
        }
        const bool found = node != 0 && c.load(node + kMarked, kWord) == 0 && c.load(node + kFullyLinked, kWord) != 0;
        m_log.lookup(c.global_id(), key, found, since);
        return found;
    }

    bool insert(CoreApi& c, uint64_t key) {
        const unsigned p = partition_of(key);
        const unsigned me = c.global_id();
        const uint64_t since = m_log.now();
        const unsigned levels = random_levels(m_rng[me]);
        uint64_t backoff = 1;
        Window w;
        std::vector<SyncVar> held;
        std::vector<uint64_t> held_nodes;
        for (;;) {
            const int l = find(c, p, key, w);
            if (l >= 0) {
                const uint64_t found = w.succs[l];
                if (c.load(found + kMarked, kWord) != 0) continue;         // being removed: search again
                while (c.load(found + kFullyLinked, kWord) == 0) continue; // its insert is still linking it
                m_log.lookup(me, key, true, since);                        // present: fails without a change
                return false;
            }
            if (!lock_predecessors(c, w, levels, 0, true, held, held_nodes)) {
                back_off(c, backoff);
                continue;
            }
            const uint64_t node = m_pool[p].take();
            c.store(node + kKey, key, kWord);
            c.store(node + kLevels, levels, kWord);
            c.store(node + kMarked, 0, kWord);
            c.store(node + kFullyLinked, 0, kWord);
            c.store(node + kLock, m_spare_locks[p].at(m_spare_used[p]++), kWord);
            for (unsigned i = 0; i < levels; ++i) c.store(node + next(i), w.succs[i], kWord);
            for (unsigned i = 0; i < levels; ++i) c.store(w.preds[i] + next(i), node, kWord);
            m_log.insert(me, key, true);
            c.store(node + kFullyLinked, 1, kWord); // the linearization point
            work_inside(c, Op::insert, true);
            release(c, held);
            return true;
        }
    }

    bool remove(CoreApi& c, uint64_t key) {
        const unsigned p = partition_of(key);
        const unsigned me = c.global_id();
        const uint64_t since = m_log.now();
        Window w;
        std::vector<SyncVar> held;
        std::vector<uint64_t> held_nodes;
        uint64_t victim = 0;
        unsigned levels = 0;
        SyncVar victim_lock = 0;
        uint64_t backoff = 1;
        for (;;) {
            const int l = find(c, p, key, w);
            if (victim == 0) {
                // okToDelete: fully linked, found at its top level, unmarked.
                const bool deletable = l >= 0 && c.load(w.succs[l] + kFullyLinked, kWord) != 0 &&
                                       c.load(w.succs[l] + kLevels, kWord) == unsigned(l) + 1 &&
                                       c.load(w.succs[l] + kMarked, kWord) == 0;
                if (!deletable) {
                    m_log.lookup(me, key, false, since); // absent: fails without a change
                    return false;
                }
                victim = w.succs[l];
                levels = unsigned(l) + 1;
                victim_lock = c.load(victim + kLock, kWord);
                c.lock_acquire(victim_lock);
                if (c.load(victim + kMarked, kWord) != 0) {
                    // Another remove got it first, maybe long enough ago that
                    // the key was inserted again: the key was absent at some
                    // moment of this remove, not necessarily now.
                    m_log.lookup(me, key, false, since);
                    c.lock_release(victim_lock);
                    return false;
                }
                m_log.remove(me, key, true);
                c.store(victim + kMarked, 1, kWord); // the linearization point
            }
            if (!lock_predecessors(c, w, levels, victim, false, held, held_nodes)) {
                back_off(c, backoff);
                continue;
            }
            for (unsigned i = levels; i-- > 0;) c.store(w.preds[i] + next(i), c.load(victim + next(i), kWord), kWord);
            work_inside(c, Op::remove, true);
            c.lock_release(victim_lock);
            release(c, held);
            return true;
        }
    }

    bool verify_partition(Driver& d, unsigned p, std::set<uint64_t>& in_memory, CheckResult& r) {
        const std::string where = "skip_list: partition " + std::to_string(p);
        const uint64_t limit = m_pool[p].used();
        // Level 0 holds every node in key order; level l must hold exactly
        // those of them with more than l levels, in the same order.
        std::vector<uint64_t> order;
        std::vector<unsigned> node_levels;
        uint64_t prev_key = 0;
        for (uint64_t node = d.read(m_head[p] + next(0), kWord); node != m_tail[p];
             node = d.read(node + next(0), kWord)) {
            if (node == 0) {
                r.fail(where + ": level 0 ends (null next) before the tail sentinel");
                return false;
            }
            if (order.size() >= limit) {
                r.fail(where + ": level 0 is longer than the nodes ever allocated (a cycle)");
                return false;
            }
            const uint64_t k = d.read(node + kKey, kWord);
            const uint64_t levels = d.read(node + kLevels, kWord);
            const std::string what = where + ": the node of key " + std::to_string(k);
            if (k <= prev_key) {
                r.fail(where + ": key " + std::to_string(k) + " follows key " + std::to_string(prev_key) +
                       " at level 0 (not strictly ascending)");
                return false;
            }
            if (k > key_range() || partition_of(k) != p) {
                r.fail(where + " holds key " + std::to_string(k) + ", which belongs to no key range of it");
                return false;
            }
            if (levels < 1 || levels > m_levels) {
                r.fail(what + " has " + std::to_string(levels) + " levels (1.." + std::to_string(m_levels) + ")");
                return false;
            }
            if (d.read(node + kMarked, kWord) != 0 || d.read(node + kFullyLinked, kWord) != 1) {
                r.fail(what + " is still linked but marked, or not fully linked, after the run");
                return false;
            }
            prev_key = k;
            order.push_back(node);
            node_levels.push_back(static_cast<unsigned>(levels));
            in_memory.insert(k);
        }
        for (unsigned l = 1; l < m_levels; ++l) {
            uint64_t node = d.read(m_head[p] + next(l), kWord);
            for (size_t i = 0; i < order.size(); ++i) {
                if (node_levels[i] <= l) continue;
                if (node != order[i]) {
                    r.fail(where + ": level " + std::to_string(l) + " does not link the node of key " +
                           std::to_string(d.read(order[i] + kKey, kWord)) + " where level 0 has it");
                    return false;
                }
                node = d.read(node + next(l), kWord);
            }
            if (node != m_tail[p]) {
                r.fail(where + ": level " + std::to_string(l) +
                       " links a node that level 0 does not have, or misses its tail");
                return false;
            }
        }
        return true;
    }

    unsigned m_levels = 1;
    uint64_t m_node_bytes = 0;
    std::vector<uint64_t> m_head, m_tail;
    std::vector<NodePool> m_pool;
    std::vector<std::vector<SyncVar>> m_spare_locks;
    std::vector<uint64_t> m_spare_used;
    std::vector<std::mt19937_64> m_rng; // per core: the levels of its inserts
    SetLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_skip_list(const WorkloadParams& p) { return std::make_unique<SkipList>(p); }

} // namespace syncron

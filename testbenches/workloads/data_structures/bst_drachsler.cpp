// Logical-ordering BST (paper Table 6: 10K elements, 100% deletion): the
// internal binary search tree of Drachsler, Vechev and Yahav, "Practical
// Concurrent Binary Search Trees via Logical Ordering" (PPoPP 2014), without
// rebalancing, as ASCYLIB's bst-drachsler. Every node holds key, left, right,
// parent, pred, succ, a mark bit and two locks: the succ lock guards the
// interval (node, succ) of the logical ordering, the tree lock the node's
// place in the physical layout. The ordering runs from the sentinel -inf to
// the sentinel +inf (the root).
//  - contains takes no lock: it descends the tree, walks pred/succ to the
//    key's interval and checks the mark.
//  - insert and delete first make the walk contains makes; an insert that
//    reads the key present, or a delete that reads it absent, returns false
//    without a lock, as ASCYLIB's default build (DRACHSLER_RO_FAIL=1) does.
//  - insert locks the succ lock of the key's predecessor p (validates that the
//    key is in (p, p.succ] and p unmarked), links the node into the ordering,
//    and hangs it under p (free right child) or p.succ (free left child),
//    whichever tree lock it takes finds the slot free.
//  - delete locks the succ locks of the predecessor and of the node, then the
//    tree locks of the node and its parent and, when the node has two
//    children, of its successor (which takes its place) and the successor's
//    parent: 4 to 6 locks, as ASCYLIB. The child that moves up (the node's
//    only child, the successor's right child) is not locked: a node's parent
//    pointer is written only under the tree lock of the parent it points to,
//    which the delete holds. It marks the node and unlinks it from the
//    ordering, then from the tree.
// Two departures from the published code, same lock set:
//  - The authors' code (and ASCYLIB's) takes the tree locks below the node
//    with try-lock and backs off; Table 2 has no try-lock, so a delete reads
//    which nodes it needs, locks them in address order and checks they are
//    still the ones it needs (else unlocks and retries). Deadlock-free: succ
//    locks are taken in key order before any tree lock, an insert holds one
//    tree lock at a time.
//  - The published contains stops at the first node holding the key; that
//    node may have been removed (marked) and the key inserted again while
//    the remover still had the node in the tree, and the lookup then answers
//    false for a key present throughout (the functional check catches it,
//    e.g. --seed 6 --ops 100 with 32 elements and 50% updates). Here
//    contains decides only through the succ pointer of a node below the key
//    whose mark it read clear, stepping back (pred) over marked nodes: that
//    succ was the node's successor in the ordering at some moment of the
//    lookup. The lock-free refusal of an insert or delete uses this walk.
//
// One tree for the whole system (not partitioned): nodes are allocated
// round-robin over the units, both locks of a node homed in its unit. The
// descent costs 2 loads per level. A failed insert or delete adds the walk
// (4 to 6 loads) and no synchronization request; a successful insert about
// 10 loads, 9 stores and 4 requests; a successful delete 15 to 25 loads, 4 to
// 10 stores and 8 to 12 requests (docs/workloads.md has the default mix's
// measured costs).
#include <algorithm>
#include <array>
#include <limits>
#include <set>
#include <stdexcept>

#include "testbenches/workloads/data_structures/data_structures.h"
#include "testbenches/workloads/data_structures/ds_workload.h"
#include "testbenches/workloads/data_structures/node_pool.h"
#include "testbenches/workloads/data_structures/set_log.h"

namespace syncron {
namespace {

constexpr unsigned kWord = 8;
// Node: key, left, right, parent, pred, succ, mark, succ lock, tree lock.
constexpr uint64_t kKey = 0, kLeft = 8, kRight = 16, kParent = 24, kPred = 32, kSucc = 40, kMark = 48, kSuccLock = 56,
                   kTreeLock = 64, kNodeBytes = 72;
// Sentinel keys; the keys of the run are in [1, 2^41].
constexpr uint64_t kMinKey = 0, kMaxKey = std::numeric_limits<uint64_t>::max();

// Nodes spread round-robin over the units, one pool per unit, with each
// pool slot's two locks created in build() in the slot's unit (a core cannot
// create a synchronization variable).
class SpreadNodes {
public:
    struct Node {
        uint64_t addr;
        SyncVar succ_lock, tree_lock;
    };
    void reserve(Driver& d, uint64_t count, const std::string& what) {
        const unsigned units = d.units();
        m_pool.assign(units, NodePool{});
        m_locks.assign(units, {});
        m_next = 0;
        for (unsigned u = 0; u < units; ++u) {
            const uint64_t mine = count / units + (u < count % units ? 1 : 0);
            m_pool[u].reserve(d, u, mine, kNodeBytes, what);
            m_locks[u].reserve(2 * mine);
            try {
                for (uint64_t i = 0; i < 2 * mine; ++i) m_locks[u].push_back(d.create_syncvar(u));
            } catch (const std::exception& e) {
                throw std::invalid_argument(what + ": the locks of " + std::to_string(mine) +
                                            " nodes do not fit in unit " + std::to_string(u) + "'s memory (" +
                                            e.what() + "); use a smaller workload.elements or workload.ops");
            }
        }
    }
    Node take() {
        const unsigned u = static_cast<unsigned>(m_next++ % m_pool.size());
        const uint64_t i = m_pool[u].used();
        const uint64_t addr = m_pool[u].take();
        return Node{addr, m_locks[u][2 * i], m_locks[u][2 * i + 1]};
    }
    uint64_t used() const { return m_next; }

private:
    std::vector<NodePool> m_pool;
    std::vector<std::vector<SyncVar>> m_locks;
    uint64_t m_next = 0;
};

class BstDrachsler final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override {
        // the node and its two locks (a syncronVar takes a line)
        return kNodeBytes + 2 * uint64_t{64};
    }
    void build(Driver& d) override {
        // The sentinels, the keys and one node per insert; reserved before
        // the keys are drawn: a size that does not fit fails at once.
        m_nodes.reserve(d, elements() + 2 + max_inserts(), "workload bst_drachsler");
        const std::vector<uint64_t> keys = initial_keys();
        const auto node = [&](uint64_t key) {
            const SpreadNodes::Node n = m_nodes.take();
            d.write(n.addr + kKey, key, kWord);
            d.write(n.addr + kSuccLock, n.succ_lock, kWord);
            d.write(n.addr + kTreeLock, n.tree_lock, kWord);
            return n.addr;
        };
        const uint64_t min = node(kMinKey);
        m_root = node(kMaxKey);
        d.write(min + kRight, m_root, kWord);
        d.write(m_root + kParent, min, kWord);
        // Balanced over the sorted keys, below the root's left.
        std::vector<uint64_t> addr(keys.size());
        const auto subtree = [&](const auto& self, size_t lo, size_t hi, uint64_t parent) -> uint64_t {
            if (lo == hi) return 0;
            const size_t mid = lo + (hi - lo) / 2;
            const uint64_t n = node(keys[mid]);
            addr[mid] = n;
            d.write(n + kParent, parent, kWord);
            d.write(n + kLeft, self(self, lo, mid, n), kWord);
            d.write(n + kRight, self(self, mid + 1, hi, n), kWord);
            return n;
        };
        d.write(m_root + kLeft, subtree(subtree, 0, keys.size(), m_root), kWord);
        // The logical ordering: -inf, the keys in order, +inf.
        uint64_t prev = min;
        addr.push_back(m_root);
        for (uint64_t n : addr) {
            d.write(prev + kSucc, n, kWord);
            d.write(n + kPred, prev, kWord);
            prev = n;
        }
        m_min = min;
        m_log.start(std::set<uint64_t>(keys.begin(), keys.end()));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        uint64_t steps = 0;
        if (op == Op::lookup) return contains(c, key, steps);
        return op == Op::insert ? insert(c, key, steps) : remove(c, key, steps);
    }

    // The cited code's work per operation besides loads and stores,
    // {outside, inside} its locks (workload.op_work=measured): ASCYLIB
    // 3c2d1a2 `src/bst-drachsler`, gcc -O2, callgrind, 10K elements; docs/workloads.md.
    // Lookups and failing updates take no lock there: all outside.
    MeasuredWork measured_work() const override {
        MeasuredWork w;
        w.lookup_hit = {103, 0};
        w.lookup_miss = {114, 0};
        w.insert_ok = {104, 42};
        w.insert_fail = {109, 0};
        w.remove_ok = {87, 44};
        w.remove_fail = {120, 0};
        return w;
    }

    void verify(Driver& d, CheckResult& r) override {
        const auto fail = [&](const std::string& why) { r.fail("bst_drachsler: " + why); };
        const auto rd = [&](uint64_t node, uint64_t field) { return d.read(node + field, kWord); };
        if (rd(m_min, kKey) != kMinKey || rd(m_min, kRight) != m_root || rd(m_min, kLeft) != 0 ||
            rd(m_root, kKey) != kMaxKey || rd(m_root, kParent) != m_min || rd(m_root, kRight) != 0)
            return fail("the sentinels -inf and +inf lost their places");
        const uint64_t limit = m_nodes.used();
        // The physical tree below +inf: bounds, parent pointers, no mark.
        struct Item {
            uint64_t node, parent, lo, hi;
        };
        std::vector<Item> todo;
        if (rd(m_root, kLeft) != 0) todo.push_back({rd(m_root, kLeft), m_root, kMinKey, kMaxKey});
        std::set<uint64_t> in_tree;
        uint64_t visited = 0;
        while (!todo.empty()) {
            const Item it = todo.back();
            todo.pop_back();
            if (++visited > limit) return fail("the tree has more nodes than were ever allocated (a cycle)");
            const uint64_t key = rd(it.node, kKey);
            const std::string k = "node " + std::to_string(key);
            if (key <= it.lo || key >= it.hi)
                return fail(k + " lies outside its subtree's range (" + std::to_string(it.lo) + ", " +
                            std::to_string(it.hi) + ")");
            if (rd(it.node, kParent) != it.parent) return fail(k + ": its parent pointer is not its parent");
            if (rd(it.node, kMark) != 0) return fail(k + " is marked deleted but still in the tree");
            if (!in_tree.insert(key).second) return fail(k + " is in the tree twice");
            if (rd(it.node, kLeft) != 0) todo.push_back({rd(it.node, kLeft), it.node, it.lo, key});
            if (rd(it.node, kRight) != 0) todo.push_back({rd(it.node, kRight), it.node, key, it.hi});
        }
        // The logical ordering: ascending, pred pointers back, no mark, the
        // same keys as the tree.
        std::set<uint64_t> in_order;
        uint64_t prev = m_min;
        for (uint64_t n = rd(m_min, kSucc);; n = rd(n, kSucc)) {
            if (n == 0) return fail("the succ chain ends before +inf");
            if (in_order.size() > limit) return fail("the succ chain is longer than the nodes ever allocated");
            if (rd(n, kPred) != prev)
                return fail("node " + std::to_string(rd(n, kKey)) + ": pred is not its predecessor");
            if (rd(n, kKey) <= rd(prev, kKey))
                return fail("the succ chain is not ascending at " + std::to_string(rd(n, kKey)));
            if (n == m_root) break;
            if (rd(n, kMark) != 0)
                return fail("node " + std::to_string(rd(n, kKey)) + " is marked but in the succ chain");
            in_order.insert(rd(n, kKey));
            prev = n;
        }
        if (in_order != in_tree)
            return fail("the succ chain holds " + std::to_string(in_order.size()) + " keys, the tree " +
                        std::to_string(in_tree.size()));
        m_log.check("bst_drachsler", in_tree, r);
    }

private:
    uint64_t ld(CoreApi& c, uint64_t node, uint64_t field) { return c.load(node + field, kWord); }
    void st(CoreApi& c, uint64_t node, uint64_t field, uint64_t v) { c.store(node + field, v, kWord); }
    /// Locks the node's lock `field` (the handle is loaded from the node);
    /// returns the handle, which the core keeps for the release.
    SyncVar lock(CoreApi& c, uint64_t node, uint64_t field) {
        const SyncVar l = ld(c, node, field);
        c.lock_acquire(l);
        return l;
    }

    /// Counts a step of an operation (a node visited, a retry). Far more
    /// steps than nodes means looping on a corrupt structure (a cycle, a lost
    /// update), not waiting out contention: fail the run rather than spin.
    void step(uint64_t& steps, uint64_t key) const {
        const uint64_t limit = 1000 * (m_nodes.used() + 64);
        if (++steps > limit)
            throw std::runtime_error("bst_drachsler: an operation on key " + std::to_string(key) + " took more than " +
                                     std::to_string(limit) +
                                     " steps (nodes visited and retries): the structure is corrupt");
    }

    struct Found {
        uint64_t node, key;
    };
    /// The tree descent: the node holding `key`, or the last node on its path.
    Found search(CoreApi& c, uint64_t key, uint64_t& steps) {
        uint64_t n = m_root;
        for (;;) {
            step(steps, key);
            const uint64_t k = ld(c, n, kKey);
            if (k == key) return {n, k};
            const uint64_t child = ld(c, n, k < key ? kRight : kLeft);
            if (child == 0) return {n, k};
            n = child;
        }
    }

    bool contains(CoreApi& c, uint64_t key, uint64_t& steps) {
        const uint64_t since = m_log.now();
        const bool found = present(c, key, search(c, key, steps), steps);
        m_log.lookup(c.global_id(), key, found, since);
        return found;
    }

    /// The lock-free walk from the descent's end: whether `key` is in the set
    /// at some moment of the walk.
    bool present(CoreApi& c, uint64_t key, Found f, uint64_t& steps) {
        uint64_t n = f.node, k = f.key;
        for (;;) {
            // Back to a node below the key whose mark reads clear: the succ
            // read next was its successor in the ordering at some moment
            // between the two reads (succ changes only while the node is
            // unmarked, and a marked node keeps the succ it had). A marked
            // node's pred is the node before it when it was removed.
            while (k >= key) {
                step(steps, key);
                n = ld(c, n, kPred);
                k = ld(c, n, kKey);
            }
            if (ld(c, n, kMark) != 0) {
                k = key; // step back over it
                continue;
            }
            step(steps, key);
            const uint64_t next = ld(c, n, kSucc);
            const uint64_t next_key = ld(c, next, kKey);
            if (next_key < key) {
                n = next;
                k = next_key;
                continue;
            }
            return next_key == key && ld(c, next, kMark) == 0;
        }
    }

    /// The key's interval (p, s] in the ordering, with p's succ lock held;
    /// retries while p is marked or the interval moved. Before each try the
    /// lock-free walk: when it reads the key's presence other than `proceed_if`
    /// the update fails without a lock (`refused`; nothing held).
    struct Interval {
        uint64_t first, p, s, s_key;
        SyncVar p_lock;
        bool refused;
    };
    Interval lock_interval(CoreApi& c, uint64_t key, bool proceed_if, uint64_t& steps) {
        for (;;) {
            const uint64_t since = m_log.now();
            const Found f = search(c, key, steps);
            if (present(c, key, f, steps) != proceed_if) {
                if (proceed_if)
                    m_log.remove_refused(c.global_id(), key, since);
                else
                    m_log.insert_refused(c.global_id(), key, since);
                return Interval{0, 0, 0, 0, 0, true};
            }
            const uint64_t p = f.key >= key ? ld(c, f.node, kPred) : f.node;
            const SyncVar p_lock = lock(c, p, kSuccLock);
            const uint64_t s = ld(c, p, kSucc);
            const uint64_t p_key = p == f.node ? f.key : ld(c, p, kKey);
            if (p_key < key && ld(c, p, kMark) == 0) {
                const uint64_t s_key = ld(c, s, kKey);
                if (key <= s_key) return {f.node, p, s, s_key, p_lock, false};
            }
            c.lock_release(p_lock);
        }
    }

    bool insert(CoreApi& c, uint64_t key, uint64_t& steps) {
        const Interval iv = lock_interval(c, key, false, steps);
        if (iv.refused) return false;
        const uint64_t p = iv.p, s = iv.s;
        if (iv.s_key == key) { // inserted since the walk
            m_log.insert(c.global_id(), key, false);
            c.lock_release(iv.p_lock);
            return false;
        }
        // The parent: p if its right child is free, else s (whose left child
        // then is); the tree lock is taken before looking.
        uint64_t parent = iv.first == p || iv.first == s ? iv.first : p;
        SyncVar parent_lock = 0;
        for (;;) {
            step(steps, key);
            parent_lock = lock(c, parent, kTreeLock);
            if (ld(c, parent, parent == p ? kRight : kLeft) == 0) break;
            c.lock_release(parent_lock);
            parent = parent == p ? s : p;
        }
        const SpreadNodes::Node n = m_nodes.take(); // private until linked
        st(c, n.addr, kKey, key);
        st(c, n.addr, kSuccLock, n.succ_lock);
        st(c, n.addr, kTreeLock, n.tree_lock);
        st(c, n.addr, kPred, p);
        st(c, n.addr, kSucc, s);
        st(c, n.addr, kParent, parent);
        st(c, s, kPred, n.addr);
        // The linearization point (lookups decide through succ pointers).
        // Logged just before the store: in LT the store takes effect within
        // the call, before any other core runs; logged after it, a lookup
        // could read the new node and log while this core waits for the
        // store's acknowledgement.
        m_log.insert(c.global_id(), key, true);
        st(c, p, kSucc, n.addr);
        work_inside(c, Op::insert, true);
        c.lock_release(iv.p_lock);
        st(c, parent, parent == p ? kRight : kLeft, n.addr);
        c.lock_release(parent_lock);
        return true;
    }

    /// The tree locks a delete of `n` needs, held: n and its parent, and
    /// with two children the successor and its parent.
    struct TreeLocks {
        std::array<uint64_t, 4> nodes{};
        std::array<SyncVar, 4> locks{};
        unsigned count = 0;
        uint64_t parent = 0, left = 0, right = 0;           // n's
        uint64_t succ = 0, succ_parent = 0, succ_right = 0; // with two children
    };
    void unlock_all(CoreApi& c, const TreeLocks& t) {
        for (unsigned i = t.count; i-- > 0;) c.lock_release(t.locks[i]);
    }
    TreeLocks lock_tree(CoreApi& c, uint64_t n, uint64_t key, uint64_t& steps) {
        for (;;) {
            step(steps, key);
            TreeLocks t;
            t.parent = ld(c, n, kParent);
            t.left = ld(c, n, kLeft);
            t.right = ld(c, n, kRight);
            const auto add = [&](uint64_t x) {
                if (x != 0 && std::find(t.nodes.begin(), t.nodes.begin() + t.count, x) == t.nodes.begin() + t.count)
                    t.nodes[t.count++] = x;
            };
            add(n);
            add(t.parent);
            if (t.left != 0 && t.right != 0) {
                t.succ = ld(c, n, kSucc); // fixed: n's succ lock is held
                t.succ_parent = ld(c, t.succ, kParent);
                t.succ_right = ld(c, t.succ, kRight);
                add(t.succ);
                add(t.succ_parent);
            }
            std::sort(t.nodes.begin(), t.nodes.begin() + t.count); // one global order: no deadlock
            for (unsigned i = 0; i < t.count; ++i) t.locks[i] = lock(c, t.nodes[i], kTreeLock);
            // Still the same neighbourhood? (Each of these fields changes only
            // under a tree lock now held: a node's children under its own, its
            // parent pointer under its parent's.)
            bool same = ld(c, n, kParent) == t.parent && ld(c, t.parent, kMark) == 0 && ld(c, n, kLeft) == t.left &&
                        ld(c, n, kRight) == t.right;
            if (same && t.succ != 0)
                same = ld(c, t.succ, kParent) == t.succ_parent && ld(c, t.succ, kRight) == t.succ_right &&
                       ld(c, t.succ, kLeft) == 0;
            if (same) return t;
            unlock_all(c, t);
        }
    }

    /// Makes `child` take `old`'s place under `parent`.
    void replace_child(CoreApi& c, uint64_t parent, uint64_t old, uint64_t child) {
        st(c, parent, ld(c, parent, kLeft) == old ? kLeft : kRight, child);
        if (child != 0) st(c, child, kParent, parent);
    }

    bool remove(CoreApi& c, uint64_t key, uint64_t& steps) {
        const Interval iv = lock_interval(c, key, true, steps);
        if (iv.refused) return false;
        const uint64_t p = iv.p, n = iv.s;
        if (iv.s_key != key) { // removed since the walk
            m_log.remove(c.global_id(), key, false);
            c.lock_release(iv.p_lock);
            return false;
        }
        const SyncVar n_lock = lock(c, n, kSuccLock);
        const TreeLocks t = lock_tree(c, n, key, steps);
        m_log.remove(c.global_id(), key, true); // just before the linearization point, as in insert
        st(c, n, kMark, 1);
        const uint64_t next = ld(c, n, kSucc);
        st(c, next, kPred, p);
        st(c, p, kSucc, next);
        work_inside(c, Op::remove, true);
        c.lock_release(n_lock);
        c.lock_release(iv.p_lock);
        if (t.succ == 0) {
            replace_child(c, t.parent, n, t.left != 0 ? t.left : t.right);
        } else {
            // n's successor y (no left child) leaves its place to its right
            // child and takes n's.
            const uint64_t y = t.succ;
            replace_child(c, t.succ_parent, y, t.succ_right);
            const uint64_t right = t.succ_parent == n ? t.succ_right : t.right;
            st(c, y, kLeft, t.left);
            st(c, y, kRight, right);
            st(c, t.left, kParent, y);
            if (right != 0) st(c, right, kParent, y);
            replace_child(c, t.parent, n, y);
        }
        unlock_all(c, t);
        return true;
    }

    SpreadNodes m_nodes;
    uint64_t m_root = 0, m_min = 0; // the sentinels +inf (the root) and -inf
    SetLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_bst_drachsler(const WorkloadParams& p) { return std::make_unique<BstDrachsler>(p); }

} // namespace syncron

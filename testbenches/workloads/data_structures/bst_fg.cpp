// Fine-grained BST (paper Table 6: 20K elements, 100% lookup): an external
// (leaf-oriented) binary search tree with one lock per node and hand-over-hand
// lock coupling for every operation, lookups included: the textbook
// fine-grained scheme (Herlihy & Shavit, "The Art of Multiprocessor
// Programming", ch. 9, applied to a tree), in the spirit of ASCYLIB's
// lock-based external trees. Internal nodes route (a key below the node's key
// goes left), leaves hold the keys. A descent locks the child before it
// releases what it no longer needs: lookups and inserts keep the parent and
// the node (2 locks), deletes the grandparent, the parent and the node (3).
// An insert replaces the leaf by an internal node with the old and a new leaf
// as children; a delete replaces the parent by the leaf's sibling. The root
// is a sentinel internal node (key inf2) whose right child is the leaf inf2
// and whose left subtree always holds the leaf inf1, so a key's leaf always
// has a parent and a grandparent.
//
// One tree for the whole system (not partitioned): nodes are allocated
// round-robin over the units, each node's lock homed in its unit. Each node
// visited costs 3 loads (lock handle, key, child) and 2 synchronization
// requests (acquire, release); an operation on the default 20K-key tree
// visits about 16 nodes: 49 loads and 33 requests. A successful insert adds 7
// stores, a successful delete 1 load and 1 store.
#include <algorithm>
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
// Node: key, left, right (both 0 in a leaf), lock handle.
constexpr uint64_t kKey = 0, kLeft = 8, kRight = 16, kLock = 24, kNodeBytes = 32;
// Sentinel keys, above every key of the run (keys are at most 2^41).
constexpr uint64_t kInf1 = std::numeric_limits<uint64_t>::max() - 1, kInf2 = std::numeric_limits<uint64_t>::max();

// Nodes spread round-robin over the units, one pool per unit, with each
// pool slot's lock created in build() in the slot's unit (a core cannot
// create a synchronization variable).
class SpreadNodes {
public:
    struct Node {
        uint64_t addr;
        SyncVar lock;
    };
    void reserve(Driver& d, uint64_t count, const std::string& what) {
        const unsigned units = d.units();
        m_pool.assign(units, NodePool{});
        m_locks.assign(units, {});
        m_next = 0;
        for (unsigned u = 0; u < units; ++u) {
            const uint64_t mine = count / units + (u < count % units ? 1 : 0);
            m_pool[u].reserve(d, u, mine, kNodeBytes, what);
            m_locks[u].reserve(mine);
            try {
                for (uint64_t i = 0; i < mine; ++i) m_locks[u].push_back(d.create_syncvar(u));
            } catch (const std::exception& e) {
                throw std::invalid_argument(what + ": the locks of " + std::to_string(mine) +
                                            " nodes do not fit in unit " + std::to_string(u) + "'s memory (" +
                                            e.what() + "); use a smaller workload.elements or workload.ops");
            }
        }
    }
    Node take() {
        const unsigned u = static_cast<unsigned>(m_next++ % m_pool.size());
        const SyncVar lock = m_locks[u].at(m_pool[u].used());
        return Node{m_pool[u].take(), lock};
    }
    uint64_t used() const { return m_next; }

private:
    std::vector<NodePool> m_pool;
    std::vector<std::vector<SyncVar>> m_locks;
    uint64_t m_next = 0;
};

class BstFg final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override {
        // an internal node and a leaf per key, each with its lock (a syncronVar takes a line)
        return 2 * (kNodeBytes + 64);
    }
    void build(Driver& d) override {
        // The leaves (keys and inf1), their internal nodes, the root and the
        // leaf inf2; an insert adds an internal node and a leaf. Reserved
        // before the keys are drawn: a size that does not fit fails at once.
        const uint64_t initial = 2 * (elements() + 1) - 1 + 2;
        m_nodes.reserve(d, initial + 2 * max_inserts(), "workload bst_fg");
        const std::vector<uint64_t> keys = initial_keys();
        std::vector<uint64_t> leaves = keys;
        leaves.push_back(kInf1);
        const auto node = [&](uint64_t key, uint64_t left, uint64_t right) {
            const SpreadNodes::Node n = m_nodes.take();
            d.write(n.addr + kKey, key, kWord);
            d.write(n.addr + kLeft, left, kWord);
            d.write(n.addr + kRight, right, kWord);
            d.write(n.addr + kLock, n.lock, kWord);
            return n.addr;
        };
        // Balanced over the sorted leaves: an internal node's key is the
        // smallest key of its right subtree.
        const auto subtree = [&](const auto& self, size_t lo, size_t hi) -> uint64_t {
            if (hi - lo == 1) return node(leaves[lo], 0, 0);
            const size_t mid = lo + (hi - lo) / 2;
            const uint64_t left = self(self, lo, mid);
            const uint64_t right = self(self, mid, hi);
            return node(leaves[mid], left, right);
        };
        const uint64_t left = subtree(subtree, 0, leaves.size());
        m_root = node(kInf2, left, node(kInf2, 0, 0));
        m_log.start(std::set<uint64_t>(keys.begin(), keys.end()));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        const unsigned me = c.global_id();
        // The window of locked nodes: grandparent (deletes only), parent, node.
        uint64_t gp = 0, p = 0, n = m_root;
        SyncVar gp_lock = 0, p_lock = 0, n_lock = c.load(n + kLock, kWord);
        bool gp_left = false, p_left = false; // which child of its parent p (n) is
        c.lock_acquire(n_lock);
        uint64_t n_key = 0;
        for (uint64_t depth = 0;; ++depth) {
            if (depth > m_nodes.used()) // never on a tree: fail rather than loop on a cycle
                throw std::runtime_error("bst_fg: the descent for key " + std::to_string(key) +
                                         " visited more nodes than were ever allocated: the tree has a cycle");
            n_key = c.load(n + kKey, kWord);
            const bool go_left = key < n_key;
            const uint64_t next = c.load(n + (go_left ? kLeft : kRight), kWord);
            if (next == 0) break; // n is a leaf
            const SyncVar next_lock = c.load(next + kLock, kWord);
            c.lock_acquire(next_lock); // coupling: the child before letting go above
            if (op == Op::remove) {
                if (gp != 0) c.lock_release(gp_lock);
                gp = p;
                gp_lock = p_lock;
                gp_left = p_left;
            } else if (p != 0) {
                c.lock_release(p_lock);
            }
            p = n;
            p_lock = n_lock;
            p_left = go_left;
            n = next;
            n_lock = next_lock;
        }
        // p is the root's descendant or the root: every leaf has a parent.
        bool ok = false;
        if (op == Op::lookup) {
            c.lock_release(p_lock);
            ok = n_key == key;
            m_log.lookup(me, key, ok, m_log.now()); // exact: under the leaf's lock
        } else if (op == Op::insert) {
            ok = n_key != key;
            if (ok) {
                // The new nodes are private until the parent points to them.
                const SpreadNodes::Node leaf = m_nodes.take();
                const SpreadNodes::Node inner = m_nodes.take();
                c.store(leaf.addr + kKey, key, kWord);
                c.store(leaf.addr + kLock, leaf.lock, kWord);
                const bool new_left = key < n_key;
                c.store(inner.addr + kKey, std::max(key, n_key), kWord);
                c.store(inner.addr + kLeft, new_left ? leaf.addr : n, kWord);
                c.store(inner.addr + kRight, new_left ? n : leaf.addr, kWord);
                c.store(inner.addr + kLock, inner.lock, kWord);
                c.store(p + (p_left ? kLeft : kRight), inner.addr, kWord);
            }
            m_log.insert(me, key, ok);
            c.lock_release(p_lock);
        } else {
            ok = n_key == key && gp != 0;
            if (ok) {
                const uint64_t sibling = c.load(p + (p_left ? kRight : kLeft), kWord);
                c.store(gp + (gp_left ? kLeft : kRight), sibling, kWord);
            }
            m_log.remove(me, key, ok);
            if (gp != 0) c.lock_release(gp_lock);
            c.lock_release(p_lock);
        }
        c.lock_release(n_lock);
        return ok;
    }

    void verify(Driver& d, CheckResult& r) override {
        const auto fail = [&](const std::string& why) { r.fail("bst_fg: " + why); };
        if (d.read(m_root + kKey, kWord) != kInf2) return fail("the root's key changed");
        const uint64_t right = d.read(m_root + kRight, kWord);
        if (right == 0 || d.read(right + kKey, kWord) != kInf2 || d.read(right + kLeft, kWord) != 0 ||
            d.read(right + kRight, kWord) != 0)
            return fail("the root's right child is not the leaf inf2");
        // Walk the left subtree with explicit bounds: every key in [lo, hi).
        struct Item {
            uint64_t node, lo, hi;
        };
        std::vector<Item> todo{{d.read(m_root + kLeft, kWord), 0, kInf2}};
        std::set<uint64_t> in_memory;
        bool inf1 = false;
        uint64_t visited = 0;
        while (!todo.empty()) {
            const Item it = todo.back();
            todo.pop_back();
            if (it.node == 0) return fail("an internal node has a null child");
            if (++visited > m_nodes.used()) return fail("the tree has more nodes than were ever allocated (a cycle)");
            const uint64_t key = d.read(it.node + kKey, kWord);
            const uint64_t left = d.read(it.node + kLeft, kWord), right = d.read(it.node + kRight, kWord);
            if (key < it.lo || key >= it.hi)
                return fail("key " + std::to_string(key) + " lies outside its subtree's range [" +
                            std::to_string(it.lo) + ", " + std::to_string(it.hi) + ")");
            if (d.read(it.node + kLock, kWord) == 0) return fail("a node without a lock");
            if (left == 0 && right == 0) {
                if (key == kInf1)
                    inf1 = true;
                else if (!in_memory.insert(key).second)
                    return fail("key " + std::to_string(key) + " is in two leaves");
                continue;
            }
            if (left == 0 || right == 0) return fail("internal node " + std::to_string(key) + " has one child");
            todo.push_back({left, it.lo, key});
            todo.push_back({right, key, it.hi});
        }
        if (!inf1) return fail("the leaf inf1 is missing");
        m_log.check("bst_fg", in_memory, r);
    }

private:
    SpreadNodes m_nodes;
    uint64_t m_root = 0;
    SetLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_bst_fg(const WorkloadParams& p) { return std::make_unique<BstFg>(p); }

} // namespace syncron

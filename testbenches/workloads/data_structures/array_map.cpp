// Array map (paper Table 6: 10 elements, 100% lookup): per unit, an unsorted
// array of (key, value) slots with a count behind one coarse-grained lock, as
// ASCYLIB's lock-based array map. A lookup scans the slots linearly; an
// insert scans and, if the key is absent, appends a slot; a remove scans and
// moves the last slot into the hole. The map of a unit (count, slots) lives
// in that unit's memory and its lock is homed there; an operation goes to the
// map of its key's partition, so 1/units of them are local (Table 6's 10
// elements over 4 units leave 2-3 keys per map). Per lookup of a map of n
// keys: 1 + (keys scanned) loads, +1 load of the value when found, 2
// synchronization requests; an insert adds 3 stores, a remove 2 loads and 3
// stores (docs/workloads.md).
#include <set>
#include <stdexcept>

#include "testbenches/workloads/data_structures/data_structures.h"
#include "testbenches/workloads/data_structures/ds_workload.h"
#include "testbenches/workloads/data_structures/set_log.h"

namespace syncron {
namespace {

constexpr unsigned kWord = 8;
// Partition: count, then slots of (key, value).
constexpr uint64_t kCount = 0, kSlots = 8, kKey = 0, kValue = 8, kSlotBytes = 16;

/// The value stored with a key: not the key itself, so verify notices a key
/// moved without its value.
uint64_t value_of(uint64_t key) { return ~key; }

class ArrayMap final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override { return kSlotBytes; }
    void build(Driver& d) override {
        m_map.assign(units(), 0);
        m_lock.assign(units(), 0);
        m_capacity.assign(units(), 0);
        m_wrong_values = 0;
        const std::vector<uint64_t> keys = initial_keys();
        std::vector<std::vector<uint64_t>> initial(units());
        for (uint64_t k : keys) initial[partition_of(k)].push_back(k);
        for (unsigned p = 0; p < units(); ++p) {
            m_capacity[p] = initial[p].size() + max_inserts();
            m_map[p] = allocate_map(d, p, m_capacity[p]);
            m_lock[p] = d.create_syncvar(p);
            uint64_t slot = m_map[p] + kSlots;
            for (uint64_t k : initial[p]) {
                d.write(slot + kKey, k, kWord);
                d.write(slot + kValue, value_of(k), kWord);
                slot += kSlotBytes;
            }
            d.write(m_map[p] + kCount, initial[p].size(), kWord);
        }
        m_log.start(std::set<uint64_t>(keys.begin(), keys.end()));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        const unsigned p = partition_of(key);
        const unsigned me = c.global_id();
        const uint64_t slots = m_map[p] + kSlots;
        c.lock_acquire(m_lock[p]);
        const uint64_t since = m_log.now(); // under the lock: the lookup's check is exact
        const uint64_t count = c.load(m_map[p] + kCount, kWord);
        uint64_t i = 0;
        while (i < count && c.load(slots + i * kSlotBytes + kKey, kWord) != key) ++i;
        const bool found = i < count;
        bool ok = found;
        switch (op) {
        case Op::lookup:
            if (found && c.load(slots + i * kSlotBytes + kValue, kWord) != value_of(key)) ++m_wrong_values;
            m_log.lookup(me, key, found, since);
            break;
        case Op::insert:
            ok = !found && count < m_capacity[p]; // a full map (only if corrupt) refuses; the check reports it
            if (ok) {
                c.store(slots + count * kSlotBytes + kKey, key, kWord);
                c.store(slots + count * kSlotBytes + kValue, value_of(key), kWord);
                c.store(m_map[p] + kCount, count + 1, kWord);
            }
            m_log.insert(me, key, ok);
            break;
        case Op::remove:
            if (found) {
                const uint64_t last = slots + (count - 1) * kSlotBytes;
                const uint64_t hole = slots + i * kSlotBytes;
                c.store(hole + kKey, c.load(last + kKey, kWord), kWord);
                c.store(hole + kValue, c.load(last + kValue, kWord), kWord);
                c.store(m_map[p] + kCount, count - 1, kWord);
            }
            m_log.remove(me, key, found);
            break;
        }
        work_inside(c, op, ok);
        c.lock_release(m_lock[p]);
        return ok;
    }

    // The cited code's work per operation besides loads and stores,
    // {outside, inside} its locks (workload.op_work=measured): ASCYLIB
    // 3c2d1a2 `src/map-lock`, gcc -O2, callgrind, 10 elements; docs/workloads.md.
    // A successful insert is not measured (the measurement's full map refuses it).
    MeasuredWork measured_work() const override {
        MeasuredWork w;
        w.lookup_hit = {13, 29};
        w.lookup_miss = {13, 54};
        w.insert_fail = {16, 54};
        w.remove_ok = {14, 30};
        w.remove_fail = {14, 54};
        return w;
    }

    void verify(Driver& d, CheckResult& r) override {
        if (m_wrong_values != 0) {
            r.fail("array_map: " + std::to_string(m_wrong_values) +
                   " lookups found their key with another key's value");
            return;
        }
        std::set<uint64_t> in_memory;
        for (unsigned p = 0; p < units(); ++p) {
            const std::string part = "array_map: partition " + std::to_string(p);
            const uint64_t count = d.read(m_map[p] + kCount, kWord);
            if (count > m_capacity[p]) {
                r.fail(part + " holds a count of " + std::to_string(count) + ", more than its " +
                       std::to_string(m_capacity[p]) + " slots");
                return;
            }
            for (uint64_t i = 0; i < count; ++i) {
                const uint64_t slot = m_map[p] + kSlots + i * kSlotBytes;
                const uint64_t k = d.read(slot + kKey, kWord);
                if (k == 0 || k > key_range() || partition_of(k) != p) {
                    r.fail(part + " slot " + std::to_string(i) + " holds key " + std::to_string(k) +
                           ", not a key of this partition");
                    return;
                }
                if (d.read(slot + kValue, kWord) != value_of(k)) {
                    r.fail(part + " slot " + std::to_string(i) + " holds key " + std::to_string(k) +
                           " with another key's value");
                    return;
                }
                if (!in_memory.insert(k).second) {
                    r.fail(part + " holds key " + std::to_string(k) + " twice");
                    return;
                }
            }
        }
        m_log.check("array_map", in_memory, r);
    }

private:
    static uint64_t allocate_map(Driver& d, unsigned unit, uint64_t capacity) {
        const std::string what = "workload array_map: " + std::to_string(capacity) + " slots of " +
                                 std::to_string(kSlotBytes) + " bytes do not fit in unit " + std::to_string(unit) +
                                 "'s memory";
        if (capacity > (UINT64_MAX - kSlots) / kSlotBytes) throw std::invalid_argument(what);
        try {
            return d.allocate(unit, kSlots + capacity * kSlotBytes, Sharing::shared);
        } catch (const std::exception& e) {
            throw std::invalid_argument(what + " (" + e.what() +
                                        "); use a smaller workload.elements or workload.ops, or more memory");
        }
    }

    std::vector<uint64_t> m_map;
    std::vector<SyncVar> m_lock;
    std::vector<uint64_t> m_capacity;
    uint64_t m_wrong_values = 0;
    SetLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_array_map(const WorkloadParams& p) { return std::make_unique<ArrayMap>(p); }

} // namespace syncron

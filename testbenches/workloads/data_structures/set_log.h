#pragma once
// The functional check of the key-set structures (array map, skip list, hash
// table, linked list, the BSTs): every operation is logged on the host at its
// linearization point, in host order (the SystemC kernel runs one core at a
// time, and memory is read and written when a transaction is served, so host
// order is the order the simulated memory saw). After the run the log is
// replayed on a std::set and every result compared:
//  - an insert or remove must return what the sequential set returns at that
//    point (updates hold the locks that order them);
//  - a lookup must return the key's presence at some moment between its
//    start and its linearization point (exact when both are taken under the
//    lock that orders it; a window for lock-free lookups, whose decisive load
//    may be served before the core logs it);
//  - an update refused without a lock (an insert that read the key present,
//    a remove that read it absent) is checked as such a lookup: the key must
//    have had that presence at some moment of its window.
// The final contents read back from simulated memory must equal the replay's.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "models/core/workload.h"

namespace syncron {

class SetLog {
public:
    /// The contents before the run.
    void start(std::set<uint64_t> initial);
    /// A stamp for a lookup's start (the log position now).
    uint64_t now() const { return m_entries.size(); }
    void insert(unsigned core, uint64_t key, bool inserted) { log(Kind::insert, core, key, inserted, now()); }
    void remove(unsigned core, uint64_t key, bool removed) { log(Kind::remove, core, key, removed, now()); }
    /// A lookup that started at `since` (a now() stamp) and answered `found`.
    void lookup(unsigned core, uint64_t key, bool found, uint64_t since) { log(Kind::lookup, core, key, found, since); }
    /// An insert (remove) that started at `since` and returned false from a
    /// lock-free read of the key as present (absent).
    void insert_refused(unsigned core, uint64_t key, uint64_t since) {
        log(Kind::insert_refused, core, key, false, since);
    }
    void remove_refused(unsigned core, uint64_t key, uint64_t since) {
        log(Kind::remove_refused, core, key, false, since);
    }

    /// Replays the log; the first difference fails `r` ("<what>: ..."), as
    /// does a difference between the replay's final set and `in_memory`.
    void check(const std::string& what, const std::set<uint64_t>& in_memory, CheckResult& r) const;

    uint64_t operations() const { return m_entries.size(); }

private:
    enum class Kind : uint8_t { insert, remove, lookup, insert_refused, remove_refused };
    struct Entry {
        uint64_t key;
        uint64_t since;
        uint32_t core;
        Kind kind;
        bool result;
    };
    void log(Kind k, unsigned core, uint64_t key, bool result, uint64_t since) {
        m_entries.push_back(Entry{key, since, core, k, result});
    }

    std::set<uint64_t> m_initial;
    std::vector<Entry> m_entries;
};

} // namespace syncron

#include "testbenches/workloads/data_structures/set_log.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>
#include <utility>

namespace syncron {

void SetLog::start(std::set<uint64_t> initial) {
    m_initial = std::move(initial);
    m_entries.clear();
}

namespace {
std::string yes_no(bool b) { return b ? "true" : "false"; }
} // namespace

void SetLog::check(const std::string& what, const std::set<uint64_t>& in_memory, CheckResult& r) const {
    std::set<uint64_t> ref = m_initial;
    // Per key, the log positions at which its presence changed (and to what).
    std::unordered_map<uint64_t, std::vector<std::pair<uint64_t, bool>>> changes;
    const auto present_at = [&](uint64_t key, uint64_t pos) {
        const auto it = changes.find(key);
        bool present = m_initial.count(key) != 0;
        if (it == changes.end()) return present;
        for (const auto& [at, now_present] : it->second) {
            if (at >= pos) break;
            present = now_present;
        }
        return present;
    };
    const auto changed_within = [&](uint64_t key, uint64_t from, uint64_t to) {
        const auto it = changes.find(key);
        if (it == changes.end()) return false;
        return std::any_of(it->second.begin(), it->second.end(),
                           [&](const auto& c) { return c.first >= from && c.first < to; });
    };
    for (uint64_t i = 0; i < m_entries.size(); ++i) {
        const Entry& e = m_entries[i];
        const std::string where = " by core " + std::to_string(e.core) + " (operation " + std::to_string(i + 1) +
                                  " of " + std::to_string(m_entries.size()) + " in linearization order)";
        switch (e.kind) {
        case Kind::insert:
        case Kind::remove: {
            const bool expected = e.kind == Kind::insert ? ref.insert(e.key).second : ref.erase(e.key) != 0;
            if (e.result != expected) {
                r.fail(what + ": " + (e.kind == Kind::insert ? "insert(" : "remove(") + std::to_string(e.key) + ")" +
                       where + " returned " + yes_no(e.result) + ", the sequential replay returns " + yes_no(expected));
                return;
            }
            if (expected) changes[e.key].emplace_back(i, e.kind == Kind::insert);
            break;
        }
        case Kind::lookup:
        case Kind::insert_refused:
        case Kind::remove_refused: {
            // What the operation read: a refused insert read the key present,
            // a refused remove read it absent.
            const bool read_present = e.kind == Kind::lookup ? e.result : e.kind == Kind::insert_refused;
            const bool before = present_at(e.key, e.since);
            if (read_present != before && !changed_within(e.key, e.since, i)) {
                const std::string op = e.kind == Kind::lookup           ? "lookup("
                                       : e.kind == Kind::insert_refused ? "insert("
                                                                        : "remove(";
                r.fail(what + ": " + op + std::to_string(e.key) + ")" + where + " returned " + yes_no(e.result) +
                       (e.kind == Kind::lookup ? "" : " without a lock") + ", but the key was " +
                       (before ? "present" : "absent") + " throughout the operation");
                return;
            }
            break;
        }
        }
    }
    if (ref != in_memory) {
        std::vector<uint64_t> missing, extra;
        std::set_difference(ref.begin(), ref.end(), in_memory.begin(), in_memory.end(), std::back_inserter(missing));
        std::set_difference(in_memory.begin(), in_memory.end(), ref.begin(), ref.end(), std::back_inserter(extra));
        r.fail(what + ": the structure in simulated memory holds " + std::to_string(in_memory.size()) +
               " keys, the sequential replay " + std::to_string(ref.size()) +
               (missing.empty() ? "" : "; first key missing from memory: " + std::to_string(missing.front())) +
               (extra.empty() ? "" : "; first key in memory but not in the replay: " + std::to_string(extra.front())));
    }
}

} // namespace syncron

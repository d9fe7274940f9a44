#pragma once
// The functional check of the containers (stack, queue, priority queue):
// each partition is one container behind one lock, so every operation is
// logged on the host while its core holds that lock, and the log is the
// exact order of the critical sections. After the run the log is replayed on
// a plain C++ container of the same discipline; every pop or peek must
// return what the replay returns, and the contents left in simulated memory
// must equal the replay's, element by element in container order.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/core/workload.h"

namespace syncron {

class SequenceLog {
public:
    enum class Discipline { lifo, fifo, min_first };

    /// `initial[p]`: partition p's contents in container order (stack: top
    /// first; queue: front first; priority queue: any order).
    void start(Discipline d, std::vector<std::vector<uint64_t>> initial);
    void push(unsigned core, unsigned partition, uint64_t value) { log(Kind::push, core, partition, value); }
    /// A pop, or a peek at the next element (`value` empty: the container was empty).
    void pop(unsigned core, unsigned partition, std::optional<uint64_t> value) {
        log(Kind::pop, core, partition, value.value_or(0), value.has_value());
    }
    void peek(unsigned core, unsigned partition, std::optional<uint64_t> value) {
        log(Kind::peek, core, partition, value.value_or(0), value.has_value());
    }

    /// Replays the log; `in_memory[p]` is partition p read back in container
    /// order (priority queue: any order).
    void check(const std::string& what, const std::vector<std::vector<uint64_t>>& in_memory, CheckResult& r) const;

    uint64_t operations() const { return m_entries.size(); }

private:
    enum class Kind : uint8_t { push, pop, peek };
    struct Entry {
        uint64_t value;
        uint32_t core;
        uint32_t partition;
        Kind kind;
        bool has_value;
    };
    void log(Kind k, unsigned core, unsigned partition, uint64_t value, bool has_value = true) {
        m_entries.push_back(Entry{value, core, partition, k, has_value});
    }

    Discipline m_discipline = Discipline::lifo;
    std::vector<std::vector<uint64_t>> m_initial;
    std::vector<Entry> m_entries;
};

} // namespace syncron

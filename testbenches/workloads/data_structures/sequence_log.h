#pragma once
// The functional check of the containers (stack, queue, priority queue):
// every operation is logged on the host while its core holds the lock that
// orders it (the stack's and priority queue's one lock; the queue's tail lock
// for pushes, its head lock for pops), so the log is the exact order of the
// critical sections. After the run the log is replayed on a plain C++
// container of the same discipline; every pop or peek must return what the
// replay returns, and the contents left in simulated memory must equal the
// replay's, element by element in container order.
// One window, for the queue's two locks: a push is logged just before its
// linking store and marks it done once the store has returned (`pushed`); a
// pop or peek that started at `since` and found the queue empty while the
// replay's front element was pushed is accepted when that push was done only
// after `since` (the pop's read was served before the link).
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
    /// The push of `value` has its linking store in memory (the queue).
    void pushed(unsigned core, unsigned partition, uint64_t value) { log(Kind::push_done, core, partition, value); }
    /// A stamp for a pop's or peek's start (the log position now).
    uint64_t now() const { return m_entries.size(); }
    /// A pop, or a peek at the next element (`value` empty: the container was
    /// empty); `since`: the operation's start when its read may precede a
    /// logged push (the queue), else the log position now.
    void pop(unsigned core, unsigned partition, std::optional<uint64_t> value,
             std::optional<uint64_t> since = std::nullopt) {
        log(Kind::pop, core, partition, value.value_or(0), value.has_value(), since.value_or(now()));
    }
    void peek(unsigned core, unsigned partition, std::optional<uint64_t> value,
              std::optional<uint64_t> since = std::nullopt) {
        log(Kind::peek, core, partition, value.value_or(0), value.has_value(), since.value_or(now()));
    }

    /// Replays the log; `in_memory[p]` is partition p read back in container
    /// order (priority queue: any order).
    void check(const std::string& what, const std::vector<std::vector<uint64_t>>& in_memory, CheckResult& r) const;

    uint64_t operations() const { return m_entries.size(); }

private:
    enum class Kind : uint8_t { push, push_done, pop, peek };
    struct Entry {
        uint64_t value;
        uint64_t since;
        uint32_t core;
        uint32_t partition;
        Kind kind;
        bool has_value;
    };
    void log(Kind k, unsigned core, unsigned partition, uint64_t value, bool has_value = true,
             std::optional<uint64_t> since = std::nullopt) {
        m_entries.push_back(Entry{value, since.value_or(now()), core, partition, k, has_value});
    }

    Discipline m_discipline = Discipline::lifo;
    std::vector<std::vector<uint64_t>> m_initial;
    std::vector<Entry> m_entries;
};

} // namespace syncron

#pragma once
// The function of one unit's MESI directory (docs/coherence.md), without
// SystemC: the state of every line homed in the unit's memory that some L1
// may hold, one transaction at a time per line (a blocking directory:
// requests for a busy line wait in its queue, in arrival order), and what
// each transaction must do. The timing shells (DirectoryModule, LT and AT)
// carry the probes and memory accesses a transaction asks for and report
// back; the state changes here only.
//
// Directory states: I (no cache holds the line), S (sharers, a bit vector of
// every cache), EM (one owner, in E or M: the directory cannot tell), each
// with a busy flag while a transaction waits for its probes' answers or its
// memory read (the transient states: I/S/EM + busy, with the transaction
// saying what it waits for).
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/dynamic_bitset.hpp>

#include "models/protocol/coherence.h"

namespace syncron {

class Directory {
public:
    enum class State : uint8_t { I, S, EM };

    /// A request from cache `cache` (an index among all caches of the
    /// system) for line `line`; `handle` is the shell's, returned unchanged.
    struct Request {
        CoherenceMsg msg = CoherenceMsg::get_s;
        uint64_t line = 0;
        unsigned cache = 0;
        void* handle = nullptr; ///< opaque: the shell's own (e.g. its payload)
    };
    struct Probe {
        CoherenceMsg msg; ///< inv, fwd_get_s or fwd_get_m
        unsigned cache;
    };
    /// What a started transaction asks of the shell: send these probes (in
    /// parallel) and report each answer with answered().
    struct Plan {
        std::vector<Probe> probes;
    };
    /// How a transaction ends (finish()).
    struct Outcome {
        MesiState granted = MesiState::I; ///< get_s/get_m: the requester's new state
        bool with_data = false;           ///< the response carries the line
        bool write_back = false;          ///< the line's data goes to memory (put_m, or a dirty owner downgraded)
    };

    struct Stats {
        uint64_t requests[kCoherenceMsgCount] = {}; ///< received, by message
        uint64_t probes[kCoherenceMsgCount] = {};   ///< sent, by message
        uint64_t memory_reads = 0;                  ///< lines read from memory for a grant
        uint64_t write_backs = 0;                   ///< lines written to memory
        uint64_t owner_data = 0;                    ///< grants whose data an owner supplied
        uint64_t queued = 0;                        ///< requests that found their line busy
        uint64_t stale_puts = 0;                    ///< put_m/put_e from a cache no longer the owner
        uint64_t lines_max = 0;                     ///< most lines tracked at once (occupancy)
        uint64_t busy_max = 0;                      ///< most lines in a transaction at once
    };

    /// `caches`: how many L1s may share a line (the sharer vector's width).
    explicit Directory(unsigned caches);

    /// Starts the transaction of `r`, or queues it when its line is busy
    /// (then nothing: the shell gets it back from next_waiting()).
    std::optional<Plan> begin(const Request& r);
    /// The answer of `cache` to a probe of the current transaction on `line`.
    void answered(uint64_t line, unsigned cache, bool present, bool dirty);
    /// Whether the current transaction on `line` needs the line from memory
    /// (call once every probe has answered).
    bool needs_memory(uint64_t line) const;
    /// Ends the current transaction on `line`: the new state, and what the
    /// requester gets.
    Outcome finish(uint64_t line);
    /// The next request that waited for `line` (after finish()), if any.
    std::optional<Request> next_waiting(uint64_t line);

    /// The current transaction's request on `line` (it must be busy).
    const Request& current(uint64_t line) const;
    bool busy(uint64_t line) const;
    /// Probes of the current transaction on `line` not answered yet.
    unsigned pending(uint64_t line) const;
    State state(uint64_t line) const;
    /// Whether the directory allows `cache` to hold `line` in `s` now (the
    /// checker's directory invariant: sharers and owner are a superset of the
    /// caches holding the line; a busy line may be in transition).
    bool permits(uint64_t line, unsigned cache, MesiState s) const;
    /// One line of text for reports: state, owner or sharers, busy.
    std::string describe(uint64_t line) const;

    unsigned caches() const { return m_caches; }
    size_t lines() const { return m_lines.size(); }
    size_t busy_lines() const { return m_busy; }
    const Stats& stats() const { return m_stats; }

private:
    struct Txn {
        Request req;
        bool was_sharer = false; ///< the requester was a sharer at the start (an upgrade)
        unsigned pending = 0;    ///< probes not answered yet
        bool owner_data = false; ///< an owner answered with the line
        bool owner_dirty = false;
        bool owner_kept = false; ///< fwd_get_s: the owner still holds it (now S)
    };
    struct Entry {
        State state = State::I;
        unsigned owner = 0;
        boost::dynamic_bitset<> sharers;
        bool busy = false;
        Txn txn;
        std::deque<Request> waiting;
    };

    Entry& entry(uint64_t line);
    const Entry* find(uint64_t line) const;
    Entry& busy_entry(uint64_t line, const char* what);
    void forget_if_idle(uint64_t line);

    unsigned m_caches;
    std::unordered_map<uint64_t, Entry> m_lines;
    size_t m_busy = 0;
    Stats m_stats;
};

} // namespace syncron

#pragma once
// A software synchronization server: the program of a server core under
// Central, Hier and the MiSAR-style fallback (docs/schemes.md).
//
// The server core takes messages from its mailbox in arrival order and
// serves each with the same state machines as an SE (an SeCore): flat
// organization for the system-wide and fallback servers (every client core is
// an "own" core), hierarchical for Hier's per-unit servers (a server talks to
// the server of the variable's home unit as an SE talks to the Master SE).
// The SeCore's table is the server's software table in its unit's memory. Per
// message the core pays server.instructions_per_request instructions and a
// read and a write of the variable's 64 B table slot, through its L1 or not;
// replies are messages to mailboxes, over the crossbar and the links.
#include <cstdint>
#include <functional>
#include <unordered_map>

#include <systemc>

#include "models/common/params.h"
#include "models/core/core_services.h"
#include "models/se/core/se_core.h"

namespace syncron {

class SyncServer : private SyncVarMemory {
public:
    enum class Role : uint8_t {
        central,  ///< one server for the system (scheme central)
        hier,     ///< one server per unit (scheme hier)
        fallback, ///< MiSAR-style fallback (syncron_central_ovrfl / syncron_distrib_ovrfl)
    };

    struct Config {
        Role role = Role::central;
        unsigned unit = 0;   ///< where the server core sits
        SeTopology topology; ///< of its SeCore (flat for central and fallback)
        ServerParams params;
        bool cached = false;     ///< the table goes through the server core's L1
        uint64_t table_base = 0; ///< the table's memory (table_entries x 64 B in `unit`)
        /// MMIO address of an outgoing message's destination.
        std::function<uint64_t(const Outgoing&)> address_of;
        /// fallback: MMIO address of a variable's Master SE (for the reports).
        std::function<uint64_t(uint64_t var)> master_se_of;
    };

    struct Stats {
        uint64_t handled = 0;         ///< messages served
        sc_core::sc_time busy;        ///< time spent serving them
        uint64_t reports = 0;         ///< fallback: decrease_indexing_counter sent to Master SEs
        uint64_t diverted_served = 0; ///< fallback: messages counted towards the reports
    };

    explicit SyncServer(Config config);

    /// The server program: serves messages forever (from the core's thread).
    void run(CoreServices& core);

    const Stats& stats() const { return m_stats; }
    const SeCore& se_core() const { return m_core; }
    Role role() const { return m_cfg.role; }
    unsigned unit() const { return m_cfg.unit; }
    /// fallback: operations counted but not yet reported (0 at a clean end).
    uint64_t unreported() const;

private:
    void serve(CoreServices& core, const CoreServices::Received& in);
    /// Reads and writes the table slot of `var` (the state the message changes).
    void touch_state(CoreServices& core, uint64_t var);
    void report_if_idle(CoreServices& core, uint64_t var);

    // SyncVarMemory: a variable the full table cannot hold lives in its syncronVar.
    void read(uint64_t addr, uint8_t* data, unsigned len) override;
    void write(uint64_t addr, const uint8_t* data, unsigned len) override;

    Config m_cfg;
    SeCore m_core;
    SeResult m_result;
    CoreServices* m_cpu = nullptr;
    std::unordered_map<uint64_t, unsigned> m_slots; ///< variable -> table slot
    std::unordered_map<uint64_t, uint64_t> m_tally; ///< fallback: counted operations per variable
    Stats m_stats;
};

} // namespace syncron

#pragma once
// The function of the SynCron front end, without SystemC: decodes plain
// loads and stores on the harts' register windows (sw/syncron_mmio_regs.h)
// into SynCron requests, keeps each hart's registers, its pending req_sync
// request and the locks it holds, and turns the SE's grants back into the
// completion of the hart's load. The LT/AT shells (mmio_frontend.h) only add
// time. Bad accesses become a status code, never a message the SE would
// reject (an SE error stops the simulation).
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "models/frontend/fabric_params.h"
#include "models/protocol/message.h"

namespace syncron {

/// The primitive each variable was first used as, shared by a fabric's front
/// ends (a variable used as two primitives would be an SE error).
using KindTable = std::unordered_map<uint64_t, Primitive>;

class MmioFrontEndCore {
public:
    struct Access {
        uint64_t addr = 0;
        unsigned len = 0;
        bool read = true;
        bool byte_enables = false; ///< the payload has a byte-enable array
        bool streaming = false;    ///< streaming width set (not 0) and below the data length
        bool extended = false;     ///< the payload carries an extension (e.g. an atomic)
        uint8_t* data = nullptr;   ///< read: filled; write: taken
    };
    enum class Action {
        done,     ///< a register access or an error: complete now
        post,     ///< req_async: send `msg`, complete now
        exchange, ///< req_sync: send `msg`, complete on the grant
    };
    struct Outcome {
        Action action = Action::done;
        uint32_t status = SYNCRON_ST_OK;
        unsigned hart = 0; ///< local hart index
        Message msg;
    };

    MmioFrontEndCore(unsigned unit, const FabricParams& params, std::shared_ptr<KindTable> kinds);

    /// A load or store from the bus (the address as the bus passes it:
    /// absolute, or from the unit's first window with port_offsets).
    Outcome access(const Access& a);
    /// The SE's reply to local hart `m.core`: completes its req_sync request.
    /// False when that hart waits for no such reply.
    bool grant(const Message& m);
    /// Debug transport: reads registers (command slots read 0), never
    /// changes anything; returns the bytes transferred (0: not served).
    unsigned debug_read(uint64_t addr, uint8_t* data, unsigned len) const;

    /// Local hart of an address in this unit's windows, or empty.
    std::optional<unsigned> hart_of(uint64_t addr) const;
    uint32_t status(unsigned hart) const { return m_harts.at(hart).status; }
    /// What the granted load returns: the old value of an rmw, else 0 (STATUS OK).
    uint64_t load_value(unsigned hart) const { return m_harts.at(hart).load_value; }
    bool waiting(unsigned hart) const { return m_harts.at(hart).pending.has_value(); }
    /// The req_sync request local hart `hart` waits for, if any.
    const std::optional<Message>& pending(unsigned hart) const { return m_harts.at(hart).pending; }
    unsigned harts() const { return static_cast<unsigned>(m_harts.size()); }
    unsigned unit() const { return m_unit; }
    uint64_t base() const { return m_base; }
    uint64_t end() const { return m_base + uint64_t(m_harts.size()) * m_params.window_bytes; }
    /// The lock fairness threshold behind SYNCRON_MMIO_FAIRNESS: the fabric
    /// shares one value with its SEs; alone, the front end keeps its own.
    void share_lock_fairness(std::shared_ptr<unsigned> threshold) { m_fairness = std::move(threshold); }
    unsigned lock_fairness_threshold() const { return *m_fairness; }

private:
    struct Hart {
        uint64_t var = 0;
        uint64_t info = 0;
        uint64_t expected = 0; ///< EXPECTED: compare-and-swap's expected value
        uint64_t result = 0;   ///< RESULT: the old value the last rmw returned
        uint32_t status = SYNCRON_ST_OK;
        std::optional<Message> pending; ///< the req_sync request awaiting its grant
        std::set<uint64_t> locks;       ///< locks this hart holds
        uint64_t load_value = 0;        ///< what the last granted load returns
    };

    Outcome command(Hart& h, unsigned hart, unsigned raw, const Access& a);
    uint32_t check_request(const Hart& h, Opcode op) const;
    bool read_register(const Hart& h, unsigned hart, uint64_t off, unsigned len, uint64_t& value) const;

    unsigned m_unit;
    FabricParams m_params;
    uint64_t m_base;
    std::shared_ptr<KindTable> m_kinds;
    std::shared_ptr<unsigned> m_fairness; // SYNCRON_MMIO_FAIRNESS
    std::vector<Hart> m_harts;
};

} // namespace syncron

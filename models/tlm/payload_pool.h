#pragma once
// Pooled generic payloads for the approximately-timed (AT) path: a
// tlm_mm_interface that recycles payloads, so an AT initiator never allocates
// per transaction. Each pooled payload owns a data buffer of up to
// kMaxBytes and a SyncronExtension that is attached only while the payload
// carries a message and detached when it returns to the pool.
//
// Usage (initiator):
//   tlm::tlm_generic_payload& t = pool.acquire();   // ref count 1, cleared
//   ... set command/address/length (data_ptr points at the payload's buffer)
//   socket->nb_transport_fw(t, phase, delay);
//   ... on END_RESP / TLM_COMPLETED:  t.release();  // back to the pool at 0
// Interconnects and targets that keep a payload beyond the call acquire()/
// release() on it as the base protocol requires.
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include <tlm>

#include "models/protocol/tlm/syncron_extension.h"

namespace syncron {

class PayloadPool : public tlm::tlm_mm_interface {
public:
    static constexpr unsigned kMaxBytes = 64;

    PayloadPool() = default;
    PayloadPool(const PayloadPool&) = delete;
    PayloadPool& operator=(const PayloadPool&) = delete;
    ~PayloadPool() override;

    /// A cleared payload with reference count 1, data pointer on its own
    /// kMaxBytes buffer, no byte enables, response TLM_INCOMPLETE_RESPONSE.
    tlm::tlm_generic_payload& acquire();
    /// Attaches this pooled payload's own SyncronExtension and returns it
    /// (detached again when the payload returns to the pool).
    SyncronExtension& message_extension(tlm::tlm_generic_payload& t);
    /// Called by tlm_generic_payload::release() when the count reaches 0.
    void free(tlm::tlm_generic_payload* t) override;

    size_t allocated() const { return m_all.size(); }
    size_t in_use() const { return m_all.size() - m_free.size(); }

private:
    struct Slot {
        tlm::tlm_generic_payload payload;
        uint8_t data[kMaxBytes];
        SyncronExtension ext;
        explicit Slot(tlm::tlm_mm_interface* mm) : payload(mm), data{} {}
    };
    Slot& slot_of(tlm::tlm_generic_payload* t);

    std::vector<std::unique_ptr<Slot>> m_all;
    std::vector<Slot*> m_free;
    std::unordered_map<const tlm::tlm_generic_payload*, Slot*> m_slots;
};

} // namespace syncron

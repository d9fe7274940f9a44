#pragma once
// The message-passing schemes' core side: every Table 2 call is a SynCron
// message to one destination, and an acquire-type call waits there for its
// grant (docs/schemes.md). What differs is where a message goes:
//   syncron  the core's own SE
//   flat     the variable's Master SE, with the core's flat index as CoreID
//   central  the mailbox of the system's one server core
//   hier     the mailbox of the server core of the core's unit
#include <cstdint>
#include <functional>
#include <memory>

#include "models/core/sync_client.h"
#include "models/protocol/message.h"

namespace syncron {

class AddressMap;

class MessageClient final : public SyncClient {
public:
    /// Where a request for `var` from a core of `unit` goes (an MMIO address).
    using Destination = std::function<uint64_t(unsigned unit, uint64_t var)>;

    MessageClient(Destination dest, bool flat_core_ids);

    static std::unique_ptr<MessageClient> syncron(const AddressMap& map);
    static std::unique_ptr<MessageClient> flat(const AddressMap& map);
    /// Every request to the server core (server_unit, server_core).
    static std::unique_ptr<MessageClient> central(const AddressMap& map, unsigned server_unit, unsigned server_core);
    /// Every request to the server core of the client's own unit;
    /// server_core(unit) is that core's local ID.
    static std::unique_ptr<MessageClient> hier(const AddressMap& map,
                                               std::function<unsigned(unsigned unit)> server_core);

    void request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) override;
    /// rmw_*_local to the same destination as any request for `addr`; the
    /// old value comes back in rmw_reply_local (docs/protocol.md).
    uint64_t rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) override;
    /// One rmw request `m` (from core.message) to `dest`, waiting for its reply.
    static uint64_t exchange_rmw(CoreServices& core, uint64_t dest, const Message& m);

private:
    Destination m_dest;
    bool m_flat;
};

} // namespace syncron

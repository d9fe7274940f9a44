#include "models/schemes/message_client.h"

#include "models/common/address_map.h"
#include "models/core/core_services.h"

namespace syncron {

MessageClient::MessageClient(Destination dest, bool flat_core_ids) : m_dest(std::move(dest)), m_flat(flat_core_ids) {}

std::unique_ptr<MessageClient> MessageClient::syncron(const AddressMap& map) {
    return std::make_unique<MessageClient>([&map](unsigned unit, uint64_t) { return map.se_address(unit); }, false);
}

std::unique_ptr<MessageClient> MessageClient::flat(const AddressMap& map) {
    // A variable outside memory has no Master SE: send it to the own SE,
    // which rejects it with an error naming the address.
    return std::make_unique<MessageClient>(
        [&map](unsigned unit, uint64_t var) { return map.se_address(map.is_memory(var) ? map.home_unit(var) : unit); },
        true);
}

std::unique_ptr<MessageClient> MessageClient::central(const AddressMap& map, unsigned server_unit,
                                                      unsigned server_core) {
    const uint64_t mailbox = map.mailbox_address(server_unit, server_core);
    return std::make_unique<MessageClient>([mailbox](unsigned, uint64_t) { return mailbox; }, true);
}

std::unique_ptr<MessageClient> MessageClient::hier(const AddressMap& map,
                                                   std::function<unsigned(unsigned)> server_core) {
    return std::make_unique<MessageClient>(
        [&map, server_core = std::move(server_core)](unsigned unit, uint64_t) {
            return map.mailbox_address(unit, server_core(unit));
        },
        false);
}

uint64_t MessageClient::rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) {
    Message m = core.message(rmw_local_opcode(op), addr, operand);
    m.expected = expected;
    if (m_flat) m.core = static_cast<uint16_t>(core.unit() * core.address_map().cores_per_unit() + core.local_id());
    return exchange_rmw(core, m_dest(core.unit(), addr), m);
}

uint64_t MessageClient::exchange_rmw(CoreServices& core, uint64_t dest, const Message& m) {
    const auto reply = core.exchange(dest, m, Opcode::rmw_reply_local, Opcode::rmw_reply_local);
    return reply ? reply->info : 0; // rejected: already reported
}

void MessageClient::request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) {
    Message m = core.message(op, var, info);
    if (m_flat) m.core = static_cast<uint16_t>(core.unit() * core.address_map().cores_per_unit() + core.local_id());
    const uint64_t dest = m_dest(core.unit(), var);
    if (is_sync_request(op))
        core.exchange(dest, m, grant_of(op), grant_of(op));
    else
        core.post(dest, m);
}

} // namespace syncron

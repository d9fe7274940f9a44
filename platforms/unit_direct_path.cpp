#include "platforms/unit_direct_path.h"

#include "models/protocol/tlm/traffic_class.h"

namespace syncron {

const UnitDirectPath::Target* UnitDirectPath::target(const AddressMap::Decoded& d) const {
    if (d.unit >= m_units.size()) return nullptr;
    const Unit& home = m_units[d.unit];
    const Target* t = nullptr;
    switch (d.kind) {
    case AddressMap::Kind::memory: t = d.index < home.vaults.size() ? &home.vaults[d.index] : nullptr; break;
    case AddressMap::Kind::se: t = &home.se; break;
    case AddressMap::Kind::mailbox: t = d.index < home.mailboxes.size() ? &home.mailboxes[d.index] : nullptr; break;
    default: break; // the directory, unmapped addresses: the sockets (and their reports)
    }
    return t && t->fw ? t : nullptr;
}

bool UnitDirectPath::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const AddressMap::Decoded d = m_map.decode(trans.get_address());
    const Target* t = target(d);
    if (t == nullptr) return false;
    ++m_transports;
    const TrafficClass cls = traffic_class(trans);
    const unsigned bytes = trans.get_data_length();
    const Unit& here = m_units[m_unit];
    if (d.unit == m_unit) {
        here.xbar->lt_hop(t->port, bytes, cls, delay);
        t->fw->b_transport(trans, delay);
        return true;
    }
    LinkTiming& link = *here.link_to[d.unit];
    here.xbar->lt_hop(here.link_port[d.unit], bytes, cls, delay);
    link.lt_request(trans, cls, delay);
    m_units[d.unit].xbar->lt_hop(t->port, bytes, cls, delay);
    t->fw->b_transport(trans, delay);
    link.lt_response(trans, delay);
    return true;
}

} // namespace syncron

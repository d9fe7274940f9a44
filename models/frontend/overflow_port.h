#pragma once
// One unit's overflow socket: the SE's syncronVar accesses (paper §4.3, on
// the SE's `to_mem`) leave the fabric here, to the memory the integrator
// binds to `out` (or the fabric's default vault). A passthrough in both
// timing styles and for debug transport; `offset` is subtracted from the
// address on the way out (the default vault's addresses start at 0).
#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>

namespace syncron {

template <unsigned BUSWIDTH = 64>
class OverflowPort : public sc_core::sc_module, public tlm::tlm_fw_transport_if<>, public tlm::tlm_bw_transport_if<> {
public:
    tlm::tlm_target_socket<32> in;           ///< bound by the fabric to the SE's to_mem
    tlm::tlm_initiator_socket<BUSWIDTH> out; ///< bound by the integrator to its memory

    OverflowPort(sc_core::sc_module_name name, uint64_t offset = 0)
        : sc_module(name), in("in"), out("out"), m_offset(offset) {
        in.bind(*this);
        out.bind(*this);
    }

    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) override {
        translate(t);
        out->b_transport(t, d);
    }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
        if (ph == tlm::BEGIN_REQ) translate(t);
        return out->nb_transport_fw(t, ph, d);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) override {
        translate(t);
        return out->transport_dbg(t);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
        return in->nb_transport_bw(t, ph, d);
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

protected:
    void before_end_of_elaboration() override {
        // Without memory the first ST overflow would fail deep in the run;
        // say so while the platform is still being put together.
        if (out.bind_count() == 0)
            SC_REPORT_ERROR(name(), (std::string("overflow socket ") + out.name() +
                                     " is not bound: bind it to the memory that holds the synchronization variables "
                                     "(an SE keeps a variable there when its ST is full), or set "
                                     "FabricParams::default_memory")
                                        .c_str());
    }

private:
    void translate(tlm::tlm_generic_payload& t) const {
        if (m_offset) t.set_address(t.get_address() - m_offset);
    }
    uint64_t m_offset;
};

} // namespace syncron

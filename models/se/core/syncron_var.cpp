#include "models/se/core/syncron_var.h"

#include <algorithm>

namespace syncron {
namespace {

bool get_bit(const std::vector<uint8_t>& img, unsigned byte_off, unsigned bit) {
    return (img[byte_off + bit / 8] >> (bit % 8)) & 1u;
}
void set_bit(std::vector<uint8_t>& img, unsigned byte_off, unsigned bit) {
    img[byte_off + bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
}

} // namespace

SyncronVarLayout::SyncronVarLayout(unsigned units, unsigned cores_per_unit, bool flat)
    : m_units(units), m_cores(cores_per_unit), m_flat(flat) {
    m_wl_bytes = std::max(2u, (cores_per_unit + 7) / 8);
    m_info_off = units * m_wl_bytes;
    m_ovf_off = m_info_off + 8;
    m_ovf_bytes = (units + 1 + 7) / 8;
    m_acq_off = m_ovf_off + m_ovf_bytes;
    m_bytes = m_acq_off + 2 * units;
}

bool SyncronVarLayout::decode(const std::vector<uint8_t>& img, unsigned master, Primitive kind, VarState& out) const {
    out.reset(kind, m_flat ? m_units * m_cores : m_cores, m_units);
    out.remote.assign(m_units, BitList(m_cores));
    out.overflow_acquires.assign(m_units, 0);
    for (unsigned s = 0; s < m_units; ++s)
        if (get_bit(img, m_ovf_off, s)) out.overflowed.set(s);
    for (unsigned s = 0; s < m_units; ++s) {
        BitList wl(m_cores);
        for (unsigned c = 0; c < m_cores; ++c)
            if (get_bit(img, s * m_wl_bytes, c)) wl.set(c);
        if (m_flat) {
            for (unsigned c = 0; c < m_cores; ++c)
                if (wl.test(c)) out.local.set(s * m_cores + c);
        } else if (s == master)
            out.local = wl;
        else if (out.overflowed.test(s))
            out.remote[s] = wl;
        else if (wl.all() && m_cores > 0)
            out.global.set(s);
        out.overflow_acquires[s] = static_cast<uint16_t>(img[m_acq_off + 2 * s] | (img[m_acq_off + 2 * s + 1] << 8));
    }
    uint64_t info = 0;
    for (unsigned b = 0; b < 8; ++b) info |= uint64_t(img[m_info_off + b]) << (8 * b);
    out.info = info;
    return get_bit(img, m_ovf_off, m_units);
}

void SyncronVarLayout::encode(const VarState& st, unsigned master, bool active, std::vector<uint8_t>& img) const {
    img.assign(m_bytes, 0);
    for (unsigned s = 0; s < m_units; ++s) {
        BitList wl(m_cores);
        if (m_flat) {
            for (unsigned c = 0; c < m_cores; ++c)
                if (st.local.test(s * m_cores + c)) wl.set(c);
        } else if (s == master)
            wl = st.local;
        else if (st.global.test(s))
            wl.set(); // an SE waiting as a whole: all of its bits (case 1)
        else if (s < st.remote.size())
            wl = st.remote[s];
        for (unsigned c = 0; c < m_cores; ++c)
            if (wl.test(c)) set_bit(img, s * m_wl_bytes, c);
        if (st.overflowed.test(s)) set_bit(img, m_ovf_off, s);
        const uint16_t acq = s < st.overflow_acquires.size() ? st.overflow_acquires[s] : 0;
        img[m_acq_off + 2 * s] = static_cast<uint8_t>(acq & 0xff);
        img[m_acq_off + 2 * s + 1] = static_cast<uint8_t>(acq >> 8);
    }
    for (unsigned b = 0; b < 8; ++b) img[m_info_off + b] = static_cast<uint8_t>(st.info >> (8 * b));
    if (active) set_bit(img, m_ovf_off, m_units);
}

} // namespace syncron

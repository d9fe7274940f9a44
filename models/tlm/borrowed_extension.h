#pragma once
// An extension the caller owns, set on a payload for the length of a scope
// and cleared when the scope ends, also when an error report unwinds it (the
// payload would otherwise delete a stack object). A null extension is skipped.
#include <tlm>

namespace syncron {

template <class Ext> class BorrowedExtension {
public:
    BorrowedExtension(tlm::tlm_generic_payload& t, Ext* ext) : m_t(t), m_ext(ext) {
        if (m_ext) m_t.set_extension(m_ext);
    }
    ~BorrowedExtension() {
        if (m_ext) m_t.clear_extension(m_ext);
    }
    BorrowedExtension(const BorrowedExtension&) = delete;
    BorrowedExtension& operator=(const BorrowedExtension&) = delete;

private:
    tlm::tlm_generic_payload& m_t;
    Ext* m_ext;
};

} // namespace syncron

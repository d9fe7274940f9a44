#pragma once
// A read-modify-write request for the vault controllers' atomic units
// (scheme remote_atomics; docs/vault_controller.md, "Atomics"). It rides on a
// TLM_WRITE_COMMAND generic payload of 4 or 8 bytes addressed to the
// operand, naturally aligned; the data buffer carries the operand (for cas:
// the new value) and is never written by the target (IEEE 1666-2011 §14.7:
// a target must not modify the data array of a WRITE): the old value of the
// memory word comes back in the extension (`old_value`).
// The vault performs the operation at its service time, as one access that
// reads and writes the row (docs/vault_controller.md).
#include <cstdint>

#include <tlm>

namespace syncron {

enum class AtomicOp : uint8_t {
    cas,  ///< if (mem == compare) mem = operand; returns the old value
    swap, ///< mem = operand; returns the old value
    faa,  ///< mem += operand (wrapping); returns the old value
};

const char* to_string(AtomicOp op);

class AtomicExtension : public tlm::tlm_extension<AtomicExtension> {
public:
    AtomicExtension() = default;
    AtomicExtension(AtomicOp o, uint64_t cmp) : op(o), compare(cmp) {}

    tlm::tlm_extension_base* clone() const override { return new AtomicExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const AtomicExtension&>(other);
    }

    AtomicOp op = AtomicOp::faa;
    uint64_t compare = 0; ///< cas only
    /// Set by the vault: the operation was performed (false when the payload
    /// was rejected with an error response).
    bool performed = false;
    /// Set by the vault: the memory word before the operation, zero-extended
    /// from the operand width (valid when `performed`).
    uint64_t old_value = 0;
};

inline const char* to_string(AtomicOp op) {
    switch (op) {
    case AtomicOp::cas: return "cas";
    case AtomicOp::swap: return "swap";
    case AtomicOp::faa: return "faa";
    }
    return "invalid";
}

} // namespace syncron

#pragma once
// A read-modify-write of one 8-byte word with the vault controllers' atomic
// units (docs/vault_controller.md, "Atomics"): fetch-and-add, swap and
// compare-and-swap are one atomic each; min and max, which the vaults do not
// offer, are a compare-and-swap loop there. What CoreApi::vault_rmw and the
// remote_atomics scheme's atomic_rmw do (docs/schemes.md).
#include <cstdint>

#include "models/protocol/rmw.h"

namespace syncron {

class CoreServices;

/// Returns the word's old value.
uint64_t vault_rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected);

} // namespace syncron

#pragma once
// Checks the coherence invariants of one line over every L1 and its home
// directory (docs/coherence.md, "Checker"), after every step that changed an
// L1's state:
//   single writer / multiple readers: at most one cache holds the line in E
//   or M, and then no other cache holds it at all;
//   directory: every cache holding the line is one the directory lets hold it
//   (a sharer in S, the owner in EM; any while the line is in a transaction).
// Plain C++: the platform says how to read an L1's state and which
// directory is a line's home.
#include <cstdint>
#include <functional>
#include <string>

#include "models/coherence/core/directory.h"
#include "models/protocol/coherence.h"

namespace syncron {

class CoherenceChecker {
public:
    using StateOf = std::function<MesiState(unsigned cache, uint64_t line)>;
    using HomeOf = std::function<const Directory*(uint64_t line)>;

    CoherenceChecker(unsigned caches, StateOf state_of, HomeOf home_of);

    /// Checks `line`; returns a description of the first broken invariant,
    /// or an empty string. Violations are counted and the first one kept.
    std::string check(uint64_t line);

    uint64_t checks() const { return m_checks; }
    uint64_t violations() const { return m_violations; }
    const std::string& first_violation() const { return m_first; }

private:
    unsigned m_caches;
    StateOf m_state_of;
    HomeOf m_home_of;
    uint64_t m_checks = 0;
    uint64_t m_violations = 0;
    std::string m_first;
};

} // namespace syncron

#include "models/coherence/core/coherence_checker.h"

#include <sstream>
#include <utility>

namespace syncron {

CoherenceChecker::CoherenceChecker(unsigned caches, StateOf state_of, HomeOf home_of)
    : m_caches(caches), m_state_of(std::move(state_of)), m_home_of(std::move(home_of)) {}

std::string CoherenceChecker::check(uint64_t line) {
    ++m_checks;
    unsigned holders = 0, writers = 0;
    std::ostringstream states;
    std::string directory_error;
    const Directory* home = m_home_of ? m_home_of(line) : nullptr;
    for (unsigned c = 0; c < m_caches; ++c) {
        const MesiState s = m_state_of(c, line);
        if (s == MesiState::I) continue;
        ++holders;
        writers += s == MesiState::E || s == MesiState::M;
        states << " cache " << c << ":" << to_string(s);
        if (home && directory_error.empty() && !home->permits(line, c, s))
            directory_error = "cache " + std::to_string(c) + " holds it in " + to_string(s) +
                              " but the directory has " + home->describe(line);
    }
    std::string error;
    if (writers > 1 || (writers == 1 && holders > 1))
        error = "more than one cache may write (or a writer beside readers):" + states.str();
    else if (!directory_error.empty())
        error = directory_error;
    if (error.empty()) return error;
    std::ostringstream msg;
    msg << "coherence violated on line 0x" << std::hex << line << std::dec << ": " << error;
    ++m_violations;
    if (m_first.empty()) m_first = msg.str();
    return msg.str();
}

} // namespace syncron

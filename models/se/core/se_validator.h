#pragma once
// Whether a message is well-formed for one SE: its opcode and variable, then
// the rules of the SE's organization (which asks for one of the rule sets
// below) and, in the hierarchical one, of its overflow policy.
#include <string>

#include "models/protocol/message.h"

namespace syncron {

class SeContext;

class SeValidator {
public:
    explicit SeValidator(const SeContext& cx) : m_cx(cx) {}

    /// Empty if `m` is well-formed for this SE, else the reason.
    std::string validate(const Message& m) const;

    /// Hierarchical organization: levels, IDs in range, and which messages
    /// only the Master SE receives (or never receives); `home` is the
    /// variable's Master SE.
    std::string hierarchical(const Message& m, unsigned home) const;
    /// Flat organization: cores send local-level requests straight to the
    /// Master SE, naming themselves by flat index.
    std::string flat(const Message& m, unsigned home) const;

private:
    /// Three levels: `m` is a member SE's request at its group SE.
    bool from_member(const Message& m, unsigned home) const;
    /// Three levels: `m` is a barrier departure a group SE passes to a member.
    bool departure_for_member(const Message& m, unsigned home) const;

    const SeContext& m_cx;
};

} // namespace syncron

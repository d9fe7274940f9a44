#include "models/se/lt_var_clock.h"

#include <algorithm>
#include <functional>

#include "models/protocol/opcode.h"

namespace syncron {

using sc_core::sc_time;

namespace {
bool is_grant(Opcode op) {
    return (op >= Opcode::lock_grant_global && op <= Opcode::lock_grant_overflow) ||
           (op >= Opcode::sem_grant_global && op <= Opcode::sem_grant_overflow);
}
bool is_sem_post(Opcode op) { return op >= Opcode::sem_post_global && op <= Opcode::sem_post_overflow; }
bool grants(const std::vector<Outgoing>& out) {
    return std::any_of(out.begin(), out.end(), [](const Outgoing& o) { return is_grant(o.msg.op); });
}
} // namespace

sc_time LtVarClock::floor_of(uint64_t var) const {
    const auto it = m_floor.find(var);
    return it == m_floor.end() ? sc_core::SC_ZERO_TIME : it->second;
}

void LtVarClock::raise(uint64_t var, const sc_time& t) {
    sc_time& f = m_floor[var];
    f = std::max(f, t);
}

sc_time LtVarClock::ready(const Message& msg) const {
    switch (primitive_of(msg.op)) {
    case Primitive::semaphore: return sc_core::SC_ZERO_TIME; // bounded by its tokens once served
    case Primitive::condvar: return std::max(floor_of(msg.addr), msg.info ? floor_of(msg.info) : sc_time());
    default: return floor_of(msg.addr);
    }
}

sc_time LtVarClock::served(const Message& msg, const std::vector<Outgoing>& out, const sc_time& end) {
    switch (primitive_of(msg.op)) {
    case Primitive::semaphore: {
        // Only the SE that keeps the count sees a post end with nothing sent.
        if (is_sem_post(msg.op) && out.empty()) {
            auto& heap = m_tokens[msg.addr];
            heap.push_back(end);
            std::push_heap(heap.begin(), heap.end(), std::greater<>());
            return end;
        }
        if (!is_acquire_type(msg.op) || !grants(out)) return end;
        const auto it = m_tokens.find(msg.addr);
        if (it == m_tokens.end()) return end; // granted from the initial count
        auto& heap = it->second;
        std::pop_heap(heap.begin(), heap.end(), std::greater<>());
        const sc_time token = heap.back();
        heap.pop_back();
        if (heap.empty()) m_tokens.erase(it);
        return std::max(end, token);
    }
    case Primitive::lock:
        if (!is_acquire_type(msg.op) || grants(out)) raise(msg.addr, end);
        return end;
    case Primitive::condvar:
        raise(msg.addr, end);
        if (msg.info) raise(msg.info, end); // the wait's lock
        return end;
    default: raise(msg.addr, end); return end;
    }
}

void LtVarClock::prune(const sc_time& now) {
    if (m_floor.size() < m_prune_at) return;
    for (auto it = m_floor.begin(); it != m_floor.end();) it = it->second <= now ? m_floor.erase(it) : std::next(it);
    // Variables still ahead of now stay; grow the threshold so the sweep stays amortized.
    m_prune_at = std::max<std::size_t>(1024, 2 * m_floor.size());
}

std::size_t LtVarClock::tokens(uint64_t var) const {
    const auto it = m_tokens.find(var);
    return it == m_tokens.end() ? 0 : it->second.size();
}

} // namespace syncron

#include "models/coherence/core/directory.h"

#include <algorithm>
#include <stdexcept>

namespace syncron {

namespace {
unsigned index_of(CoherenceMsg m) { return static_cast<unsigned>(m); }
} // namespace

Directory::Directory(unsigned caches) : m_caches(caches) {
    if (caches == 0) throw std::invalid_argument("Directory: at least one cache");
}

Directory::Entry& Directory::entry(uint64_t line) {
    auto [it, inserted] = m_lines.try_emplace(line);
    if (inserted) {
        it->second.sharers.resize(m_caches);
        m_stats.lines_max = std::max<uint64_t>(m_stats.lines_max, m_lines.size());
    }
    return it->second;
}

const Directory::Entry* Directory::find(uint64_t line) const {
    auto it = m_lines.find(line);
    return it == m_lines.end() ? nullptr : &it->second;
}

Directory::Entry& Directory::busy_entry(uint64_t line, const char* what) {
    auto it = m_lines.find(line);
    if (it == m_lines.end() || !it->second.busy)
        throw std::logic_error(std::string("Directory::") + what + ": no transaction on line " + std::to_string(line));
    return it->second;
}

void Directory::forget_if_idle(uint64_t line) {
    auto it = m_lines.find(line);
    if (it != m_lines.end() && it->second.state == State::I && !it->second.busy && it->second.waiting.empty())
        m_lines.erase(it);
}

std::optional<Directory::Plan> Directory::begin(const Request& r) {
    if (!is_request(r.msg)) throw std::invalid_argument(std::string("Directory: ") + to_string(r.msg) + " is a probe");
    if (r.cache >= m_caches)
        throw std::invalid_argument("Directory: cache " + std::to_string(r.cache) + " out of range (" +
                                    std::to_string(m_caches) + " caches)");
    ++m_stats.requests[index_of(r.msg)];
    Entry& e = entry(r.line);
    if (e.busy) {
        e.waiting.push_back(r);
        ++m_stats.queued;
        return std::nullopt;
    }
    e.busy = true;
    ++m_busy;
    m_stats.busy_max = std::max<uint64_t>(m_stats.busy_max, m_busy);
    e.txn = Txn{};
    e.txn.req = r;
    e.txn.was_sharer = e.state == State::S && e.sharers.test(r.cache);

    Plan plan;
    const bool other_owner = e.state == State::EM && e.owner != r.cache;
    switch (r.msg) {
    case CoherenceMsg::get_s:
        if (other_owner) plan.probes.push_back({CoherenceMsg::fwd_get_s, e.owner});
        break;
    case CoherenceMsg::get_m:
        if (other_owner) plan.probes.push_back({CoherenceMsg::fwd_get_m, e.owner});
        if (e.state == State::S)
            for (size_t c = e.sharers.find_first(); c != boost::dynamic_bitset<>::npos; c = e.sharers.find_next(c))
                if (c != r.cache) plan.probes.push_back({CoherenceMsg::inv, static_cast<unsigned>(c)});
        break;
    default: break; // puts: no probes
    }
    for (const Probe& p : plan.probes) ++m_stats.probes[index_of(p.msg)];
    e.txn.pending = static_cast<unsigned>(plan.probes.size());
    return plan;
}

void Directory::answered(uint64_t line, unsigned cache, bool present, bool dirty) {
    Entry& e = busy_entry(line, "answered");
    if (e.txn.pending == 0) throw std::logic_error("Directory::answered: no probe outstanding on this line");
    --e.txn.pending;
    if (e.state == State::EM && cache == e.owner && present) {
        e.txn.owner_data = true;
        e.txn.owner_dirty = dirty;
        e.txn.owner_kept = e.txn.req.msg == CoherenceMsg::get_s;
    }
}

bool Directory::needs_memory(uint64_t line) const {
    const Entry* e = find(line);
    if (!e || !e->busy) return false;
    const Txn& t = e->txn;
    if (t.req.msg == CoherenceMsg::put_m || t.req.msg == CoherenceMsg::put_e) return false;
    if (t.req.msg == CoherenceMsg::get_m && t.was_sharer) return false; // an upgrade keeps its copy
    return !t.owner_data;
}

Directory::Outcome Directory::finish(uint64_t line) {
    Entry& e = busy_entry(line, "finish");
    Txn& t = e.txn;
    if (t.pending) throw std::logic_error("Directory::finish: probes still outstanding");
    Outcome out;
    const unsigned req = t.req.cache;
    switch (t.req.msg) {
    case CoherenceMsg::get_s: {
        // Who else holds the line once the probes have answered.
        boost::dynamic_bitset<> others(m_caches);
        if (e.state == State::S) others = e.sharers;
        if (e.state == State::EM && t.owner_kept) others.set(e.owner);
        others.reset(req);
        out.with_data = true;
        if (others.none()) {
            out.granted = MesiState::E;
            e.state = State::EM;
            e.owner = req;
            e.sharers.reset();
        } else {
            out.granted = MesiState::S;
            e.state = State::S;
            e.sharers = others;
            e.sharers.set(req);
        }
        out.write_back = t.owner_dirty; // memory is brought up to date on a downgrade
        break;
    }
    case CoherenceMsg::get_m:
        out.granted = MesiState::M;
        out.with_data = !t.was_sharer;
        e.state = State::EM;
        e.owner = req;
        e.sharers.reset();
        break;
    case CoherenceMsg::put_m:
    case CoherenceMsg::put_e:
        if (e.state == State::EM && e.owner == req) {
            e.state = State::I;
            e.sharers.reset();
            out.write_back = t.req.msg == CoherenceMsg::put_m;
        } else {
            // The line was taken from the evicting cache by a forward that
            // crossed this put; its data went with the forward's answer.
            ++m_stats.stale_puts;
        }
        break;
    default: break;
    }
    if (out.with_data) ++(t.owner_data ? m_stats.owner_data : m_stats.memory_reads);
    if (out.write_back) ++m_stats.write_backs;
    e.busy = false;
    --m_busy;
    forget_if_idle(line);
    return out;
}

std::optional<Directory::Request> Directory::next_waiting(uint64_t line) {
    auto it = m_lines.find(line);
    if (it == m_lines.end()) return std::nullopt;
    Entry& e = it->second;
    if (e.busy || e.waiting.empty()) {
        forget_if_idle(line);
        return std::nullopt;
    }
    const Request r = e.waiting.front();
    e.waiting.pop_front();
    --m_stats.requests[index_of(r.msg)]; // begin() counts it again
    return r;
}

const Directory::Request& Directory::current(uint64_t line) const {
    const Entry* e = find(line);
    if (!e || !e->busy) throw std::logic_error("Directory::current: no transaction on line " + std::to_string(line));
    return e->txn.req;
}

bool Directory::busy(uint64_t line) const {
    const Entry* e = find(line);
    return e && e->busy;
}

unsigned Directory::pending(uint64_t line) const {
    const Entry* e = find(line);
    return e && e->busy ? e->txn.pending : 0;
}

Directory::State Directory::state(uint64_t line) const {
    const Entry* e = find(line);
    return e ? e->state : State::I;
}

bool Directory::permits(uint64_t line, unsigned cache, MesiState s) const {
    if (s == MesiState::I) return true;
    const Entry* e = find(line);
    if (!e) return false;
    if (e->busy) return true; // in transition: the checker's cache invariant still holds
    switch (e->state) {
    case State::I: return false;
    case State::S: return s == MesiState::S && cache < m_caches && e->sharers.test(cache);
    case State::EM: return e->owner == cache;
    }
    return false;
}

std::string Directory::describe(uint64_t line) const {
    const Entry* e = find(line);
    if (!e) return "I";
    std::string s = e->state == State::I ? "I" : e->state == State::S ? "S" : "EM";
    if (e->state == State::EM) s += " owner " + std::to_string(e->owner);
    if (e->state == State::S) {
        s += " sharers";
        for (size_t c = e->sharers.find_first(); c != boost::dynamic_bitset<>::npos; c = e->sharers.find_next(c))
            s += " " + std::to_string(c);
    }
    if (e->busy)
        s += std::string(" busy (") + to_string(e->txn.req.msg) + " from " + std::to_string(e->txn.req.cache) + ")";
    return s;
}

} // namespace syncron

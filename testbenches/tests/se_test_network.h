#pragma once
// A timing-free network of SeCores for functional tests: every SE-to-SE and
// SE-to-core hop is a FIFO channel; tests decide the delivery order.
// Flat organization: cores send to the Master SE of the variable. Abort
// overflow policy: one fallback-server endpoint per unit; a SoftwareServer
// (a reference of the server the MiSAR-style schemes fall back to) can serve
// what reaches it, or tests read and answer it themselves.
#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/se/core/se_core.h"

namespace syncron::test {

/// syncronVar storage standing in for the Master SE's vault. Stored by
/// 64-byte line, not by byte: the SEs read and write whole syncronVars on
/// every overflow access, and a node per byte made that the fuzzer's
/// hottest allocation.
class MapMemory : public SyncVarMemory {
public:
    void read(uint64_t addr, uint8_t* data, unsigned len) override {
        ++reads;
        for (unsigned i = 0; i < len;) {
            const uint64_t a = addr + i, off = a % kLine;
            const unsigned n = static_cast<unsigned>(std::min<uint64_t>(kLine - off, len - i));
            const auto it = m_lines.find(a - off);
            if (it == m_lines.end())
                std::fill(data + i, data + i + n, uint8_t(0));
            else
                std::copy(it->second.begin() + off, it->second.begin() + off + n, data + i);
            i += n;
        }
    }
    void write(uint64_t addr, const uint8_t* data, unsigned len) override {
        ++writes;
        for (unsigned i = 0; i < len;) {
            const uint64_t a = addr + i, off = a % kLine;
            const unsigned n = static_cast<unsigned>(std::min<uint64_t>(kLine - off, len - i));
            auto& line = m_lines.try_emplace(a - off).first->second; // a new line reads as zeros
            std::copy(data + i, data + i + n, line.begin() + off);
            i += n;
        }
    }
    std::vector<uint8_t> image(uint64_t addr, unsigned len) {
        std::vector<uint8_t> v(len);
        read(addr, v.data(), len);
        --reads;
        return v;
    }
    unsigned reads = 0, writes = 0;

private:
    static constexpr uint64_t kLine = 64;
    std::unordered_map<uint64_t, std::array<uint8_t, kLine>> m_lines;
};

/// Endpoint IDs: SE s is s; core c of unit u is 1000 + u*100 + c; the
/// fallback server of unit u is 5000 + u.
inline int se_ep(unsigned s) { return static_cast<int>(s); }
inline int core_ep(unsigned u, unsigned c) { return 1000 + static_cast<int>(u * 100 + c); }
inline int server_ep(unsigned u) { return 5000 + static_cast<int>(u); }
inline bool is_core_ep(int ep) { return ep >= 1000 && ep < 5000; }
inline bool is_server_ep(int ep) { return ep >= 5000; }

/// The software fallback of the abort overflow policy, as the SEs expect it
/// (docs/protocol.md, "MiSAR-style abort overflow"): it receives local-level
/// requests naming the core by flat index (from diverted cores, and the
/// releases the Master SE forwards), replies to the cores' mailboxes, and
/// when a variable becomes idle reports to its Master SE how many messages
/// for it arrived since the last report (decrease_indexing_counter, info = n).
class SoftwareServer {
public:
    struct Out {
        int to;
        Message msg;
    };
    SoftwareServer(unsigned unit, unsigned cores_per_unit, std::function<unsigned(uint64_t)> home)
        : m_unit(unit), m_cores(cores_per_unit), m_home(std::move(home)) {}

    void handle(const Message& m, std::vector<Out>& out, std::vector<std::string>& errors) {
        Var& v = m_vars[m.addr];
        ++v.received;
        const unsigned who = m.core;
        const auto reply = [&](unsigned flat, Opcode op) {
            Message g{m.addr, op, static_cast<uint16_t>(flat % m_cores), static_cast<uint16_t>(flat / m_cores), 0};
            out.push_back({core_ep(flat / m_cores, flat % m_cores), g});
        };
        const auto bad = [&](const std::string& why) {
            errors.push_back("server " + std::to_string(m_unit) + ": " + why + " [" + to_string(m) + "]");
        };
        switch (m.op) {
        case Opcode::lock_acquire_local:
            // The holder's release travels through the SEs, its next acquire
            // straight here: an acquire by the holder queues behind it.
            if (std::count(v.queue.begin(), v.queue.end(), who)) {
                bad("core already waits for the lock");
            } else if (v.holder < 0) {
                v.holder = static_cast<int>(who);
                reply(who, Opcode::lock_grant_local);
            } else {
                v.queue.push_back(who);
            }
            break;
        case Opcode::lock_release_local:
            if (v.holder != static_cast<int>(who)) {
                bad("release of a lock not held by core " + std::to_string(who));
            } else if (!v.queue.empty()) {
                v.holder = static_cast<int>(v.queue.front());
                v.queue.pop_front();
                reply(static_cast<unsigned>(v.holder), Opcode::lock_grant_local);
            } else {
                v.holder = -1;
            }
            break;
        case Opcode::barrier_wait_local_within_unit:
        case Opcode::barrier_wait_local_across_units:
            v.queue.push_back(who);
            if (v.queue.size() >= m.info) {
                for (unsigned c : v.queue) reply(c, Opcode::barrier_depart_local);
                v.queue.clear();
            }
            break;
        case Opcode::sem_wait_local:
            if (!v.sem_known) v.sem_known = true, v.sem_init = static_cast<int64_t>(m.info);
            if (v.sem_init + v.sem_delta > 0) {
                --v.sem_delta;
                reply(who, Opcode::sem_grant_local);
            } else {
                v.queue.push_back(who);
            }
            break;
        case Opcode::sem_post_local:
            if (!v.queue.empty()) {
                reply(v.queue.front(), Opcode::sem_grant_local);
                v.queue.pop_front();
            } else {
                ++v.sem_delta;
            }
            break;
        case Opcode::cond_signal_local:
        case Opcode::cond_broad_local: break; // an aborted cond_wait never reaches the server: nobody waits here
        default: bad("unexpected message at the fallback server");
        }
        if (v.sem_delta == 0 && v.queue.empty()) v.sem_known = false;
        if (v.holder < 0 && v.queue.empty() && v.sem_delta == 0) { // idle: report and forget
            Message d{m.addr, Opcode::decrease_indexing_counter, 0, static_cast<uint16_t>(m_unit), v.received};
            out.push_back({se_ep(m_home(m.addr)), d});
            reports.push_back(d);
            m_vars.erase(m.addr);
        }
    }
    bool idle() const { return m_vars.empty(); }

    std::vector<Message> reports;

private:
    struct Var {
        int holder = -1;
        std::deque<unsigned> queue; // lock, semaphore and barrier waiters (flat index)
        int64_t sem_init = 0, sem_delta = 0;
        bool sem_known = false;
        uint64_t received = 0;
    };
    unsigned m_unit, m_cores;
    std::function<unsigned(uint64_t)> m_home;
    std::map<uint64_t, Var> m_vars;
};

struct Delivered {
    int from, to;
    Message msg;
};

class SeNetwork {
public:
    static constexpr uint64_t kUnitBytes = 1ull << 20;

    SeNetwork(unsigned units, unsigned cores_per_unit, SeParams params, std::vector<unsigned> client_cores = {})
        : SeNetwork(topology(units, cores_per_unit, std::move(client_cores)), std::vector<SeParams>(units, params)) {}

    /// Any topology (home_unit is set to the network's address split when
    /// empty), one SeParams per SE.
    SeNetwork(SeTopology topo, std::vector<SeParams> params) : m_units(topo.units), m_cores(topo.cores_per_unit) {
        if (!topo.home_unit) topo.home_unit = home_of;
        m_topo = topo;
        memories.resize(m_units);
        for (unsigned u = 0; u < m_units; ++u) {
            ses.emplace_back(u, params.at(u), topo, &memories[u]);
            servers.emplace_back(u, m_cores, topo.home_unit);
        }
    }

    /// The network's default topology: every core a client, variables split by address.
    static SeTopology topology(unsigned units, unsigned cores_per_unit, std::vector<unsigned> client_cores = {}) {
        SeTopology topo;
        topo.units = units;
        topo.cores_per_unit = cores_per_unit;
        topo.client_cores = client_cores.empty() ? std::vector<unsigned>(units, cores_per_unit) : client_cores;
        topo.home_unit = home_of;
        return topo;
    }
    static unsigned home_of(uint64_t a) { return static_cast<unsigned>(a / kUnitBytes); }

    /// Address of the i-th variable homed in `unit` (64-byte aligned).
    static uint64_t var(unsigned unit, unsigned i) { return unit * kUnitBytes + 0x1000 + 64ull * i; }

    /// A core sends a request to its SE (flat: to the variable's Master SE,
    /// naming itself by flat index).
    void send(unsigned unit, unsigned core, Opcode op, uint64_t addr, uint64_t info = 0) {
        if (m_topo.organization == SeOrganization::flat) {
            Message m{addr, op, static_cast<uint16_t>(m_topo.flat_index(unit, core)), static_cast<uint16_t>(unit),
                      info};
            push(core_ep(unit, core), se_ep(m_topo.home_unit(addr)), m);
            return;
        }
        Message m{addr, op, static_cast<uint16_t>(core), static_cast<uint16_t>(unit), info};
        push(core_ep(unit, core), se_ep(unit), m);
    }
    /// Any message on channel from->to (a core to a server, a server's report...).
    void inject(int from, int to, const Message& m) { push(from, to, m); }
    /// A diverted core sends its request to the fallback server of the variable.
    void send_to_server(unsigned unit, unsigned core, Opcode op, uint64_t addr, uint64_t info = 0) {
        Message m{addr, op, static_cast<uint16_t>(m_topo.flat_index(unit, core)), static_cast<uint16_t>(unit), info};
        inject(core_ep(unit, core), server_ep(m_topo.fallback_server(addr)), m);
    }

    /// Delivers the head of channel from->to. Returns false if it is empty.
    bool deliver(int from, int to) {
        auto it = m_channels.find({from, to});
        if (it == m_channels.end() || it->second.empty()) return false;
        const Message m = it->second.pop();
        if (it->second.empty()) m_ready.erase(std::lower_bound(m_ready.begin(), m_ready.end(), it->first));
        if (keep_log) log.push_back({from, to, m});
        if (is_core_ep(to)) {
            core_inbox[to].push_back(m);
            return true;
        }
        if (is_server_ep(to)) {
            server_inbox[to].push_back(m);
            if (serve_software) {
                m_server_out.clear();
                servers[static_cast<unsigned>(to - server_ep(0))].handle(m, m_server_out, errors);
                for (const auto& o : m_server_out) push(to, o.to, o.msg);
            }
            return true;
        }
        m_result.clear(); // reused: one allocation per network, not per message
        ses[to].handle(m, m_result);
        if (!m_result.ok()) errors.push_back(m_result.error);
        for (const auto& o : m_result.out) push(to, endpoint_of(to, o), o.msg);
        return true;
    }

    /// Where SE `from` sends an outgoing message.
    int endpoint_of(int from, const Outgoing& o) const {
        switch (o.dest) {
        case Outgoing::Dest::core:
            return m_topo.organization == SeOrganization::flat ? core_ep(o.id / m_cores, o.id % m_cores)
                                                               : core_ep(static_cast<unsigned>(from), o.id);
        case Outgoing::Dest::server: return server_ep(o.id);
        default: return se_ep(o.id);
        }
    }

    /// Channels with something to deliver, lowest first (a copy).
    std::vector<std::pair<int, int>> ready() const { return m_ready; }
    /// The same without a copy: valid until the next send or delivery, so
    /// copy the chosen channel before delivering it.
    const std::vector<std::pair<int, int>>& ready_channels() const { return m_ready; }

    /// Delivers in a fixed order (lowest channel first) until quiet.
    void run() {
        while (!m_ready.empty()) {
            const auto c = m_ready.front();
            deliver(c.first, c.second);
        }
    }
    /// Delivers in random channel order (each channel FIFO) until quiet.
    void run_random(std::mt19937_64& rng) {
        while (!m_ready.empty()) deliver_random(rng, m_ready);
    }
    void deliver_random(std::mt19937_64& rng, const std::vector<std::pair<int, int>>& r) {
        const auto c = r[std::uniform_int_distribution<size_t>(0, r.size() - 1)(rng)];
        deliver(c.first, c.second);
    }

    /// Messages delivered with this opcode.
    unsigned count(Opcode op) const {
        unsigned n = 0;
        for (const auto& d : log) n += d.msg.op == op;
        return n;
    }
    /// Pops the oldest reply core endpoint `ep` has received; false if none.
    bool take_one(int ep, Message& m) {
        auto& q = core_inbox[ep];
        if (q.empty()) return false;
        m = q.front();
        q.pop_front();
        return true;
    }
    /// Pops the replies a core has received.
    std::vector<Message> take(unsigned unit, unsigned core) {
        auto& q = core_inbox[core_ep(unit, core)];
        std::vector<Message> v(q.begin(), q.end());
        q.clear();
        return v;
    }
    bool counters_zero() const {
        for (const auto& s : ses)
            if (!s.counters().all_zero()) return false;
        return true;
    }
    /// Pops what reached the fallback server of `unit`.
    std::vector<Message> take_server(unsigned unit) {
        auto& q = server_inbox[server_ep(unit)];
        std::vector<Message> v(q.begin(), q.end());
        q.clear();
        return v;
    }
    bool tables_empty() const {
        for (const auto& s : ses)
            if (s.table().occupancy() != 0) return false;
        return true;
    }

    std::vector<MapMemory> memories;
    std::vector<SeCore> ses;
    std::vector<Delivered> log; ///< every delivery, if keep_log (count() reads it)
    bool keep_log = true;
    std::vector<std::string> errors;
    std::map<int, std::deque<Message>> core_inbox;
    std::map<int, std::deque<Message>> server_inbox;
    std::vector<SoftwareServer> servers;
    bool serve_software = false; ///< servers answer what reaches them (else tests do)
    const SeTopology& topo() const { return m_topo; }

private:
    /// A FIFO that keeps its storage while it drains and refills: the
    /// channels of a run see millions of messages, std::deque allocated a
    /// block every few of them.
    class Fifo {
    public:
        bool empty() const { return m_head == m_q.size(); }
        void push(const Message& m) { m_q.push_back(m); }
        Message pop() {
            const Message m = m_q[m_head++];
            if (m_head == m_q.size()) {
                m_q.clear();
                m_head = 0;
            } else if (m_head >= 64 && 2 * m_head >= m_q.size()) { // never empty: drop the consumed front
                m_q.erase(m_q.begin(), m_q.begin() + static_cast<std::ptrdiff_t>(m_head));
                m_head = 0;
            }
            return m;
        }

    private:
        std::vector<Message> m_q;
        size_t m_head = 0;
    };

    void push(int from, int to, const Message& m) {
        const std::pair<int, int> k{from, to};
        Fifo& q = m_channels[k];
        // The non-empty channels, kept sorted as they change: scanning every
        // channel before each step was the checker's hottest loop.
        if (q.empty()) m_ready.insert(std::lower_bound(m_ready.begin(), m_ready.end(), k), k);
        q.push(m);
    }

    unsigned m_units, m_cores;
    SeTopology m_topo;
    std::map<std::pair<int, int>, Fifo> m_channels;
    std::vector<std::pair<int, int>> m_ready; ///< channels with something to deliver, ascending
    SeResult m_result;
    std::vector<SoftwareServer::Out> m_server_out;
};

/// SE parameters with a given ST size and number of indexing counters.
inline SeParams params_with(unsigned st_entries, unsigned counters = 256) {
    SeParams p;
    p.st_entries = st_entries;
    p.indexing_counters = counters;
    return p;
}

/// The opcodes of a list of messages, in order.
inline std::vector<Opcode> ops_of(const std::vector<Message>& v) {
    std::vector<Opcode> o;
    for (const auto& m : v) o.push_back(m.op);
    return o;
}

/// Core (u,c) -> its own SE, delivered now. (Throws rather than using a
/// Catch2 macro: the fuzz targets share this header without Catch2.)
inline void core_sends(SeNetwork& n, unsigned u, unsigned c, Opcode op, uint64_t addr, uint64_t info = 0) {
    n.send(u, c, op, addr, info);
    if (!n.deliver(core_ep(u, c), se_ep(u))) throw std::logic_error("core_sends: the request was not delivered");
}

} // namespace syncron::test

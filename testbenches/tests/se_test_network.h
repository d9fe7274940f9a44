#pragma once
// A timing-free network of SeCores for functional tests: every SE-to-SE and
// SE-to-core hop is a FIFO channel; tests decide the delivery order.
#include <deque>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/se/se_core.h"

namespace syncron::test {

/// syncronVar storage standing in for the Master SE's vault.
class MapMemory : public SyncVarMemory {
public:
    void read(uint64_t addr, uint8_t* data, unsigned len) override {
        ++reads;
        for (unsigned i = 0; i < len; ++i) {
            auto it = bytes.find(addr + i);
            data[i] = it == bytes.end() ? 0 : it->second;
        }
    }
    void write(uint64_t addr, const uint8_t* data, unsigned len) override {
        ++writes;
        for (unsigned i = 0; i < len; ++i) bytes[addr + i] = data[i];
    }
    std::vector<uint8_t> image(uint64_t addr, unsigned len) {
        std::vector<uint8_t> v(len);
        read(addr, v.data(), len);
        --reads;
        return v;
    }
    std::unordered_map<uint64_t, uint8_t> bytes;
    unsigned reads = 0, writes = 0;
};

/// Endpoint IDs: SE s is s; core c of unit u is 1000 + u*100 + c.
inline int se_ep(unsigned s) { return static_cast<int>(s); }
inline int core_ep(unsigned u, unsigned c) { return 1000 + static_cast<int>(u * 100 + c); }

struct Delivered {
    int from, to;
    Message msg;
};

class SeNetwork {
public:
    static constexpr uint64_t kUnitBytes = 1ull << 20;

    SeNetwork(unsigned units, unsigned cores_per_unit, SeParams params,
              std::vector<unsigned> client_cores = {})
        : m_units(units), m_cores(cores_per_unit) {
        SeTopology topo;
        topo.units = units;
        topo.cores_per_unit = cores_per_unit;
        topo.client_cores = client_cores.empty() ? std::vector<unsigned>(units, cores_per_unit) : client_cores;
        topo.home_unit = [](uint64_t a) { return static_cast<unsigned>(a / kUnitBytes); };
        memories.resize(units);
        for (unsigned u = 0; u < units; ++u) ses.emplace_back(u, params, topo, &memories[u]);
    }

    /// Address of the i-th variable homed in `unit` (64-byte aligned).
    static uint64_t var(unsigned unit, unsigned i) { return unit * kUnitBytes + 0x1000 + 64ull * i; }

    /// A core sends a request to its SE.
    void send(unsigned unit, unsigned core, Opcode op, uint64_t addr, uint64_t info = 0) {
        Message m{addr, op, static_cast<uint16_t>(core), static_cast<uint16_t>(unit), info};
        m_channels[{core_ep(unit, core), se_ep(unit)}].push_back(m);
    }

    /// Delivers the head of channel from->to. Returns false if it is empty.
    bool deliver(int from, int to) {
        auto it = m_channels.find({from, to});
        if (it == m_channels.end() || it->second.empty()) return false;
        Message m = it->second.front();
        it->second.pop_front();
        log.push_back({from, to, m});
        if (to >= 1000) {
            core_inbox[to].push_back(m);
            return true;
        }
        SeResult r;
        ses[to].handle(m, r);
        if (!r.ok()) errors.push_back(r.error);
        for (const auto& o : r.out) {
            const int dst = o.dest == Outgoing::Dest::core ? core_ep(to, o.id) : se_ep(o.id);
            m_channels[{to, dst}].push_back(o.msg);
        }
        return true;
    }

    /// Channels with something to deliver.
    std::vector<std::pair<int, int>> ready() const {
        std::vector<std::pair<int, int>> v;
        for (const auto& [k, q] : m_channels)
            if (!q.empty()) v.push_back(k);
        return v;
    }

    /// Delivers in a fixed order (lowest channel first) until quiet.
    void run() {
        for (auto r = ready(); !r.empty(); r = ready()) deliver(r.front().first, r.front().second);
    }
    /// Delivers in random channel order (each channel FIFO) until quiet.
    void run_random(std::mt19937_64& rng) {
        for (auto r = ready(); !r.empty(); r = ready())
            deliver_random(rng, r);
    }
    void deliver_random(std::mt19937_64& rng, const std::vector<std::pair<int, int>>& r) {
        const auto& c = r[std::uniform_int_distribution<size_t>(0, r.size() - 1)(rng)];
        deliver(c.first, c.second);
    }

    /// Messages delivered with this opcode.
    unsigned count(Opcode op) const {
        unsigned n = 0;
        for (const auto& d : log) n += d.msg.op == op;
        return n;
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
    bool tables_empty() const {
        for (const auto& s : ses)
            if (s.table().occupancy() != 0) return false;
        return true;
    }

    std::vector<MapMemory> memories;
    std::vector<SeCore> ses;
    std::vector<Delivered> log;
    std::vector<std::string> errors;
    std::map<int, std::deque<Message>> core_inbox;

private:
    unsigned m_units, m_cores;
    std::map<std::pair<int, int>, std::deque<Message>> m_channels;
};

} // namespace syncron::test

#include "platforms/ndp_platform.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include "models/common/hex.h"
#include "models/schemes/atomics_client.h"
#include "models/schemes/message_client.h"
#include "models/schemes/misar_client.h"
#include "platforms/config/config.h"

namespace syncron {

using sc_core::sc_time;
using sc_core::SC_NS;

namespace {
constexpr const char* kMsgType = "/syncron/platform";
constexpr uint64_t kLine = 64;
/// The first 64 KiB of every unit are left unused so that address 0 is never
/// a valid variable (helps catch uninitialised handles).
constexpr uint64_t kReserved = 0x10000;
} // namespace

/// Address decoding of one unit's crossbar. Output ports, in binding order:
/// vaults, the SE, the mailboxes of the unit's cores (clients, then the
/// server core if the scheme has one here), then one link per other unit.
class NdpPlatform::UnitRouter : public Router {
public:
    UnitRouter(const AddressMap& map, unsigned unit, unsigned vaults, unsigned mailboxes)
        : m_map(map), m_unit(unit), m_vaults(vaults), m_clients(mailboxes) {}

    int se_port() const { return static_cast<int>(m_vaults); }
    int mailbox_port(unsigned core) const { return static_cast<int>(m_vaults + 1 + core); }
    int link_port(unsigned dst) const {
        return static_cast<int>(m_vaults + 1 + m_clients + (dst < m_unit ? dst : dst - 1));
    }

    int route(uint64_t addr) const override {
        const auto d = m_map.decode(addr);
        if (d.kind == AddressMap::Kind::unmapped) return -1;
        if (d.unit != m_unit) return link_port(d.unit);
        switch (d.kind) {
        case AddressMap::Kind::memory: return static_cast<int>(d.index);
        case AddressMap::Kind::se: return se_port();
        case AddressMap::Kind::mailbox: return d.index < m_clients ? mailbox_port(d.index) : -1;
        default: return -1;
        }
    }

private:
    const AddressMap& m_map;
    unsigned m_unit, m_vaults, m_clients;
};

NdpPlatform::NdpPlatform(sc_core::sc_module_name name, const SimParams& params)
    : sc_module(name), m_params(params),
      m_map(params.platform.units, params.platform.cores_per_unit, params.memory),
      m_clients(client_cores_per_unit(params.platform)) {
    validate(m_params);
    m_scheme = *scheme_from_string(m_params.platform.scheme); // validated
    build();
    SC_THREAD(monitor);
    SC_THREAD(watch_interrupt);
}

NdpPlatform::~NdpPlatform() = default;

volatile std::sig_atomic_t NdpPlatform::s_stop_requested = 0;

void NdpPlatform::attach_trace(TraceSink* sink) {
    for (auto& c : m_cores) c->set_trace(sink);
    for (auto& c : m_server_cores) c->set_trace(sink);
    for (auto& u : m_units) {
        u->se->set_trace(sink);
        for (auto& v : u->vaults) v->set_trace(sink);
    }
    for (auto& l : m_links) l->set_trace(sink);
}

void NdpPlatform::trace_var(SyncVar v) {
    for (auto& u : m_units) u->se->trace_var(v);
}

void NdpPlatform::watch_interrupt() {
    // Polls the SIGINT flag every simulated microsecond while the model has
    // anything else to do; never keeps an idle (finished or deadlocked)
    // kernel alive.
    const sc_time period(1, sc_core::SC_US);
    for (;;) {
        wait(period);
        if (m_all_done) return; // only the SEs' drain is left
        if (s_stop_requested) {
            sc_core::sc_stop();
            return;
        }
        if (!sc_core::sc_pending_activity()) return;
    }
}

template <class Initiator, class Target>
void NdpPlatform::connect(Initiator& initiator, Target& target, const std::string& what) {
    if (!m_params.check.protocol) {
        initiator.bind(target);
        return;
    }
    m_checkers.push_back(std::make_unique<ProtocolChecker>(("check_" + what).c_str()));
    initiator.bind(m_checkers.back()->target);
    m_checkers.back()->initiator.bind(target);
}

uint64_t NdpPlatform::protocol_violations() const {
    uint64_t n = 0;
    for (const auto& c : m_checkers) n += c->violations();
    return n;
}

void NdpPlatform::build() {
    const auto& p = m_params.platform;
    const unsigned V = m_params.memory.vaults_per_unit;
    tlm::tlm_global_quantum::instance().set(sc_time(m_params.core.quantum_ns, SC_NS));

    SeTopology topo;
    topo.units = p.units;
    topo.cores_per_unit = p.cores_per_unit;
    topo.client_cores = m_clients;
    const AddressMap* map = &m_map;
    topo.home_unit = [map](uint64_t a) { return map->is_memory(a) ? map->home_unit(a) : map->units(); };
    topo.organization = se_organization(m_scheme);
    topo.overflow = se_overflow(m_scheme);
    if (per_unit_servers(m_scheme))
        topo.fallback_server = topo.home_unit;
    else
        topo.fallback_server = [](uint64_t) { return 0u; };
    const unsigned total_clients = std::accumulate(m_clients.begin(), m_clients.end(), 0u);

    unsigned gid = 0;
    for (unsigned u = 0; u < p.units; ++u) {
        auto unit = std::make_unique<Unit>();
        const std::string prefix = "unit" + std::to_string(u);
        unit->store = std::make_unique<BackingStore>();
        unit->next_free = m_map.unit_base(u) + kReserved;
        const bool server_here = has_server(m_scheme, u);
        unit->router = std::make_unique<UnitRouter>(m_map, u, V, m_clients[u] + (server_here ? 1 : 0));
        unit->xbar = std::make_unique<Crossbar>((prefix + "_xbar").c_str(), m_params.xbar, unit->router.get());
        for (unsigned v = 0; v < V; ++v) {
            unit->vaults.push_back(std::make_unique<VaultController>(
                (prefix + "_vault" + std::to_string(v)).c_str(), u, v, m_params.memory, m_map, *unit->store));
            connect(unit->xbar->out, unit->vaults.back()->socket, prefix + "_vault" + std::to_string(v));
        }
        unit->se = std::make_unique<SeModule>((prefix + "_se").c_str(), u, m_params.se, topo, m_map);
        unit->se->set_timing(p.timing);
        connect(unit->xbar->out, unit->se->in, prefix + "_se_in");
        connect(unit->se->to_cores, unit->xbar->in, prefix + "_se_to_cores");
        connect(unit->se->to_ses, unit->xbar->in, prefix + "_se_to_ses");
        connect(unit->se->to_mem, unit->xbar->in, prefix + "_se_to_mem");
        for (unsigned c = 0; c < m_clients[u]; ++c, ++gid) {
            auto core = std::make_unique<NdpCore>((prefix + "_core" + std::to_string(c)).c_str(), u, c, gid,
                                                  m_params.core, m_map,
                                                  [this](uint64_t a) { return is_cacheable(a); });
            core->set_timing(p.timing);
            const std::string cname = prefix + "_core" + std::to_string(c);
            connect(core->bus, unit->xbar->in, cname + "_bus");
            connect(unit->xbar->out, core->mailbox, cname + "_mailbox");
            m_cores.push_back(std::move(core));
        }
        if (server_here) {
            // The unit's first core after its clients (the paper's 16th core).
            const std::string sname = prefix + "_server";
            auto core = std::make_unique<NdpCore>(sname.c_str(), u, m_clients[u], total_clients + u, m_params.core,
                                                  m_map, [this](uint64_t a) { return is_cacheable(a); });
            core->set_timing(p.timing);
            core->set_server_mailbox(true);
            connect(core->bus, unit->xbar->in, sname + "_bus");
            connect(unit->xbar->out, core->mailbox, sname + "_mailbox");
            m_server_cores.push_back(std::move(core));
        }
        m_units.push_back(std::move(unit));
    }
    // Fully connected: one link per ordered pair, bound in destination order
    // so that UnitRouter::link_port matches.
    for (unsigned u = 0; u < p.units; ++u)
        for (unsigned v = 0; v < p.units; ++v) {
            if (u == v) continue;
            auto link = std::make_unique<Link>(("link" + std::to_string(u) + "to" + std::to_string(v)).c_str(), u, v,
                                               m_params.link);
            const std::string lname = "link" + std::to_string(u) + "to" + std::to_string(v);
            connect(m_units[u]->xbar->out, link->in, lname + "_in");
            connect(link->out, m_units[v]->xbar->in, lname + "_out");
            m_links.push_back(std::move(link));
        }
    // A response travels back over the opposite direction.
    const auto link_of = [&](unsigned u, unsigned v) -> Link* {
        for (auto& l : m_links)
            if (l->src_unit() == u && l->dst_unit() == v) return l.get();
        return nullptr;
    };
    for (auto& l : m_links) l->set_reverse(link_of(l->dst_unit(), l->src_unit()));
    build_scheme(topo);
}

NdpCore& NdpPlatform::core_at(unsigned unit, unsigned local_id) {
    if (unit >= m_clients.size()) throw std::out_of_range("core_at: unit " + std::to_string(unit) + " does not exist");
    if (local_id < m_clients[unit]) {
        const unsigned first = std::accumulate(m_clients.begin(), m_clients.begin() + unit, 0u);
        return *m_cores.at(first + local_id);
    }
    for (auto& s : m_server_cores)
        if (s->unit() == unit && s->local_id() == local_id) return *s;
    throw std::out_of_range("core_at: unit " + std::to_string(unit) + " has no core " + std::to_string(local_id));
}

void NdpPlatform::build_scheme(const SeTopology& topology) {
    const unsigned cpu = m_params.platform.cores_per_unit;
    const auto server_core = [this](unsigned u) { return m_clients.at(u); };
    // Server programs: one SyncServer per server core.
    for (auto& sc : m_server_cores) {
        const unsigned u = sc->unit();
        SyncServer::Config c;
        c.unit = u;
        c.params = m_params.server;
        c.role = m_scheme == Scheme::hier      ? SyncServer::Role::hier
                 : m_scheme == Scheme::central ? SyncServer::Role::central
                                               : SyncServer::Role::fallback;
        c.cached = per_unit_servers(m_scheme) ? m_params.server.per_unit_cached : m_params.server.central_cached;
        c.table_base = allocate(u, uint64_t(m_params.server.table_entries) * kLine,
                                c.cached ? Sharing::private_data : Sharing::shared);
        c.topology = topology;
        c.topology.overflow = OverflowPolicy::integrated;
        if (c.role == SyncServer::Role::hier) {
            c.topology.organization = SeOrganization::hierarchical;
            c.address_of = [this, u, server_core](const Outgoing& o) {
                return o.dest == Outgoing::Dest::core ? m_map.mailbox_address(u, o.id)
                                                      : m_map.mailbox_address(o.id, server_core(o.id));
            };
        } else {
            // Every client is the server's own core; every variable is its own.
            c.topology.organization = SeOrganization::flat;
            c.topology.home_unit = [u](uint64_t) { return u; };
            c.address_of = [this, cpu, server_core](const Outgoing& o) {
                switch (o.dest) {
                case Outgoing::Dest::core: return m_map.mailbox_address(o.id / cpu, o.id % cpu);
                case Outgoing::Dest::server: return m_map.mailbox_address(o.id, server_core(o.id));
                default: return m_map.se_address(o.id);
                }
            };
        }
        c.master_se_of = [this](uint64_t var) { return m_map.se_address(m_map.is_memory(var) ? m_map.home_unit(var) : 0); };
        m_servers.push_back(std::make_unique<SyncServer>(std::move(c)));
        SyncServer* server = m_servers.back().get();
        NdpCore* core = sc.get();
        core->set_program([server, core](CoreApi&) { server->run(*core); });
    }
    // The clients behind the cores' Table 2 calls.
    const auto for_every_core = [this](SyncClient* client) {
        for (auto& c : m_cores) c->set_sync_client(client);
    };
    switch (m_scheme) {
    case Scheme::syncron: break; // NdpCore's default
    case Scheme::flat:
        m_clients_of_scheme.push_back(MessageClient::flat(m_map));
        for_every_core(m_clients_of_scheme.back().get());
        break;
    case Scheme::central:
        m_clients_of_scheme.push_back(MessageClient::central(m_map, 0, server_core(0)));
        for_every_core(m_clients_of_scheme.back().get());
        break;
    case Scheme::hier:
        m_clients_of_scheme.push_back(MessageClient::hier(m_map, server_core));
        for_every_core(m_clients_of_scheme.back().get());
        break;
    case Scheme::ideal:
        m_ideal = std::make_unique<IdealHub>(topology, [this, cpu](unsigned i) -> NdpCore& {
            return core_at(i / cpu, i % cpu);
        });
        m_clients_of_scheme.push_back(std::make_unique<IdealClient>(*m_ideal));
        for_every_core(m_clients_of_scheme.back().get());
        break;
    case Scheme::remote_atomics:
        for (auto& c : m_cores) {
            m_clients_of_scheme.push_back(
                std::make_unique<AtomicsClient>(m_params.atomics, m_params.workload.seed, c->global_id()));
            c->set_sync_client(m_clients_of_scheme.back().get());
        }
        break;
    case Scheme::syncron_central_ovrfl:
    case Scheme::syncron_distrib_ovrfl:
        for (auto& c : m_cores) {
            m_clients_of_scheme.push_back(std::make_unique<MisarClient>(m_map, topology.fallback_server, server_core,
                                                                        m_params.misar.retry_backoff));
            c->set_sync_client(m_clients_of_scheme.back().get());
        }
        break;
    }
}

void NdpPlatform::load(Workload& workload) {
    if (m_loaded) throw std::logic_error("NdpPlatform::load called twice");
    workload.setup(*this);
    for (auto& core : m_cores) core->set_program([&workload](CoreApi& api) { workload.run(api); });
    m_loaded = true;
}

void NdpPlatform::monitor() {
    for (auto& core : m_cores)
        if (!core->done()) wait(core->done_event());
    m_finish = sc_core::sc_time_stamp();
    for (auto& core : m_cores) m_finish = std::max(m_finish, core->finish_time());
    m_all_done = true;
    for (auto& f : m_on_finished) f();
    // No sc_stop: the SEs drain what is still in flight (releases, counter
    // decrements) and the kernel stops when no event is left.
}

bool NdpPlatform::run() {
    sc_core::sc_start();
    if (m_finish == sc_core::SC_ZERO_TIME) m_finish = sc_core::sc_time_stamp();
    return unfinished_cores() == 0;
}

unsigned NdpPlatform::unfinished_cores() const {
    unsigned n = 0;
    for (const auto& c : m_cores) n += !c->done();
    return n;
}

// ---------------------------------------------------------------- driver

uint64_t NdpPlatform::allocate(unsigned unit, uint64_t bytes, Sharing sharing) {
    if (unit >= m_units.size())
        throw std::invalid_argument("allocate: unit " + std::to_string(unit) + " does not exist");
    Unit& u = *m_units[unit];
    const uint64_t size = std::max<uint64_t>(kLine, (bytes + kLine - 1) / kLine * kLine);
    const uint64_t base = u.next_free;
    if (base + size > m_map.unit_base(unit) + m_map.unit_bytes())
        throw std::runtime_error("allocate: unit " + std::to_string(unit) + " memory exhausted");
    u.next_free += size;
    // Allocation is monotonic per unit, and units are contiguous ranges, so
    // keeping the list sorted is an insert near the end.
    Region r{base, base + size, sharing};
    auto it = std::upper_bound(m_regions.begin(), m_regions.end(), base,
                               [](uint64_t a, const Region& x) { return a < x.begin; });
    m_regions.insert(it, r);
    return base;
}

bool NdpPlatform::is_cacheable(uint64_t addr) const {
    auto it = std::upper_bound(m_regions.begin(), m_regions.end(), addr,
                               [](uint64_t a, const Region& x) { return a < x.begin; });
    if (it == m_regions.begin()) return false;
    --it;
    return addr < it->end && it->sharing != Sharing::shared;
}

SyncVar NdpPlatform::create_syncvar(unsigned home_unit) {
    // The driver allocates a syncronVar (Figure 9) in the home unit's memory;
    // its address is the opaque handle. It is never cached.
    const unsigned bytes = m_units.at(home_unit)->se->core().layout().bytes();
    const SyncVar v = allocate(home_unit, bytes, Sharing::shared);
    m_syncvars.push_back(v);
    return v;
}

void NdpPlatform::destroy_syncvar(SyncVar v) {
    auto it = std::find(m_syncvars.begin(), m_syncvars.end(), v);
    if (it == m_syncvars.end())
        throw std::invalid_argument("destroy_syncvar: " + std::to_string(v) + " is not a synchronization variable");
    m_syncvars.erase(it);
}

BackingStore& NdpPlatform::store_of(uint64_t addr) {
    if (!m_map.is_memory(addr)) throw std::invalid_argument("address " + std::to_string(addr) + " is not memory");
    return *m_units[m_map.home_unit(addr)]->store;
}

uint64_t NdpPlatform::read(uint64_t addr, unsigned size) {
    uint8_t buf[8] = {};
    store_of(addr).read(addr, buf, std::min(size, 8u));
    uint64_t v = 0;
    for (unsigned i = 0; i < std::min(size, 8u); ++i) v |= uint64_t(buf[i]) << (8 * i);
    return v;
}

void NdpPlatform::write(uint64_t addr, uint64_t value, unsigned size) {
    uint8_t buf[8];
    for (unsigned i = 0; i < 8; ++i) buf[i] = static_cast<uint8_t>(value >> (8 * i));
    store_of(addr).write(addr, buf, std::min(size, 8u));
}

// ---------------------------------------------------------------- statistics

nlohmann::json NdpPlatform::stats_json() const {
    // Statistics are taken at the model's end (the last core finishing), not
    // at the kernel's time, which pollers may have moved on.
    const bool finished = m_finish > sc_core::SC_ZERO_TIME;
    const sc_time end = finished ? m_finish : sc_core::sc_time_stamp();
    return stats_of(*this, StatContext{end.value(), finished});
}

// The walk over the providers (docs/stats.md): per-instance groups become the
// arrays se[], links[], memory.vaults[]; counters of many instances are summed.
void NdpPlatform::report_stats(const StatContext& ctx, nlohmann::json& j) const {
    using nlohmann::json;
    j["simulated_ns"] = m_finish.to_seconds() * 1e9;
    json ses = json::array();
    uint64_t xbar_bytes = 0;
    for (const auto& u : m_units) {
        ses.push_back(stats_of(*u->se, ctx));
        xbar_bytes += stats_of(*u->xbar, ctx).at("bytes").get<uint64_t>();
    }
    j["se"] = ses;
    j["se_used"] = uses_ses(m_scheme); // the SEs exist on every platform but only SynCron schemes use them
    // Every synchronization message by opcode, counted once where it was
    // sent: by an SE or by a core (client or server). Client cores' other
    // counters add up to cores_summary.
    json kinds = json::object();
    for (const auto& se : ses) accumulate_stats(kinds, se.at("messages_sent"));
    json cores = json::object();
    for (const auto& c : m_cores) {
        json group = stats_of(*c, ctx);
        accumulate_stats(kinds, take_stat(group, "messages_sent"));
        accumulate_stats(cores, group);
    }
    for (const auto& c : m_server_cores) accumulate_stats(kinds, stats_of(*c, ctx).at("messages_sent"));
    uint64_t all_messages = 0;
    for (const auto& n : kinds) all_messages += n.get<uint64_t>();
    j["messages_by_kind"] = kinds;
    j["sync_messages"] = all_messages;
    const uint64_t abort_local_messages = kinds.value(std::string(to_string(Opcode::abort_local)), uint64_t{0});

    // ---- scheme statistics (server cores, remote atomics, MiSAR-style
    //      overflow, ideal hub): to become one call to the scheme's report.
    if (!m_servers.empty()) {
        json servers = json::array();
        double busy_sum = 0;
        for (size_t i = 0; i < m_servers.size(); ++i) {
            const SyncServer& sv = *m_servers[i];
            const NdpCore& core = *m_server_cores[i];
            const double busy_ns = sv.stats().busy.to_seconds() * 1e9;
            const double frac = m_finish > sc_core::SC_ZERO_TIME ? busy_ns / (m_finish.to_seconds() * 1e9) : 0.0;
            busy_sum += frac;
            json sj = {{"unit", sv.unit()},
                       {"core", core.local_id()},
                       {"messages_handled", sv.stats().handled},
                       {"busy_ns", busy_ns},
                       {"busy_fraction", frac},
                       {"instructions", core.stats().instructions},
                       {"table_occupancy", sv.se_core().table().occupancy()}};
            if (sv.role() == SyncServer::Role::fallback) {
                sj["reports"] = sv.stats().reports;
                sj["diverted_served"] = sv.stats().diverted_served;
                sj["unreported"] = sv.unreported();
            }
            servers.push_back(sj);
        }
        j["servers"] = servers;
        j["server_busy_fraction"] = busy_sum / m_servers.size();
    }
    if (m_scheme == Scheme::remote_atomics) {
        uint64_t ops[3] = {0, 0, 0}, failures = 0, attempts_failed = 0;
        for (const auto& c : m_cores) {
            for (unsigned i = 0; i < 3; ++i) ops[i] += c->stats().atomics[i];
            failures += c->stats().cas_failures;
        }
        for (const auto& cl : m_clients_of_scheme)
            if (const auto* a = dynamic_cast<const AtomicsClient*>(cl.get())) attempts_failed += a->failed_attempts();
        j["atomics"] = {{"cas", ops[0]}, {"swap", ops[1]}, {"faa", ops[2]}, {"cas_failures", failures},
                        {"failed_attempts", attempts_failed}};
    }
    if (se_overflow(m_scheme) == OverflowPolicy::abort) {
        uint64_t fallbacks = 0, retries = 0;
        for (const auto& cl : m_clients_of_scheme)
            if (const auto* mc = dynamic_cast<const MisarClient*>(cl.get()))
                fallbacks += mc->fallbacks(), retries += mc->retries();
        j["misar"] = {{"aborts", abort_local_messages},
                      {"fallbacks", fallbacks},
                      {"retries", retries}};
    }
    if (m_ideal) j["ideal"] = {{"requests", m_ideal->requests()}};
    // ---- end of scheme statistics

    json vars = json::array(); // what --trace-var accepts
    for (size_t i = 0; i < m_syncvars.size() && i < 16; ++i) vars.push_back(hex(m_syncvars[i]));
    j["sync_variables"] = vars;
    uint64_t link_bytes = 0;
    json links = json::array();
    for (const auto& l : m_links) {
        links.push_back(stats_of(*l, ctx));
        link_bytes += links.back().at("bytes").get<uint64_t>();
    }
    j["links"] = links;
    if (m_params.check.protocol) {
        uint64_t violations = 0;
        for (const auto& c : m_checkers) violations += stats_of(*c, ctx).at("violations").get<uint64_t>();
        j["protocol_violations"] = violations;
    }
    j["bytes_within_units"] = xbar_bytes;
    j["bytes_across_links"] = link_bytes;
    // Requests summed over every vault; vaults[] lists only the vaults used.
    json memory = {{"reads", uint64_t{0}}, {"writes", uint64_t{0}}, {"atomics", uint64_t{0}}};
    json vaults = json::array();
    for (const auto& u : m_units)
        for (const auto& v : u->vaults) {
            json group = stats_of(*v, ctx);
            for (auto it = memory.begin(); it != memory.end(); ++it)
                it.value() = it.value().get<uint64_t>() + take_stat(group, it.key()).get<uint64_t>();
            if (group.at("accesses").get<uint64_t>() > 0) vaults.push_back(std::move(group));
        }
    memory["vaults"] = vaults;
    j["memory"] = memory;
    cores["unfinished"] = unfinished_cores();
    j["cores_summary"] = cores;
}

} // namespace syncron

#include "platforms/ndp_platform.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include "models/common/hex.h"
#include "models/common/latency_samples.h"
#include "models/schemes/scheme_factory.h"
#include "models/se/core/syncron_var.h"
#include "platforms/config/config.h"
#include "platforms/lock_fairness_report.h"

namespace syncron {

using sc_core::sc_time;
using sc_core::SC_NS;

namespace {
constexpr const char* kPlatformMsgType = "/syncron/platform";
constexpr uint64_t kLine = 64;
/// The first 64 KiB of every unit are left unused so that address 0 is never
/// a valid variable (helps catch uninitialised handles).
constexpr uint64_t kReserved = 0x10000;

const SimParams& validated(const SimParams& p) {
    validate(p);
    return p;
}

/// The platform as the address map, the SEs and the schemes see it: with
/// core.threads = N every hardware context is a core there (its mailbox, its
/// bit in the waiting lists), N per hardware core (docs/ndp_core.md).
SimParams contexts_view(const SimParams& p) {
    SimParams c = p;
    c.platform.cores_per_unit *= p.core.threads;
    c.platform.client_cores *= p.core.threads;
    return c;
}

std::vector<unsigned> client_contexts_per_unit(const SimParams& p) {
    std::vector<unsigned> split = client_cores_per_unit(p.platform); // hardware cores
    for (unsigned& n : split) n *= p.core.threads;
    return split;
}
} // namespace

/// Address decoding of one unit's crossbar. Output ports, in binding order:
/// vaults, the SE, the mailboxes of the unit's cores (clients, then the
/// server core if the scheme has one here), one link per other unit, then the
/// coherence directory when the platform has one.
class NdpPlatform::UnitRouter : public Router {
public:
    UnitRouter(const AddressMap& map, unsigned unit, unsigned vaults, unsigned mailboxes, bool directory)
        : m_map(map), m_unit(unit), m_vaults(vaults), m_clients(mailboxes), m_directory(directory) {}

    int se_port() const { return static_cast<int>(m_vaults); }
    int mailbox_port(unsigned core) const { return static_cast<int>(m_vaults + 1 + core); }
    int link_port(unsigned dst) const {
        return static_cast<int>(m_vaults + 1 + m_clients + (dst < m_unit ? dst : dst - 1));
    }

    int directory_port() const { return m_directory ? link_port(m_map.units()) : -1; }

    int route(uint64_t addr) const override {
        const auto d = m_map.decode(addr);
        if (d.kind == AddressMap::Kind::unmapped) return -1;
        if (d.kind == AddressMap::Kind::directory && !m_directory) return -1;
        if (d.unit != m_unit) return link_port(d.unit);
        switch (d.kind) {
        case AddressMap::Kind::memory: return static_cast<int>(d.index);
        case AddressMap::Kind::se: return se_port();
        case AddressMap::Kind::directory: return directory_port();
        case AddressMap::Kind::mailbox: return d.index < m_clients ? mailbox_port(d.index) : -1;
        default: return -1;
        }
    }

private:
    const AddressMap& m_map;
    unsigned m_unit, m_vaults, m_clients;
    bool m_directory;
};

NdpPlatform::NdpPlatform(sc_core::sc_module_name name, const SimParams& params)
    : sc_module(name), m_params(contexts_view(validated(params))),
      m_map(m_params.platform.units, m_params.platform.cores_per_unit, params.memory),
      m_clients(client_contexts_per_unit(params)) {
    m_scheme = make_scheme(m_params.platform.scheme);
    m_coherence = m_scheme->coherent_syncvars() || m_params.coherence.shared_data;
    build();
    SC_THREAD(monitor);
    SC_THREAD(watch_interrupt);
}

NdpPlatform::~NdpPlatform() = default;

void NdpPlatform::attach_trace(TraceSink* sink) {
    for (auto& c : m_cores) c->set_trace(sink);
    for (NdpCore* c : m_scheme->server_cores()) c->set_trace(sink);
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
    // Polls the stop flag (SIGINT, SIGTERM, SIGHUP) every simulated
    // microsecond while the model has anything else to do; never keeps an
    // idle (finished or deadlocked) kernel alive. Checked at time 0 too: a
    // signal during sc_start's own elaboration stops before anything runs far.
    const sc_time period(1, sc_core::SC_US);
    if (stop_requested()) {
        sc_core::sc_stop();
        return;
    }
    for (;;) {
        wait(period);
        if (m_all_done) return; // only the SEs' drain is left
        if (stop_requested()) {
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

    SeTopology& topo = m_topology;
    topo.units = p.units;
    topo.cores_per_unit = p.cores_per_unit;
    topo.client_cores = m_clients;
    topo.units_per_group = p.units_per_group;
    const AddressMap* map = &m_map;
    topo.home_unit = [map](uint64_t a) { return map->is_memory(a) ? map->home_unit(a) : map->units(); };
    m_scheme->configure(topo); // the SEs' organization and overflow policy
    const unsigned total_clients = std::accumulate(m_clients.begin(), m_clients.end(), 0u);
    // The contexts of one hardware core share its pipeline and its L1, in
    // equal shares of the sets (docs/ndp_core.md, "Multi-threaded cores").
    const unsigned threads = m_params.core.threads;
    CoreParams context_params = m_params.core;
    context_params.l1_bytes /= threads;
    const sc_time switch_time =
        sc_time::from_value(sc_time(1.0 / m_params.core.clock_ghz, SC_NS).value() * m_params.core.switch_cycles);

    unsigned gid = 0;
    for (unsigned u = 0; u < p.units; ++u) {
        auto unit = std::make_unique<Unit>();
        const std::string prefix = "unit" + std::to_string(u);
        unit->store = std::make_unique<BackingStore>();
        unit->next_free = m_map.unit_base(u) + kReserved;
        const unsigned servers = m_scheme->servers_in(u);
        unit->router = std::make_unique<UnitRouter>(m_map, u, V, m_clients[u] + servers, m_coherence);
        unit->xbar = std::make_unique<Crossbar>((prefix + "_xbar").c_str(), m_params.xbar, unit->router.get());
        for (unsigned v = 0; v < V; ++v) {
            unit->vaults.push_back(std::make_unique<VaultController>((prefix + "_vault" + std::to_string(v)).c_str(), u,
                                                                     v, m_params.memory, m_map, *unit->store));
            connect(unit->xbar->out, unit->vaults.back()->socket, prefix + "_vault" + std::to_string(v));
        }
        unit->se = std::make_unique<SeModule>((prefix + "_se").c_str(), u, m_params.se, topo, m_map);
        unit->se->set_timing(p.timing);
        unit->se->set_upstream_queue(m_params.xbar.queue_depth);
        connect(unit->xbar->out, unit->se->in, prefix + "_se_in");
        connect(unit->se->to_cores, unit->xbar->in, prefix + "_se_to_cores");
        connect(unit->se->to_ses, unit->xbar->in, prefix + "_se_to_ses");
        connect(unit->se->to_mem, unit->xbar->in, prefix + "_se_to_mem");
        for (unsigned c = 0; c < m_clients[u]; ++c, ++gid) {
            auto core =
                std::make_unique<NdpCore>((prefix + "_core" + std::to_string(c)).c_str(), u, c, gid, context_params,
                                          m_map, [this](uint64_t a) { return is_cacheable(a); });
            core->set_timing(p.timing);
            if (threads > 1) {
                if (c % threads == 0) m_pipelines.push_back(std::make_unique<CorePipeline>(threads, switch_time));
                core->set_pipeline(m_pipelines.back().get(), c % threads);
            }
            if (m_coherence)
                core->set_coherence([this](uint64_t a) { return coherent_class(a); },
                                    [this](uint64_t line) { check_coherence(line); });
            const std::string cname = prefix + "_core" + std::to_string(c);
            connect(core->bus, unit->xbar->in, cname + "_bus");
            connect(unit->xbar->out, core->mailbox, cname + "_mailbox");
            m_cores.push_back(std::move(core));
        }
        for (unsigned s = 0; s < servers; ++s) {
            // The unit's first cores after its clients (the paper's 16th
            // core), built and connected here, run by the scheme.
            const std::string sname = prefix + "_server" + (s ? std::to_string(s) : std::string());
            auto core = std::make_unique<NdpCore>(sname.c_str(), u, m_clients[u] + s, total_clients + u + s,
                                                  m_params.core, m_map, [this](uint64_t a) { return is_cacheable(a); });
            core->set_timing(p.timing);
            connect(core->bus, unit->xbar->in, sname + "_bus");
            connect(unit->xbar->out, core->mailbox, sname + "_mailbox");
            m_scheme->adopt_server(std::move(core));
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
    // A checker must see every hop: with checkers the accesses take the sockets.
    if (p.timing == Timing::lt && !m_params.check.protocol) build_direct_paths();
    if (m_coherence) {
        // The directories' ports come after the links (UnitRouter::directory_port).
        for (unsigned u = 0; u < p.units; ++u) {
            const std::string prefix = "unit" + std::to_string(u);
            Unit& unit = *m_units[u];
            unit.directory = std::make_unique<DirectoryModule>((prefix + "_directory").c_str(), u, m_params.coherence,
                                                               m_params.core, m_map);
            unit.directory->set_timing(p.timing);
            connect(unit.xbar->out, unit.directory->in, prefix + "_directory_in");
            connect(unit.directory->out, unit.xbar->in, prefix + "_directory_out");
        }
        build_coherence_checker();
    }
    m_scheme->build(*this); // server programs, and a client behind every client core
}

void NdpPlatform::build_direct_paths() {
    const unsigned units = m_params.platform.units;
    m_direct_units.resize(units);
    for (unsigned u = 0; u < units; ++u) {
        Unit& unit = *m_units[u];
        const UnitRouter& router = *unit.router;
        UnitDirectPath::Unit& d = m_direct_units[u];
        d.xbar = &unit.xbar->timing();
        for (unsigned v = 0; v < unit.vaults.size(); ++v)
            d.vaults.push_back({v, &unit.vaults[v]->socket.get_base_interface()});
        d.se = {static_cast<unsigned>(router.se_port()), &unit.se->in.get_base_interface()};
        d.link_to.assign(units, nullptr);
        d.link_port.assign(units, 0);
        for (auto& l : m_links) {
            if (l->src_unit() != u) continue;
            d.link_to[l->dst_unit()] = &l->timing();
            d.link_port[l->dst_unit()] = static_cast<unsigned>(router.link_port(l->dst_unit()));
        }
    }
    std::vector<NdpCore*> cores;
    for (auto& c : m_cores) cores.push_back(c.get());
    for (NdpCore* c : m_scheme->server_cores()) cores.push_back(c);
    for (NdpCore* c : cores) {
        auto& boxes = m_direct_units[c->unit()].mailboxes;
        if (boxes.size() <= c->local_id()) boxes.resize(c->local_id() + 1);
        boxes[c->local_id()] = {static_cast<unsigned>(m_units[c->unit()]->router->mailbox_port(c->local_id())),
                                &c->mailbox.get_base_interface()};
    }
    for (unsigned u = 0; u < units; ++u)
        m_direct_paths.push_back(std::make_unique<UnitDirectPath>(m_map, u, m_direct_units));
    for (NdpCore* c : cores) c->set_direct_path(m_direct_paths[c->unit()].get());
    for (unsigned u = 0; u < units; ++u) m_units[u]->se->set_direct_path(m_direct_paths[u].get());
}

uint64_t NdpPlatform::direct_transports() const {
    uint64_t n = 0;
    for (const auto& p : m_direct_paths) n += p->transports();
    return n;
}

void NdpPlatform::build_coherence_checker() {
    m_caches.assign(size_t(m_params.platform.units) * m_params.platform.cores_per_unit, nullptr);
    for (auto& c : m_cores) m_caches.at(size_t(c->unit()) * m_params.platform.cores_per_unit + c->local_id()) = c.get();
    if (!m_params.check.coherence) return;
    m_coherence_checker = std::make_unique<CoherenceChecker>(
        static_cast<unsigned>(m_caches.size()),
        [this](unsigned cache, uint64_t line) {
            const NdpCore* c = m_caches[cache];
            return c ? c->l1().state(line) : MesiState::I;
        },
        [this](uint64_t line) -> const Directory* {
            return m_map.is_memory(line) ? &m_units[m_map.home_unit(line)]->directory->directory() : nullptr;
        });
}

void NdpPlatform::check_coherence(uint64_t line) {
    if (!m_coherence_checker) return;
    const std::string error = m_coherence_checker->check(line);
    if (!error.empty()) SC_REPORT_ERROR("/syncron/coherence", error.c_str());
}

uint64_t NdpPlatform::messages_sent(Opcode op) const {
    const unsigned i = static_cast<unsigned>(op);
    uint64_t n = 0;
    for (const auto& u : m_units) n += u->se->core().stats().sent[i];
    for (const auto& c : m_cores) n += c->stats().messages_sent[i];
    for (const NdpCore* c : m_scheme->server_cores()) n += c->stats().messages_sent[i];
    return n;
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
    return allocate_region(unit, bytes, sharing, false);
}

uint64_t NdpPlatform::allocate_region(unsigned unit, uint64_t bytes, Sharing sharing, bool syncvar) {
    if (unit >= m_units.size())
        throw std::invalid_argument("allocate: unit " + std::to_string(unit) + " does not exist");
    Unit& u = *m_units[unit];
    const uint64_t size = std::max<uint64_t>(kLine, (bytes + kLine - 1) / kLine * kLine);
    const uint64_t base = u.next_free;
    if (base + size > m_map.unit_base(unit) + m_map.unit_bytes())
        throw std::runtime_error("allocate: unit " + std::to_string(unit) + " memory exhausted");
    u.next_free += size;
    // Per unit, not one list: allocations round-robin over the units would
    // otherwise insert into the middle of a sorted vector (quadratic start-up).
    // An allocation right after one of the same kind (sharing, variable or
    // not) extends its region: the lookup on every access (region_of)
    // searches runs of one kind, not allocations.
    Region* last = u.regions.empty() ? nullptr : &u.regions.back();
    if (last && last->syncvar == syncvar && last->sharing == sharing && last->end == base)
        last->end = base + size;
    else
        u.regions.push_back(Region{base, base + size, sharing, syncvar});
    return base;
}

uint64_t NdpPlatform::free_bytes(unsigned unit) const {
    const Unit& u = *m_units.at(unit);
    return m_map.unit_base(unit) + m_map.unit_bytes() - u.next_free;
}

const NdpPlatform::Region* NdpPlatform::region_of(uint64_t addr) const {
    const unsigned unit = m_map.home_unit(addr);
    if (unit >= m_units.size()) return nullptr;
    const auto& regions = m_units[unit]->regions;
    auto it =
        std::upper_bound(regions.begin(), regions.end(), addr, [](uint64_t a, const Region& x) { return a < x.begin; });
    if (it == regions.begin()) return nullptr;
    --it;
    return addr < it->end ? &*it : nullptr;
}

bool NdpPlatform::is_cacheable(uint64_t addr) const {
    const Region* r = region_of(addr);
    return r && r->sharing != Sharing::shared;
}

NdpCore::Coherent NdpPlatform::coherent_class(uint64_t addr) const {
    const Region* r = region_of(addr);
    if (!r || r->sharing != Sharing::shared) return NdpCore::Coherent::no;
    if (r->syncvar) return m_scheme->coherent_syncvars() ? NdpCore::Coherent::sync : NdpCore::Coherent::no;
    return m_params.coherence.shared_data ? NdpCore::Coherent::data : NdpCore::Coherent::no;
}

SyncVar NdpPlatform::create_syncvar(unsigned home_unit) {
    // The driver allocates a syncronVar (Figure 9) in the home unit's memory;
    // its address is the opaque handle. It is never cached.
    const unsigned bytes = m_units.at(home_unit)->se->core().layout().bytes();
    const SyncVar v = allocate_region(home_unit, bytes, Sharing::shared, true);
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

// Request-to-grant latencies of the client cores' blocking calls by kind, and
// how the lock acquisitions spread over the cores (docs/stats.md).
void NdpPlatform::report_sync_latency(nlohmann::json& j) const {
    using nlohmann::json;
    const double ticks_per_ns = static_cast<double>(sc_time(1, sc_core::SC_NS).value());
    json latency = json::object();
    for (unsigned k = 0; k < NdpCore::kBlockingCalls; ++k) {
        LatencySamples all;
        for (const auto& c : m_cores) all.merge(c->stats().sync_latency[k]);
        if (all.count() > 0)
            latency[NdpCore::blocking_call_name(static_cast<NdpCore::BlockingCall>(k))] = all.to_json(ticks_per_ns);
    }
    j["sync_latency"] = latency;
    LockFairnessInput in;
    in.units = static_cast<unsigned>(m_units.size());
    in.ticks_per_ns = ticks_per_ns;
    for (const auto& c : m_cores) {
        in.waits.push_back(&c->stats().sync_latency[static_cast<unsigned>(NdpCore::BlockingCall::lock_acquire)]);
        in.unit_of_core.push_back(c->unit());
    }
    if (m_scheme->uses_ses()) // hand-offs are counted where the SEs grant
        for (const auto& u : m_units) in.ses.push_back(&u->se->core().stats());
    json fairness = lock_fairness_report(in);
    if (!fairness.is_null()) j["lock_fairness"] = std::move(fairness);
}

// The MESI directories and the L1s' side of the protocol (docs/stats.md,
// "coherence"): per-directory groups, their sums (maxima as maxima), and
// what the client cores sent and answered.
void NdpPlatform::report_coherence(const StatContext& ctx, nlohmann::json& j) const {
    using nlohmann::json;
    json dirs = json::array();
    json total = json::object();
    uint64_t lines_max = 0, busy_max = 0;
    for (const auto& u : m_units) {
        json d = stats_of(*u->directory, ctx);
        lines_max = std::max(lines_max, d.at("lines_tracked_max").get<uint64_t>());
        busy_max = std::max(busy_max, d.at("lines_busy_max").get<uint64_t>());
        accumulate_stats(total, d);
        dirs.push_back(std::move(d));
    }
    total["lines_tracked_max"] = lines_max; // of one directory
    total["lines_busy_max"] = busy_max;
    std::array<uint64_t, kCoherenceMsgCount> sent{}, probes{};
    uint64_t deferred = 0, atomics = 0;
    for (const auto& c : m_cores) {
        for (unsigned m = 0; m < kCoherenceMsgCount; ++m) {
            sent[m] += c->stats().coherence_sent[m];
            probes[m] += c->stats().coherence_probes[m];
        }
        deferred += c->stats().coherence_deferred;
        atomics += c->stats().coherent_atomics;
    }
    const auto name = [](size_t m) { return to_string(static_cast<CoherenceMsg>(m)); };
    total["core_requests"] = nonzero_counts(sent, name);
    total["core_probes_answered"] = nonzero_counts(probes, name);
    total["core_probes_deferred"] = deferred;
    total["core_atomics_in_l1"] = atomics;
    if (m_coherence_checker) {
        total["checker"] = {{"checks", m_coherence_checker->checks()},
                            {"violations", m_coherence_checker->violations()}};
    }
    total["directories"] = dirs;
    j["coherence"] = total;
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
    j["se_used"] = m_scheme->uses_ses(); // the SEs exist on every platform but only SynCron schemes use them
    // Every synchronization message by opcode, counted once where it was
    // sent: by an SE or by a core (client or server). Client cores' other
    // counters add up to cores_summary.
    json kinds = json::object();
    for (const auto& se : ses) accumulate_stats(kinds, se.at("messages_sent"));
    json cores = json::object();
    uint64_t sync_requests = 0; // Table 2 calls of the client cores, whatever the scheme makes of them
    for (const auto& c : m_cores) {
        json group = stats_of(*c, ctx);
        accumulate_stats(kinds, take_stat(group, "messages_sent"));
        sync_requests += take_stat(group, "sync_requests").get<uint64_t>();
        accumulate_stats(cores, group);
    }
    j["sync_requests"] = sync_requests;
    report_sync_latency(j);
    for (const NdpCore* c : m_scheme->server_cores()) accumulate_stats(kinds, stats_of(*c, ctx).at("messages_sent"));
    uint64_t all_messages = 0;
    for (const auto& n : kinds) all_messages += n.get<uint64_t>();
    j["messages_by_kind"] = kinds;
    j["sync_messages"] = all_messages;
    m_scheme->report_stats(ctx, j); // servers, atomics, misar, ideal: the scheme's own
    json vars = json::array();      // what --trace-var accepts
    for (size_t i = 0; i < m_syncvars.size() && i < 16; ++i) vars.push_back(hex(m_syncvars[i]));
    j["sync_variables"] = vars;
    if (m_coherence) report_coherence(ctx, j);
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
    if (m_params.core.threads > 1) {
        // Multi-threaded cores (docs/stats.md, "contexts"): what the contexts
        // cost the SEs (a waiting-list bit each) and the pipelines.
        uint64_t switches = 0;
        for (const auto& pl : m_pipelines) switches += pl->switches();
        j["contexts"] = {
            {"per_core", m_params.core.threads},
            {"per_unit", m_params.platform.cores_per_unit},
            {"syncronvar_bytes", SyncronVarLayout(m_params.platform.units, m_params.platform.cores_per_unit).bytes()},
            {"pipeline_switches", switches}};
    }
    report_energy(ctx, j);
}

EnergyCounters NdpPlatform::energy_counters(const StatContext& ctx) const {
    EnergyCounters c;
    c.seconds = sc_time::from_value(ctx.end_ticks).to_seconds();
    const auto add_core = [&c](const NdpCore& core) {
        c.instructions += core.stats().instructions;
        c.l1_hits += core.stats().l1_hits;
        c.l1_misses += core.stats().l1_misses;
    };
    for (const auto& core : m_cores) add_core(*core);
    for (const NdpCore* core : m_scheme->server_cores()) add_core(*core);
    // Static power per hardware core, however many contexts it runs.
    c.cores = static_cast<unsigned>(m_cores.size() / m_params.core.threads + m_scheme->server_cores().size());
    for (const auto& u : m_units) {
        c.xbar_bytes += u->xbar->total_bytes();
        for (const auto& v : u->vaults) {
            c.memory_bytes += v->bytes();
            c.activations += v->activations();
        }
    }
    for (const auto& l : m_links) c.link_bytes += l->bytes();
    c.memory_units = m_units.size();
    c.ses = m_scheme->uses_ses() ? m_units.size() : 0;
    return c;
}

// Energy by component and data movement by kind (docs/energy.md).
void NdpPlatform::report_energy(const StatContext& ctx, nlohmann::json& j) const {
    using nlohmann::json;
    const EnergyAccount a = energy_of(energy_counters(ctx), m_params.energy);
    const std::pair<const char*, const EnergyComponent*> parts[] = {{"cores", &a.cores},     {"caches", &a.caches},
                                                                    {"network", &a.network}, {"links", &a.links},
                                                                    {"memory", &a.memory},   {"se", &a.se}};
    json energy = json::object();
    json breakdown = json::object();
    for (const auto& [name, part] : parts) {
        energy[name] = part->total_pj();
        breakdown[name] = {{"dynamic", part->dynamic_pj}, {"static", part->static_pj}};
    }
    energy["total"] = a.total_pj();
    j["energy"] = energy;
    j["energy_breakdown"] = breakdown;

    uint64_t within_sync = 0, across_sync = 0;
    for (const auto& u : m_units) within_sync += u->xbar->sync_bytes();
    for (const auto& l : m_links) across_sync += l->sync_bytes();
    const uint64_t within = j.at("bytes_within_units").get<uint64_t>();
    const uint64_t across = j.at("bytes_across_links").get<uint64_t>();
    j["data_movement"] = {
        {"within_units", {{"data", within - within_sync}, {"sync", within_sync}}},
        {"across_links", {{"data", across - across_sync}, {"sync", across_sync}}},
        {"total", within + across},
    };
}

} // namespace syncron

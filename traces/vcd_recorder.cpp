#include "traces/vcd_recorder.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fnmatch.h>
#include <sys/stat.h>
#include <sysc/tracing/sc_tracing_ids.h>
#include <unistd.h>

namespace syncron {

namespace {

using sc_core::sc_time;

uint64_t mask_of(unsigned width) { return width >= 64 ? ~0ull : ((1ull << width) - 1); }

unsigned bits_for(uint64_t n) {
    unsigned b = 1;
    while (b < 64 && (n >> b) != 0) ++b;
    return b;
}

std::string binary(uint64_t v) {
    if (v == 0) return "0";
    std::string s;
    for (; v; v >>= 1) s.push_back(char('0' + (v & 1)));
    return std::string(s.rbegin(), s.rend());
}

std::string strip_zeros(const std::string& bits) {
    const size_t p = bits.find_first_not_of('0');
    return p == std::string::npos ? "0" : bits.substr(p);
}

/// sc_trace_file::cycle() is protected; close() needs it to write the
/// current time step (the kernel writes a step only once it completes, which
/// never happens after sc_stop(), an error, or a close() from a process).
struct TraceCycle : sc_core::sc_trace_file {
    static void run(sc_core::sc_trace_file* tf) {
        void (sc_core::sc_trace_file::*cycle)(bool) = &TraceCycle::cycle;
        (tf->*cycle)(false);
    }
};

/// Femtoseconds in "<n> <unit>" ("1 ps", "100 ns"); 0 when unknown.
long double timescale_fs(const std::string& text) {
    std::istringstream in(text);
    long double n = 0;
    std::string unit;
    if (!(in >> n)) return 0;
    if (!(in >> unit)) {
        // "1ps"
        std::string t = text;
        t.erase(std::remove_if(t.begin(), t.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n'; }), t.end());
        size_t p = 0;
        while (p < t.size() && (std::isdigit(static_cast<unsigned char>(t[p])) || t[p] == '.')) ++p;
        unit = t.substr(p);
    }
    static const std::pair<const char*, long double> units[] = {
        {"fs", 1.0L}, {"ps", 1e3L}, {"ns", 1e6L}, {"us", 1e9L}, {"ms", 1e12L}, {"s", 1e15L}, {"sec", 1e15L}};
    for (const auto& u : units)
        if (unit == u.first) return n * u.second;
    return 0;
}

struct OpName {
    const char* name;
    unsigned code;
};
// Table 2 calls by their own name and by the message opcode the core sends
// (docs/ndp_core.md); cond_wait's lock re-acquire shows as lock_acquire.
const OpName kOperations[] = {
    {"", 0},
    {"compute", 1},
    {"load", 2},
    {"store", 3},
    {"done", 4},
    {"receive", 5}, // a server core waiting for its next message
    {"cas", 6},     // remote atomics
    {"swap", 7},
    {"faa", 8},
    {"lock_acquire", 10},
    {"lock_acquire_local", 10},
    {"lock_release", 11},
    {"lock_release_local", 11},
    {"barrier_wait_within_unit", 12},
    {"barrier_wait_local_within_unit", 12},
    {"barrier_wait_across_units", 13},
    {"barrier_wait_local_across_units", 13},
    {"sem_wait", 14},
    {"sem_wait_local", 14},
    {"sem_post", 15},
    {"sem_post_local", 15},
    {"cond_wait", 16},
    {"cond_wait_local", 16},
    {"cond_signal", 17},
    {"cond_signal_local", 17},
    {"cond_broadcast", 18},
    {"cond_broad_local", 18},
    {"create_syncvar", 19},
    {"destroy_syncvar", 20},
};

} // namespace

unsigned VcdLayout::clients(unsigned unit) const {
    if (!client_cores.empty()) return unit < client_cores.size() ? client_cores[unit] : 0;
    return cores_per_unit;
}

// ---------------------------------------------------------------- statics

std::string VcdRecorder::file_base(const std::string& path) {
    const std::string ext = ".vcd";
    if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0)
        return path.substr(0, path.size() - ext.size());
    return path;
}

bool VcdRecorder::matches(const std::string& filter, const std::string& name) {
    bool any = false;
    size_t begin = 0;
    while (begin <= filter.size()) {
        size_t end = filter.find(',', begin);
        if (end == std::string::npos) end = filter.size();
        std::string pat = filter.substr(begin, end - begin);
        const size_t a = pat.find_first_not_of(" \t");
        const size_t b = pat.find_last_not_of(" \t");
        pat = a == std::string::npos ? std::string() : pat.substr(a, b - a + 1);
        if (!pat.empty()) {
            any = true;
            if (fnmatch(pat.c_str(), name.c_str(), 0) == 0) return true;
        }
        begin = end + 1;
    }
    return !any;
}

unsigned VcdRecorder::operation_code(const char* operation) {
    if (!operation) return 0;
    for (const auto& o : kOperations)
        if (std::strcmp(o.name, operation) == 0) return o.code;
    return 255;
}

std::vector<std::pair<unsigned, std::string>> VcdRecorder::operation_names() {
    std::vector<std::pair<unsigned, std::string>> out;
    for (const auto& o : kOperations)
        if (std::none_of(out.begin(), out.end(), [&](const auto& e) { return e.first == o.code; }))
            out.emplace_back(o.code, o.code == 0 ? "none" : o.name);
    return out;
}

std::string VcdRecorder::var_scope(uint64_t addr) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "var_0x%llx", static_cast<unsigned long long>(addr));
    return buf;
}

// ---------------------------------------------------------------- signals

void VcdRecorder::Sig::assign(uint64_t v) {
    if (kind == Kind::bit)
        bit = v != 0;
    else
        word = v & mask_of(width);
}

void VcdRecorder::Sig::assign_bits(const std::string& bits) {
    // Rightmost char = bit 0; missing bits are 0, extra high bits dropped.
    std::string t(width, '0');
    for (unsigned i = 0; i < width && i < bits.size(); ++i)
        t[width - 1 - i] = bits[bits.size() - 1 - i] == '1' ? '1' : '0';
    *vec = t.c_str();
}

bool VcdRecorder::Sig::nonzero() const {
    switch (kind) {
    case Kind::bit: return bit;
    case Kind::word: return word != 0;
    case Kind::vector: return vec->or_reduce() == sc_dt::Log_1;
    }
    return false;
}

std::string VcdRecorder::Sig::text() const {
    switch (kind) {
    case Kind::bit: return bit ? "1" : "0";
    case Kind::word: return "b" + binary(word);
    case Kind::vector: return "b" + strip_zeros(vec->to_string());
    }
    return "0";
}

VcdRecorder::Sig* VcdRecorder::declare(const std::string& name, Sig::Kind kind, unsigned width) {
    if (!matches(m_filter, name)) return nullptr;
    m_sigs.emplace_back();
    Sig& s = m_sigs.back();
    s.name = name;
    s.kind = kind;
    s.width = kind == Sig::Kind::bit ? 1 : std::max(1u, width);
    switch (kind) {
    case Sig::Kind::bit: sc_core::sc_trace(m_tf, s.bit, name); break;
    case Sig::Kind::word: sc_core::sc_trace(m_tf, s.word, name, static_cast<int>(s.width)); break;
    case Sig::Kind::vector:
        s.vec = std::make_unique<sc_dt::sc_bv_base>(static_cast<int>(s.width));
        *s.vec = 0;
        sc_core::sc_trace(m_tf, *s.vec, name);
        break;
    }
    return &s;
}

std::vector<TracedSignal> VcdRecorder::traced() const {
    std::vector<TracedSignal> out;
    out.reserve(m_sigs.size());
    for (const auto& s : m_sigs) out.push_back({s.name, s.width, s.changed, s.var_kinds ? *s.var_kinds : 0u});
    return out;
}

std::vector<std::string> VcdRecorder::signals() const {
    std::vector<std::string> out;
    out.reserve(m_sigs.size());
    for (const auto& s : m_sigs) out.push_back(s.name);
    return out;
}

// ---------------------------------------------------------------- construction

VcdRecorder::VcdRecorder(sc_core::sc_module_name name, const std::string& path, const VcdLayout& layout,
                         const std::string& filter)
    : sc_core::sc_module(name), m_file(file_base(path) + ".vcd"), m_out(m_file, ".vcd"), m_filter(filter),
      m_layout(layout) {
    if (file_base(path).empty()) throw std::runtime_error("cannot create waveform file: empty path");
    m_out.check("waveform file");
    // SystemC only reports a failed fopen and never a failed write; check the
    // path ourselves first, with one byte written, so a device that refuses
    // every write (/dev/full) fails before the run (SystemC truncates it).
    std::FILE* f = std::fopen(m_out.temporary().c_str(), "w");
    if (!f) throw std::runtime_error("cannot create waveform file '" + m_file + "': " + std::strerror(errno));
    const bool written = std::fputc('\n', f) != EOF && std::fflush(f) == 0;
    const int error = errno;
    if (std::fclose(f) != 0 || !written)
        throw std::runtime_error("cannot write waveform file '" + m_file +
                                 "': " + std::strerror(written ? errno : error));
    // Under its temporary name ("<name>.vcd" too: SystemC appends ".vcd"), renamed by close().
    m_tf = sc_core::sc_create_vcd_trace_file(file_base(m_out.temporary()).c_str());
    if (!m_tf) throw std::runtime_error("cannot create waveform file '" + m_file + "'");

    // VCD time unit = the kernel's time resolution (exact record times).
    {
        const sc_time res = sc_core::sc_get_time_resolution();
        const sc_core::sc_time_unit units[] = {sc_core::SC_FS, sc_core::SC_PS, sc_core::SC_NS,
                                               sc_core::SC_US, sc_core::SC_MS, sc_core::SC_SEC};
        bool done = false;
        for (const auto u : units) {
            for (const double v : {1.0, 10.0, 100.0})
                if (sc_time(v, u) == res) {
                    const sc_core::sc_actions prev = sc_core::sc_report_handler::set_actions(
                        sc_core::SC_ID_TRACING_TIMESCALE_UNIT_, sc_core::SC_DO_NOTHING);
                    m_tf->set_time_unit(v, u);
                    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_, prev);
                    done = true;
                    break;
                }
            if (done) break;
        }
    }

    using K = Sig::Kind;
    const unsigned units = m_layout.units;
    const unsigned st_w = std::max(16u, bits_for(m_layout.st_entries));
    const unsigned ctr_w = std::max(16u, bits_for(m_layout.counters));
    m_se.resize(units);
    for (unsigned u = 0; u < units; ++u) {
        const std::string p = "unit" + std::to_string(u) + ".se.";
        m_se[u] = {declare(p + "st_occupancy", K::word, st_w), declare(p + "buffer_waiting", K::word, 32),
                   declare(p + "spu_busy", K::bit, 1), declare(p + "counters_in_use", K::word, ctr_w),
                   declare(p + "overflow", K::bit, 1)};
    }
    m_cores.resize(units);
    for (unsigned u = 0; u < units; ++u) {
        // Local IDs: the clients, then the server core where there is one.
        const bool server = u < m_layout.servers.size() && m_layout.servers[u];
        for (unsigned c = 0; c < m_layout.clients(u) + (server ? 1 : 0); ++c) {
            const std::string p = "unit" + std::to_string(u) +
                                  (c < m_layout.clients(u) ? ".core" + std::to_string(c) : std::string(".server")) +
                                  ".";
            m_cores[u].push_back(
                {declare(p + "state", K::word, 2), declare(p + "op", K::word, 8), declare(p + "addr", K::word, 64)});
        }
    }
    for (const uint64_t v : m_layout.traced_vars) {
        if (m_vars.count(v)) continue;
        auto& per_se = m_vars[v];
        for (unsigned u = 0; u < units; ++u) {
            const std::string p = var_scope(v) + ".unit" + std::to_string(u) + ".";
            per_se.push_back(
                {declare(p + "lock_owner", K::word, 32),
                 declare(p + "local_waiting", K::vector,
                         std::max(1u, m_layout.local_waiting_bits ? m_layout.local_waiting_bits : m_layout.clients(u))),
                 declare(p + "global_waiting", K::vector, std::max(1u, units)),
                 declare(p + "barrier_count", K::word, 32), declare(p + "sem_resources", K::word, 32),
                 declare(p + "buffered", K::bit, 1), declare(p + "in_memory", K::bit, 1)});
            const VarSigs& vs = per_se.back();
            for (Sig* s : {vs.lock_owner, vs.local_waiting, vs.global_waiting, vs.barrier_count, vs.sem_resources,
                           vs.buffered, vs.in_memory})
                if (s) s->var_kinds = &m_var_kinds[v];
        }
    }
    for (const auto& l : m_layout.links) {
        if (m_links.count(l)) continue;
        const std::string p = "link" + std::to_string(l.first) + "to" + std::to_string(l.second) + ".";
        m_links[l] = {declare(p + "bytes_in_flight", K::word, 32), declare(p + "transfers_in_flight", K::word, 32)};
    }
    for (const auto& q : m_layout.queues) {
        if (m_queues.count(q)) continue;
        if (Sig* s = declare("queue." + q + ".depth", K::word, 32)) m_queues[q] = s;
    }
    if (m_layout.vault_of)
        for (const auto& v : m_layout.vaults) {
            if (m_vaults.count(v)) continue;
            const std::string p = "unit" + std::to_string(v.first) + ".vault" + std::to_string(v.second) + ".";
            if (Sig* s = declare(p + "requests_in_flight", K::word, 32)) m_vaults[v] = s;
        }

    SC_METHOD(wake);
    sensitive << m_wake;
    dont_initialize();
}

void VcdRecorder::discard() noexcept {
    if (m_closed) return;
    m_closed = true;
    m_wake.cancel();
    if (m_tf) {
        // Nothing was traced, and nothing is meant to be kept: SystemC's warning says only that.
        const sc_core::sc_actions prev =
            sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_CLOSE_EMPTY_FILE_, sc_core::SC_DO_NOTHING);
        sc_core::sc_close_vcd_trace_file(m_tf);
        sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_CLOSE_EMPTY_FILE_, prev);
    }
    m_tf = nullptr;
    m_out.discard();
}

VcdRecorder::~VcdRecorder() {
    try {
        close();
    } catch (...) {
    }
}

// ---------------------------------------------------------------- changes

void VcdRecorder::push(Change&& c) {
    c.seq = m_seq++;
    if (c.at > m_latest) m_latest = c.at;
    m_pending.push(std::move(c));
}

void VcdRecorder::set(Sig* s, const sc_time& at, uint64_t value) {
    if (!s) return;
    Change c;
    c.at = at;
    c.sig = s;
    c.value = value;
    push(std::move(c));
}

void VcdRecorder::set_bits(Sig* s, const sc_time& at, const std::string& bits) {
    if (!s || bits.empty()) return;
    Change c;
    c.at = at;
    c.sig = s;
    c.bits = bits;
    push(std::move(c));
}

void VcdRecorder::add(Sig* s, const sc_time& at, int64_t delta) {
    if (!s) return;
    Change c;
    c.at = at;
    c.sig = s;
    c.add = true;
    c.delta = delta;
    push(std::move(c));
}

void VcdRecorder::apply(const Change& c, const sc_time& now) {
    Sig& s = *c.sig;
    if (c.add) {
        const int64_t v = static_cast<int64_t>(s.word) + c.delta;
        s.assign(v < 0 ? 0 : static_cast<uint64_t>(v));
        if (!s.changed) m_unsettled.push_back(&s);
        if (c.at < now) ++m_late;
        return;
    }
    if (s.set_once && c.at < s.last) { // the signal already shows a later record
        ++m_stale;
        return;
    }
    if (c.at < now) ++m_late;
    s.set_once = true;
    s.last = c.at;
    if (s.kind == Sig::Kind::vector)
        s.assign_bits(c.bits);
    else
        s.assign(c.value);
    if (!s.changed) m_unsettled.push_back(&s);
}

void VcdRecorder::note_changes() {
    // Called once a time step is over: the values now held are the ones the
    // VCD shows for it (a 0 -> 1 -> 0 within one step shows nothing). A
    // signal showing anything but 0 has changed; once true, never tested again.
    for (Sig* s : m_unsettled) s->changed = s->changed || s->nonzero();
    m_unsettled.clear();
}

void VcdRecorder::apply_due(const sc_time& now) {
    if (now != m_step) { // the previous time step is over
        note_changes();
        m_step = now;
    }
    while (!m_pending.empty() && m_pending.top().at <= now) {
        const Change c = m_pending.top();
        m_pending.pop();
        apply(c, now);
    }
}

void VcdRecorder::schedule() {
    const sc_time now = sc_core::sc_time_stamp();
    apply_due(now);
    if (!m_pending.empty()) m_wake.notify(m_pending.top().at - now);
}

void VcdRecorder::wake() {
    if (m_closed) return;
    schedule();
}

// ---------------------------------------------------------------- records

void VcdRecorder::on_service(const ServiceRecord& r) {
    if (m_closed || r.se >= m_se.size()) return;
    const SeSigs& s = m_se[r.se];
    // During the service (start..end): busy, the message's overflow flag, and
    // the buffer count the SE took at its start (including the message).
    set(s.spu_busy, r.start, 1);
    set(s.overflow, r.start, r.overflow);
    set(s.buffer_waiting, r.start, r.buffer_waiting);
    // After it: the SE's state; a back-to-back next service (same time,
    // later record) overrides busy/overflow/buffer_waiting.
    set(s.spu_busy, r.end, 0);
    set(s.overflow, r.end, 0);
    set(s.buffer_waiting, r.end, r.buffer_waiting ? r.buffer_waiting - 1 : 0);
    set(s.st_occupancy, r.end, r.st_occupancy);
    set(s.counters_in_use, r.end, r.counters_in_use);
    for (const VarSnapshot& v : r.vars) {
        auto it = m_vars.find(v.addr);
        if (it == m_vars.end() || r.se >= it->second.size()) continue;
        m_var_kinds[v.addr] |= 1u << static_cast<unsigned>(v.kind);
        const VarSigs& vs = it->second[r.se];
        set(vs.lock_owner, r.end, v.lock_held ? owner_code(v.owner_se, v.owner_core) : 0);
        set_bits(vs.local_waiting, r.end, v.local);
        set_bits(vs.global_waiting, r.end, v.global);
        set(vs.barrier_count, r.end, v.count);
        set(vs.sem_resources, r.end, static_cast<uint64_t>(v.resources));
        set(vs.buffered, r.end, v.buffered);
        set(vs.in_memory, r.end, v.in_memory);
    }
    schedule();
}

void VcdRecorder::on_core_state(const CoreStateRecord& r) {
    if (m_closed || r.unit >= m_cores.size() || r.core >= m_cores[r.unit].size()) return;
    const CoreSigs& c = m_cores[r.unit][r.core];
    set(c.state, r.at, static_cast<uint64_t>(r.activity));
    set(c.op, r.at, operation_code(r.operation));
    set(c.addr, r.at, r.addr);
    schedule();
}

void VcdRecorder::on_link(const LinkRecord& r) {
    if (m_closed) return;
    auto it = m_links.find({r.src, r.dst});
    if (it == m_links.end()) return;
    // In flight from the start of serialization to the delivery at the far end.
    const sc_time gone = std::max({r.start, r.end, r.delivered});
    add(it->second.bytes, r.start, r.bytes);
    add(it->second.transfers, r.start, 1);
    add(it->second.bytes, gone, -static_cast<int64_t>(r.bytes));
    add(it->second.transfers, gone, -1);
    schedule();
}

void VcdRecorder::on_memory(const MemoryRecord& r) {
    // In flight at the vault from the request to its response, in LT and AT.
    if (m_closed || m_vaults.empty()) return;
    auto it = m_vaults.find(m_layout.vault_of(r.addr));
    if (it == m_vaults.end()) return;
    add(it->second, r.begin, 1);
    add(it->second, std::max(r.begin, r.end), -1);
    schedule();
}

void VcdRecorder::on_queue(const QueueRecord& r) {
    if (m_closed || !r.component || m_queues.empty()) return;
    auto it = m_queues.find(r.component);
    if (it == m_queues.end()) return;
    set(it->second, r.at, r.depth);
    schedule();
}

// ---------------------------------------------------------------- closing

void VcdRecorder::close() {
    if (m_closed) return;
    m_closed = true;
    m_wake.cancel();
    if (!m_tf) return;
    apply_due(sc_core::sc_time_stamp());
    // Writes the header if nothing was traced yet, and the current time
    // step's changes (not written by the kernel after sc_stop / an error).
    TraceCycle::run(m_tf);
    note_changes(); // the last time step, as just written
    sc_core::sc_close_vcd_trace_file(m_tf);
    m_tf = nullptr;
    try {
        append_pending();
        check_written();
    } catch (...) {
        m_out.discard(); // incomplete: the previous file stays
        throw;
    }
    if (const int e = m_out.commit())
        throw std::runtime_error("cannot write waveform file '" + m_file + "': " + std::strerror(e));
}

void VcdRecorder::check_written() const {
    // SystemC writes through its own FILE* and ignores write errors. A write
    // it lost (full device or file system, file-size limit) leaves a file
    // that cannot grow either: appending one byte shows it. The byte is
    // removed again, so the file is exactly what SystemC and append_pending wrote.
    struct stat before {};
    const bool regular = ::stat(m_out.temporary().c_str(), &before) == 0 && S_ISREG(before.st_mode);
    std::FILE* f = std::fopen(m_out.temporary().c_str(), "a");
    if (!f) throw std::runtime_error("cannot write waveform file '" + m_file + "': " + std::strerror(errno));
    const bool grew = std::fputc('\n', f) != EOF && std::fflush(f) == 0;
    const int error = errno;
    if (std::fclose(f) != 0 && grew)
        throw std::runtime_error("cannot write waveform file '" + m_file + "': " + std::strerror(errno));
    if (!grew) throw std::runtime_error("cannot write waveform file '" + m_file + "': " + std::strerror(error));
    if (regular && ::truncate(m_out.temporary().c_str(), before.st_size) != 0)
        throw std::runtime_error("cannot write waveform file '" + m_file + "': " + std::strerror(errno));
}

void VcdRecorder::append_pending() {
    // The file ends with "#<now>" (SystemC's closing time stamp). Drop it when
    // it repeats the last time stamp, so times stay strictly increasing.
    {
        std::FILE* f = std::fopen(m_out.temporary().c_str(), "rb");
        if (!f) throw std::runtime_error("cannot reopen waveform file '" + m_file + "'");
        std::fseek(f, 0, SEEK_END);
        const long size = std::ftell(f);
        const long from = std::max(0L, size - 65536L);
        std::string tail(static_cast<size_t>(size - from), '\0');
        std::fseek(f, from, SEEK_SET);
        const size_t got = std::fread(&tail[0], 1, tail.size(), f);
        std::fclose(f);
        tail.resize(got);
        // Lines of the tail with their offsets in the file.
        std::vector<std::pair<long, std::string>> lines;
        for (size_t b = 0; b < tail.size();) {
            size_t e = tail.find('\n', b);
            if (e == std::string::npos) e = tail.size();
            lines.emplace_back(from + static_cast<long>(b), tail.substr(b, e - b));
            b = e + 1;
        }
        if (from > 0 && !lines.empty()) lines.erase(lines.begin()); // maybe a partial line
        const auto blank = [](const std::string& l) { return l.find_first_not_of(" \t\r") == std::string::npos; };
        while (!lines.empty() && blank(lines.back().second)) lines.pop_back();
        if (lines.size() >= 2 && lines.back().second[0] == '#') {
            for (size_t i = lines.size() - 1; i-- > 0;)
                if (!lines[i].second.empty() && lines[i].second[0] == '#') {
                    if (lines[i].second == lines.back().second &&
                        truncate(m_out.temporary().c_str(), static_cast<off_t>(lines.back().first)) != 0) {
                        // keep the repeated stamp: equal times are still valid VCD
                    }
                    break;
                }
        }
    }
    if (m_pending.empty()) return;

    // Identifiers and time unit from the header SystemC wrote.
    std::unordered_map<std::string, std::string> ids;
    long double ts_fs = 0;
    {
        std::ifstream in(m_out.temporary());
        std::vector<std::string> scopes;
        std::string line, timescale;
        bool in_timescale = false;
        while (std::getline(in, line)) {
            std::istringstream words(line);
            std::string w;
            words >> w;
            if (in_timescale) {
                if (w == "$end") {
                    in_timescale = false;
                    continue;
                }
                timescale += line + " ";
                continue;
            }
            if (w == "$timescale") {
                std::string rest;
                std::getline(words, rest);
                const size_t e = rest.find("$end");
                if (e != std::string::npos)
                    timescale = rest.substr(0, e);
                else {
                    timescale = rest;
                    in_timescale = true;
                }
            } else if (w == "$scope") {
                std::string kind, name;
                words >> kind >> name;
                scopes.push_back(name);
            } else if (w == "$upscope") {
                if (!scopes.empty()) scopes.pop_back();
            } else if (w == "$var") {
                std::string type, width, id, ref;
                words >> type >> width >> id >> ref;
                std::string full;
                for (size_t i = 0; i < scopes.size(); ++i) {
                    if (i == 0 && scopes[i] == "SystemC") continue;
                    full += scopes[i] + ".";
                }
                ids[full + ref] = id;
            } else if (w == "$enddefinitions") {
                break;
            }
        }
        ts_fs = timescale_fs(timescale);
    }
    const long double res_fs = sc_core::sc_get_time_resolution().to_seconds() * 1e15L;
    const auto vcd_time = [&](const sc_time& t) -> unsigned long long {
        if (ts_fs <= 0) return t.value();
        return static_cast<unsigned long long>(static_cast<long double>(t.value()) * res_fs / ts_fs + 0.5L);
    };

    std::FILE* out = std::fopen(m_out.temporary().c_str(), "a");
    if (!out) throw std::runtime_error("cannot append to waveform file '" + m_file + "'");
    while (!m_pending.empty()) {
        const sc_time t = m_pending.top().at;
        std::vector<std::pair<Sig*, std::string>> before;
        while (!m_pending.empty() && m_pending.top().at == t) {
            const Change c = m_pending.top();
            m_pending.pop();
            if (std::none_of(before.begin(), before.end(), [&](const auto& b) { return b.first == c.sig; }))
                before.emplace_back(c.sig, c.sig->text());
            apply(c, t);
        }
        note_changes();
        bool stamped = false;
        for (const auto& [sig, old] : before) {
            const std::string now = sig->text();
            if (now == old) continue;
            auto it = ids.find(sig->name);
            if (it == ids.end()) continue;
            if (!stamped) {
                std::fprintf(out, "\n#%llu\n", vcd_time(t));
                stamped = true;
            }
            if (sig->width == 1)
                std::fprintf(out, "%c%s\n", now.back(), it->second.c_str());
            else
                std::fprintf(out, "%s %s\n", now.c_str(), it->second.c_str());
        }
    }
    // Our own writes are checked: a failed one means an incomplete file.
    const bool written = std::fflush(out) == 0 && !std::ferror(out);
    const int error = errno;
    if (std::fclose(out) != 0 || !written)
        throw std::runtime_error("cannot write waveform file '" + m_file +
                                 "': " + std::strerror(written ? errno : error));
}

} // namespace syncron

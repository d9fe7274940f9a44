#include "traces/gtkw_save_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <utility>

#include "models/tlm/trace_sink.h"

namespace syncron {

namespace {

// GTKWave trace flags (its save-file "@<hex>" lines).
constexpr unsigned kHex = 0x2, kDec = 0x4, kBin = 0x8, kRight = 0x20, kBlank = 0x200, kSigned = 0x400;
constexpr unsigned kFileFilter = 0x2000, kGroupBegin = 0x800000, kGroupEnd = 0x1000000;
constexpr unsigned kCollapsed = 0x1000, kClosed = 0x400000; // a group shown closed (GTKWave's TR_CLOSED)

const char* state_name(CoreActivity a) {
    switch (a) {
    case CoreActivity::computing: return "computing";
    case CoreActivity::memory: return "memory";
    case CoreActivity::waiting_sync: return "waiting_sync";
    case CoreActivity::done: return "done";
    }
    return "?";
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string part;
    std::istringstream in(s);
    while (std::getline(in, part, sep)) out.push_back(part);
    return out;
}

bool starts(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

/// Where a signal goes and how its row is labelled.
struct Row {
    std::string group, label, field;
};

Row classify(const std::string& name) {
    const std::vector<std::string> p = split(name, '.');
    Row r;
    r.field = p.empty() ? name : p.back();
    r.label = name;
    r.group = "other";
    if (p.size() == 3 && starts(p[0], "unit")) {
        const std::string u = p[0].substr(4);
        if (p[1] == "se") {
            r.group = "SE " + u;
            r.label = "SE" + u + " " + p[2];
        } else if (starts(p[1], "vault")) {
            r.group = "unit " + u + " vaults";
            r.label = "u" + u + "." + p[1] + " " + p[2];
        } else {
            r.group = "unit " + u + " cores";
            r.label = "u" + u + "." + p[1] + " " + p[2];
        }
    } else if (p.size() == 3 && starts(p[0], "var_")) {
        const std::string addr = p[0].substr(4);
        r.group = "variable " + addr;
        r.label = addr + " @SE" + p[1].substr(4) + " " + p[2];
    } else if (p.size() == 2 && starts(p[0], "link")) {
        const size_t to = p[0].find("to");
        r.group = "links";
        r.label =
            to == std::string::npos ? name : "link " + p[0].substr(4, to - 4) + "->" + p[0].substr(to + 2) + " " + p[1];
    } else if (p.size() >= 3 && p[0] == "queue") {
        r.group = "AT queues";
        std::string component = p[1];
        for (size_t i = 2; i + 1 < p.size(); ++i) component += "." + p[i];
        r.label = component + " depth";
    }
    return r;
}

bool ends(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// Where a group goes: what a user opens the file for first (the traced
/// variables, then the SEs), the per-unit cores and vaults last but one.
int group_rank(const std::string& group) {
    if (starts(group, "variable ")) return 0;
    if (starts(group, "SE ")) return 1;
    if (ends(group, " cores")) return 2;
    if (group == "links") return 3;
    if (group == "AT queues") return 4;
    if (ends(group, " vaults")) return 5;
    return 6;
}

/// The per-unit cores and vaults (16 and 32 rows a unit on hmc4).
bool is_bulk(const std::string& group) { return ends(group, " cores") || ends(group, " vaults"); }

} // namespace

bool gtkw_applies(const std::string& field, unsigned var_kinds) {
    if (var_kinds == 0) return true;
    const auto has = [var_kinds](Primitive p) { return (var_kinds & (1u << static_cast<unsigned>(p))) != 0; };
    if (field == "lock_owner") return has(Primitive::lock);
    if (field == "barrier_count") return has(Primitive::barrier);
    if (field == "sem_resources") return has(Primitive::semaphore);
    return true;
}

bool gtkw_shows(const TracedSignal& s) {
    const size_t dot = s.name.rfind('.');
    return s.changed && gtkw_applies(dot == std::string::npos ? s.name : s.name.substr(dot + 1), s.var_kinds);
}

std::string gtkw_state_filter() {
    std::string out;
    for (const CoreActivity a :
         {CoreActivity::computing, CoreActivity::memory, CoreActivity::waiting_sync, CoreActivity::done})
        out += std::to_string(static_cast<unsigned>(a)) + " " + state_name(a) + "\n";
    return out;
}

std::string gtkw_op_filter() {
    auto ops = VcdRecorder::operation_names();
    std::sort(ops.begin(), ops.end());
    std::string out;
    for (const auto& [code, name] : ops) out += std::to_string(code) + " " + name + "\n";
    out += std::to_string(VcdRecorder::operation_code("?")) + " other\n";
    return out;
}

std::string gtkw_owner_filter(const std::vector<unsigned>& ids_per_unit, const std::vector<bool>& servers) {
    std::string out = "0 free\n";
    for (unsigned se = 0; se < ids_per_unit.size(); ++se)
        for (unsigned c = 0; c < ids_per_unit[se]; ++c) {
            const bool server = se < servers.size() && servers[se] && c + 1 == ids_per_unit[se];
            out += std::to_string(VcdRecorder::owner_code(se, c)) + " u" + std::to_string(se) +
                   (server ? std::string(".server") : ".core" + std::to_string(c)) + "\n";
        }
    return out;
}

double gtkw_zoom_full(uint64_t end, unsigned width_px) {
    const double width = std::max(1u, width_px > 4 ? width_px - 4 : width_px);
    const double zoom = -std::log2((static_cast<double>(end) + 1.0) / width * 200.0);
    return std::min(0.0, zoom);
}

std::string gtkw_signal_name(const TracedSignal& s) {
    std::string n = "SystemC." + s.name;
    if (s.width > 1) n += "[" + std::to_string(s.width - 1) + ":0]";
    return n;
}

std::string gtkw_save_file(const std::vector<TracedSignal>& signals, uint64_t end, const GtkwFilterPaths& filters,
                           const std::string& title) {
    // Groups in the order their first signal was declared.
    std::vector<std::pair<std::string, std::vector<std::pair<Row, const TracedSignal*>>>> groups;
    size_t left_out = 0;
    for (const TracedSignal& s : signals) {
        if (!gtkw_shows(s)) {
            ++left_out;
            continue;
        }
        Row r = classify(s.name);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == r.group; });
        if (it == groups.end()) it = groups.insert(groups.end(), {r.group, {}});
        it->second.emplace_back(std::move(r), &s);
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return group_rank(a.first) < group_rank(b.first); });
    // Beside other groups, the cores and vaults open closed: the rows a user
    // looks at first stay on the first screen (a click opens a group).
    const bool close_bulk = std::any_of(groups.begin(), groups.end(), [](const auto& g) { return !is_bulk(g.first); });
    std::ostringstream out;
    char zoom[64];
    std::snprintf(zoom, sizeof zoom, "*%.6f -1", gtkw_zoom_full(end));
    out << "[*]\n";
    std::istringstream title_lines(title);
    for (std::string line; std::getline(title_lines, line);) out << "[*] " << line << "\n";
    out << "[*] Opens zoomed to the whole run (0.." << end << " VCD time units); state, op and\n"
        << "[*] lock_owner are shown by name through the translate filter files below.\n"
        << "[*] Encodings: docs/traces.md, section \"Waveforms (--vcd)\".\n";
    if (left_out)
        out << "[*] Left out: " << left_out << " of " << signals.size()
            << " signals that never changed from 0 or do not apply to\n"
            << "[*] their variable's kind; the VCD has every signal.\n";
    out << "[*]\n"
        << "[timestart] 0\n[size] 1400 800\n[signals_width] 300\n"
        << zoom << "\n";
    unsigned flags = ~0u;
    const auto set_flags = [&](unsigned f) {
        if (f == flags) return;
        flags = f;
        char buf[32];
        std::snprintf(buf, sizeof buf, "@%x\n", f);
        out << buf;
    };
    for (const auto& [group, rows] : groups) {
        const bool closed = close_bulk && is_bulk(group);
        set_flags(kGroupBegin | kBlank | (closed ? kClosed : 0u));
        out << "-" << group << "\n";
        for (const auto& [row, sig] : rows) {
            const std::string* filter = nullptr;
            unsigned f = kRight | kDec;
            if (sig->width == 1 || row.field == "local_waiting" || row.field == "global_waiting")
                f = kRight | kBin;
            else if (row.field == "addr")
                f = kRight | kHex;
            else if (row.field == "sem_resources")
                f = kRight | kSigned;
            else if (row.field == "state")
                filter = &filters.state;
            else if (row.field == "op")
                filter = &filters.op;
            else if (row.field == "lock_owner")
                filter = &filters.owner;
            if (filter && !filter->empty()) f |= kFileFilter;
            set_flags(f);
            if (f & kFileFilter) out << "^1 " << *filter << "\n";
            out << "+{" << row.label << "} " << gtkw_signal_name(*sig) << "\n";
        }
        set_flags(kGroupEnd | kBlank | (closed ? kClosed | kCollapsed : 0u));
        out << "-" << group << "\n";
    }
    return out.str();
}

} // namespace syncron

#include "traces/timeline_json.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

#include "models/common/input_file.h"
#include "models/protocol/opcode.h"

namespace syncron {

namespace {

/// Formats into a fixed buffer without allocating (usable from close() in a
/// signal handler). Output past the capacity is dropped and flagged.
struct Out {
    char* p;
    size_t cap;
    size_t n = 0;
    bool overflow = false;

    void c(char ch) {
        if (n < cap)
            p[n++] = ch;
        else
            overflow = true;
    }
    void s(const char* t) {
        while (*t) c(*t++);
    }
    void u(uint64_t v) {
        char d[20];
        int k = 0;
        do {
            d[k++] = char('0' + v % 10);
            v /= 10;
        } while (v);
        while (k) c(d[--k]);
    }
    void i(int64_t v) {
        if (v < 0) {
            c('-');
            u(uint64_t(-(v + 1)) + 1);
        } else {
            u(uint64_t(v));
        }
    }
    /// ns as microseconds with three decimals (the format's unit).
    void us(uint64_t ns) {
        u(ns / 1000);
        const unsigned f = unsigned(ns % 1000);
        c('.');
        c(char('0' + f / 100));
        c(char('0' + f / 10 % 10));
        c(char('0' + f % 10));
    }
    void hex(uint64_t v) {
        static const char digits[] = "0123456789abcdef";
        s("\"0x");
        char d[16];
        int k = 0;
        do {
            d[k++] = digits[v & 0xf];
            v >>= 4;
        } while (v);
        while (k) c(d[--k]);
        c('"');
    }
    /// A JSON string, at most `max` characters of `t` (ASCII; other bytes
    /// become '?', so the output is valid UTF-8 whatever `t` holds).
    void str(const char* t, size_t len, size_t max = 96) {
        static const char digits[] = "0123456789abcdef";
        c('"');
        for (size_t k = 0; k < len && k < max; ++k) {
            const unsigned char ch = static_cast<unsigned char>(t[k]);
            if (ch == '"' || ch == '\\') {
                c('\\');
                c(char(ch));
            } else if (ch < 0x20) {
                s("\\u00");
                c(digits[ch >> 4]);
                c(digits[ch & 0xf]);
            } else if (ch >= 0x80) {
                c('?');
            } else {
                c(char(ch));
            }
        }
        c('"');
    }
    void str(const char* t) { str(t, t ? std::strlen(t) : 0); }
};

const char* span_name(CoreActivity a) {
    switch (a) {
    case CoreActivity::computing: return "compute";
    case CoreActivity::memory: return "memory";
    case CoreActivity::waiting_sync: return "waiting";
    case CoreActivity::done: return "done";
    }
    return "unknown";
}

constexpr const char kHeader[] = "{\"traceEvents\":[";
constexpr const char kFooter[] = "\n],\"displayTimeUnit\":\"ns\"}\n";

} // namespace

TimelineJson::TimelineJson(const std::string& path)
    : m_path(path), m_file(path), m_buf(new char[kBufSize]), m_scratch(new char[kEventMax]) {
    m_closed = true; // until the file is open: close() has nothing to finish
    m_file.check("timeline");
    m_closed = false;
    m_fd = ::open(m_file.temporary().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0)
        throw std::runtime_error("cannot open trace file '" + excerpt(path, kQuotedMax) +
                                 "' for writing: " + std::strerror(errno));
    write_all(kHeader, sizeof kHeader - 1);
    if (m_failed) { // a device that refuses every write (/dev/full) fails before the run
        ::close(m_fd);
        m_fd = -1;
        m_closed = true;
        m_file.discard();
        throw std::runtime_error("cannot write timeline to '" + excerpt(path, kQuotedMax) +
                                 "': " + std::strerror(m_errno));
    }
}

TimelineJson::~TimelineJson() { close(); }

uint64_t TimelineJson::ns_of(const sc_core::sc_time& t) {
    if (m_units_per_ns == 0 && m_ns_per_unit == 0) {
        m_units_per_ns = sc_core::sc_time(1.0, sc_core::SC_NS).value();
        if (m_units_per_ns == 0) // resolution coarser than 1 ns
            m_ns_per_unit =
                std::max<uint64_t>(1, uint64_t(std::llround(sc_core::sc_get_time_resolution().to_seconds() * 1e9)));
    }
    if (m_units_per_ns) return (t.value() + m_units_per_ns / 2) / m_units_per_ns;
    return t.value() * m_ns_per_unit;
}

TimelineJson::UnitTracks& TimelineJson::unit(unsigned u) {
    if (u >= m_units.size()) m_units.resize(u + 1);
    UnitTracks& ut = m_units[u];
    if (!ut.named) {
        ut.named = true;
        Out o{m_scratch.get(), kEventMax};
        o.s("{\"ph\":\"M\",\"pid\":");
        o.i(pid_of(u));
        o.s(",\"name\":\"process_name\",\"args\":{\"name\":\"unit ");
        o.u(u);
        o.s("\"}}");
        commit(o.p, o.n);
        o.n = 0;
        o.s("{\"ph\":\"M\",\"pid\":");
        o.i(pid_of(u));
        o.s(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":");
        o.u(u);
        o.s("}}");
        commit(o.p, o.n);
    }
    return ut;
}

TimelineJson::CoreTrack& TimelineJson::core(unsigned u, unsigned c) {
    UnitTracks& ut = unit(u);
    if (c >= ut.cores.size()) ut.cores.resize(c + 1);
    CoreTrack& t = ut.cores[c];
    if (!t.named) {
        t.named = true;
        Out o{m_scratch.get(), kEventMax};
        o.s("{\"ph\":\"M\",\"pid\":");
        o.i(pid_of(u));
        o.s(",\"tid\":");
        o.i(core_tid(u, c));
        o.s(",\"name\":\"thread_name\",\"args\":{\"name\":\"core ");
        o.u(c);
        o.s("\"}}");
        commit(o.p, o.n);
        o.n = 0;
        o.s("{\"ph\":\"M\",\"pid\":");
        o.i(pid_of(u));
        o.s(",\"tid\":");
        o.i(core_tid(u, c));
        o.s(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":");
        o.u(uint64_t(c) + 1);
        o.s("}}");
        commit(o.p, o.n);
    }
    return t;
}

void TimelineJson::write_core_span(unsigned u, unsigned c, CoreActivity a, const char* op, uint64_t addr,
                                   uint64_t start, uint64_t end, bool late, char* scratch, size_t cap) noexcept {
    Out o{scratch, cap};
    o.s("{\"ph\":\"X\",\"pid\":");
    o.i(pid_of(u));
    o.s(",\"tid\":");
    o.i(core_tid(u, c));
    o.s(",\"ts\":");
    o.us(start);
    o.s(",\"dur\":");
    o.us(end - start);
    o.s(",\"name\":\"");
    o.s(span_name(a));
    o.s("\",\"cat\":\"core\",\"args\":{\"op\":");
    o.str(op);
    o.s(",\"addr\":");
    o.hex(addr);
    if (late) o.s(",\"late\":true");
    o.s("}}");
    if (!o.overflow) commit(o.p, o.n);
}

void TimelineJson::on_core_state(const CoreStateRecord& r) {
    if (m_closed.load(std::memory_order_relaxed)) return;
    const uint64_t at = ns_of(r.at);
    seen(at);
    CoreTrack& t = core(r.unit, r.core);
    const char* op = r.operation ? r.operation : "";
    if (!t.seen) {
        t.seen = true;
        t.boundary = t.prev_start = at;
    }
    if (at < t.boundary) {
        // Earlier than what this track already shows: draw it inside the
        // last span (which covers its time) so that spans stay nested.
        ++m_late;
        if (r.activity == CoreActivity::done) return;
        const uint64_t start = std::max(at, t.prev_start);
        if (t.boundary > start)
            write_core_span(r.unit, r.core, r.activity, op, r.addr, start, t.boundary, true, m_scratch.get(),
                            kEventMax);
        return;
    }
    if (t.open) {
        if (at > t.start) {
            write_core_span(r.unit, r.core, t.activity, t.op, t.addr, t.start, at, false, m_scratch.get(), kEventMax);
            t.prev_start = t.start;
        } // a zero-length span is not written
        t.open = false;
    } else if (at > t.boundary) {
        t.prev_start = at; // no span ends here
    }
    t.boundary = at;
    if (r.activity != CoreActivity::done) {
        t.open = true;
        t.activity = r.activity;
        t.op = op;
        t.addr = r.addr;
        t.start = at;
    }
}

void TimelineJson::on_service(const ServiceRecord& r) {
    if (m_closed.load(std::memory_order_relaxed)) return;
    const uint64_t arrival = ns_of(r.arrival), start = ns_of(r.start);
    const uint64_t end = std::max(ns_of(r.end), start);
    seen(end);
    UnitTracks& ut = unit(r.se);
    Out o{m_scratch.get(), kEventMax};
    if (!ut.se_named) {
        ut.se_named = true;
        o.s("{\"ph\":\"M\",\"pid\":");
        o.i(pid_of(r.se));
        o.s(",\"tid\":");
        o.i(se_tid(r.se));
        o.s(",\"name\":\"thread_name\",\"args\":{\"name\":\"SE\"}}");
        commit(o.p, o.n);
        o.n = 0;
        o.s("{\"ph\":\"M\",\"pid\":");
        o.i(pid_of(r.se));
        o.s(",\"tid\":");
        o.i(se_tid(r.se));
        o.s(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":0}}");
        commit(o.p, o.n);
        o.n = 0;
    }
    const std::string_view name = to_string(r.msg.op);
    o.s("{\"ph\":\"X\",\"pid\":");
    o.i(pid_of(r.se));
    o.s(",\"tid\":");
    o.i(se_tid(r.se));
    o.s(",\"ts\":");
    o.us(start);
    o.s(",\"dur\":");
    o.us(end - start);
    o.s(",\"name\":");
    o.str(name.data(), name.size());
    o.s(",\"cat\":\"se\",\"args\":{\"addr\":");
    o.hex(r.msg.addr);
    o.s(",\"wait_ns\":");
    o.u(start > arrival ? start - arrival : 0);
    o.s(",\"st_occupancy\":");
    o.u(r.st_occupancy);
    o.s(",\"overflow\":");
    o.s(r.overflow ? "true" : "false");
    o.s(",\"core\":");
    o.u(r.msg.core);
    o.s(",\"se\":");
    o.u(r.msg.se);
    o.s(",\"buffer_waiting\":");
    o.u(r.buffer_waiting);
    o.s(",\"counters_in_use\":");
    o.u(r.counters_in_use);
    o.s("}}");
    if (!o.overflow) commit(o.p, o.n);
}

void TimelineJson::on_message(const MessageRecord& r) {
    if (!m_closed.load(std::memory_order_relaxed)) seen(ns_of(std::max(r.sent, r.arrived)));
}
void TimelineJson::on_memory(const MemoryRecord& r) {
    if (!m_closed.load(std::memory_order_relaxed)) seen(ns_of(r.end));
}
void TimelineJson::on_link(const LinkRecord& r) {
    if (!m_closed.load(std::memory_order_relaxed)) seen(ns_of(std::max(r.end, r.delivered)));
}
void TimelineJson::on_queue(const QueueRecord& r) {
    if (!m_closed.load(std::memory_order_relaxed)) seen(ns_of(r.at));
}

void TimelineJson::commit(const char* text, size_t n) noexcept {
    const size_t need = n + 2;
    if (m_len + need > kBufSize) flush();
    if (need > kBufSize) return;
    char* dst = m_buf.get() + m_len;
    size_t k = 0;
    if (!m_first) dst[k++] = ',';
    dst[k++] = '\n';
    std::memcpy(dst + k, text, n);
    // The length is published last: a close() from a signal handler that
    // interrupts this sees either none or all of the event.
    m_len += k + n;
    m_first = false;
    ++m_events;
}

void TimelineJson::flush() noexcept {
    const size_t n = m_len;
    write_all(m_buf.get(), n);
    m_len = 0;
}

void TimelineJson::write_all(const char* p, size_t n) noexcept {
    if (m_fd < 0 || m_failed) return;
    while (n > 0) {
        const ssize_t w = ::write(m_fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            m_failed = true;
            m_errno = errno;
            return;
        }
        p += w;
        n -= size_t(w);
    }
}

void TimelineJson::finish(uint64_t end) noexcept {
    if (m_closed.exchange(true)) return;
    char scratch[kEventMax]; // not m_scratch: an interrupted on_* call may be using it
    for (size_t u = 0; u < m_units.size(); ++u) {
        const UnitTracks& ut = m_units[u];
        for (size_t c = 0; c < ut.cores.size(); ++c) {
            const CoreTrack& t = ut.cores[c];
            if (t.open && end > t.start)
                write_core_span(unsigned(u), unsigned(c), t.activity, t.op, t.addr, t.start, end, false, scratch,
                                sizeof scratch);
        }
    }
    flush();
    write_all(kFooter, sizeof kFooter - 1);
    if (m_fd >= 0) {
        // close(2) may report a delayed write error (NFS, quota): the file is incomplete then.
        if (::close(m_fd) != 0 && !m_failed) {
            m_failed = true;
            m_errno = errno;
        }
        m_fd = -1;
    }
    // Complete: under its final name. Incomplete: the previous file stays.
    if (m_failed) {
        m_file.discard();
    } else if (const int e = m_file.commit()) {
        m_failed = true;
        m_errno = e;
    }
}

void TimelineJson::close() noexcept { finish(m_last); }

void TimelineJson::discard() noexcept {
    if (m_closed.exchange(true)) return;
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
    m_file.discard();
}

void TimelineJson::close(const sc_core::sc_time& end) {
    if (m_closed.load()) return;
    finish(std::max(ns_of(end), m_last));
}

} // namespace syncron

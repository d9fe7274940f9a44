#include "traces/progress.h"

#include <cstdio>

#include <unistd.h>

namespace syncron {

ProgressReporter::ProgressReporter(sc_core::sc_module_name name, std::function<uint64_t()> operations_done,
                                   std::ostream& out, bool force)
    : sc_core::sc_module(name), m_ops(std::move(operations_done)), m_out(out), m_active(force || isatty(2) == 1),
      m_period(10, sc_core::SC_US), m_host_start(std::chrono::steady_clock::now()), m_last_print(m_host_start) {
    if (!m_active) return; // no process: costs nothing, prints nothing
    SC_HAS_PROCESS(ProgressReporter);
    SC_METHOD(tick); // runs once at initialization, then on m_wake
    sensitive << m_wake;
}

ProgressReporter::~ProgressReporter() {
    // A run that ended without finish() still gets its final line.
    if (m_active && !m_finished) finish();
}

void ProgressReporter::start_of_simulation() { m_host_start = m_last_print = std::chrono::steady_clock::now(); }

void ProgressReporter::tick() {
    if (m_stopped || m_finished) return;
    const uint64_t ops = m_ops ? m_ops() : 0;
    if (ops != m_last_ops || m_checks == 0) {
        m_last_ops = ops;
        m_idle_checks = 0;
    } else {
        ++m_idle_checks;
    }
    ++m_checks;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - m_last_print).count() >= m_min_interval) {
        print(false);
        m_last_print = now;
    }
    // Nothing else pending: the model is idle. Scheduling another wake-up
    // would be the only thing keeping the kernel alive.
    if (!sc_core::sc_pending_activity()) {
        finish();
        return;
    }
    // Something is pending, but no operation completed for a while: it may
    // be only other pollers of the same kind (the platform's SIGINT watch),
    // which would keep each other alive forever. Go quiet; finish() still
    // prints the final line.
    if (m_idle_checks >= m_stall_checks) {
        m_dormant = true;
        return;
    }
    sc_core::sc_time delay = m_period;
    if (!sc_core::sc_pending_activity_at_current_time()) {
        // Wake no earlier than the model's next activity (skips idle time).
        const sc_core::sc_time next = sc_core::sc_time_to_pending_activity();
        if (next > delay) delay = next;
    }
    m_wake.notify(delay);
}

std::string ProgressReporter::format_line(double sim_us, uint64_t ops, uint64_t total, double host_s) {
    const auto n = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    char line[200];
    if (total == 0) {
        std::snprintf(line, sizeof line, "[syncron] sim %.3f us | ops %llu | host %.1f s", sim_us, n(ops), host_s);
        return line;
    }
    // Rounded down, so 100% means done.
    const unsigned percent = ops >= total ? 100u : static_cast<unsigned>(ops * 100.0 / static_cast<double>(total));
    int len = std::snprintf(line, sizeof line, "[syncron] %3u%% | sim %.3f us | ops %llu/%llu | host %.1f s", percent,
                            sim_us, n(ops), n(total), host_s);
    if (ops > 0 && ops < total && len > 0 && static_cast<size_t>(len) < sizeof line) {
        const double left = host_s * static_cast<double>(total - ops) / static_cast<double>(ops);
        std::snprintf(line + len, sizeof line - static_cast<size_t>(len), " | left ~%.1f s", left);
    }
    return line;
}

void ProgressReporter::print(bool final_line) {
    const double sim_us = sc_core::sc_time_stamp().to_seconds() * 1e6;
    const double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_host_start).count();
    const uint64_t ops = m_ops ? m_ops() : 0;
    std::string line = format_line(sim_us, ops, m_total, host_s);
    const size_t len = line.size();
    // Blanks over what a longer earlier line left on the terminal.
    if (len < m_last_len) line.append(m_last_len - len, ' ');
    m_last_len = len;
    m_out << '\r' << line << (final_line ? "\n" : "") << std::flush;
    ++m_lines;
}

void ProgressReporter::stop() {
    m_stopped = true;
    m_wake.cancel();
    finish();
}

void ProgressReporter::finish() {
    if (!m_active || m_finished) return;
    m_finished = true;
    m_wake.cancel();
    print(true);
}

} // namespace syncron

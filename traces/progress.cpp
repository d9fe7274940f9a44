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

void ProgressReporter::print(bool final_line) {
    const double sim_us = sc_core::sc_time_stamp().to_seconds() * 1e6;
    const double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_host_start).count();
    const unsigned long long ops = m_ops ? static_cast<unsigned long long>(m_ops()) : 0ULL;
    char line[160];
    std::snprintf(line, sizeof line, "\r[syncron] sim %.3f us | ops %llu | host %.1f s%s", sim_us, ops, host_s,
                  final_line ? "\n" : "");
    m_out << line << std::flush;
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

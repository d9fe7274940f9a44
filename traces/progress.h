#pragma once
// Progress line on the terminal while a simulation runs:
//   \r[syncron]  45% | sim 12.345 us | ops 540/1200 | host 3.2 s | left ~3.9 s
// rewritten at most every 0.5 s of host time, and a final line + newline
// when the run ends (finish()). The percentage and the estimated host time
// left appear when the total is known (set_total()); without it the line is
//   \r[syncron] sim 12.345 us | ops 12345 | host 3.2 s
//
// Active only when stderr is a terminal (isatty(2)) or `force`; otherwise it
// spawns no process and writes nothing at all.
//
// How it stays cheap and lets sc_start() return:
//  * One SC_METHOD wakes every `check period` of simulated time (10 us by
//    default) and only then reads the host clock; it prints when at least
//    the minimum interval (0.5 s) of host time has passed since the last line.
//  * It schedules its next wake-up only if the kernel has something else
//    pending (sc_pending_activity()) AND operations_done() changed within
//    the last `stall` checks (default 10, i.e. 100 us of simulated time):
//      - nothing pending: the model is idle; it prints the final line and
//        schedules nothing more, so the kernel runs out of events and
//        sc_start() returns;
//      - something pending but no operation completed for `stall` checks:
//        what is pending may be only another poller of the same kind (the
//        platform's SIGINT watch re-arms itself while anything is pending),
//        and two such pollers would keep each other, and the kernel, alive
//        forever. It goes quiet (the line stays; finish() ends it). A
//        finished or deadlocked model therefore always lets sc_start()
//        return.
//    When the model's next activity is further away than the period, it
//    wakes exactly then (idle stretches add no time step of its own).
//  * Its wake-ups never change what the model does, but its last wake-up
//    can come after the model's last event and so advance the kernel's
//    clock: without stop(), sc_time_stamp() after sc_start() can be up to
//    (stall + 1) periods later than the model's end. To keep the end time
//    (and anything computed from sc_time_stamp() afterwards) exact, call
//    stop() when the workload has completed (e.g. where the platform notes
//    that every core is done): it cancels the pending wake-up and prints
//    the final line; the SEs' drain after that is unaffected.
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>

#include <systemc>

namespace syncron {

class ProgressReporter : public sc_core::sc_module {
public:
    ProgressReporter(sc_core::sc_module_name name, std::function<uint64_t()> operations_done,
                     std::ostream& out = std::cerr, bool force = false);
    ~ProgressReporter() override;

    /// The workload completed: no more wake-ups; prints the final line.
    void stop();
    /// Prints the final line and a newline (once; nothing when inactive).
    void finish();

    bool active() const { return m_active; }
    /// Operations the whole run will complete (e.g. ops per core x cores);
    /// 0 = unknown (no percentage, no estimate).
    void set_total(uint64_t operations) { m_total = operations; }
    /// One line (without the leading '\r' and the newline): the percentage
    /// and the estimate of the host time left (host time so far scaled by
    /// the operations still to do) when `total` > 0; the estimate needs a
    /// completed operation and is left out once the run is done.
    static std::string format_line(double sim_us, uint64_t ops, uint64_t total, double host_s);
    /// Simulated time between host-clock checks (default 10 us). Set before sc_start().
    void set_check_period(const sc_core::sc_time& period) { m_period = period; }
    /// Minimum host time between two lines (default 0.5 s).
    void set_min_interval(double seconds) { m_min_interval = seconds; }
    /// Checks without a completed operation after which it goes quiet (default 10).
    void set_stall_checks(unsigned checks) { m_stall_checks = checks ? checks : 1; }
    /// Went quiet because no operation completed for `stall` checks.
    bool dormant() const { return m_dormant; }
    /// Lines written so far (the final one included).
    uint64_t lines() const { return m_lines; }

private:
    void tick();
    void print(bool final_line);
    void start_of_simulation() override;

    std::function<uint64_t()> m_ops;
    std::ostream& m_out;
    bool m_active = false;
    bool m_stopped = false;
    bool m_finished = false;
    bool m_dormant = false;
    uint64_t m_lines = 0;
    uint64_t m_checks = 0;
    uint64_t m_last_ops = 0;
    uint64_t m_total = 0;
    size_t m_last_len = 0;
    unsigned m_idle_checks = 0;
    unsigned m_stall_checks = 10;
    sc_core::sc_time m_period;
    double m_min_interval = 0.5;
    sc_core::sc_event m_wake;
    std::chrono::steady_clock::time_point m_host_start, m_last_print;
};

} // namespace syncron

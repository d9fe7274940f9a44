// The transaction database (--trace-db): synthetic probe records written by
// TransactionDb and read back with the SQLite C API, including the SQL
// cookbook of docs/traces.md (its queries are taken from the document itself).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "traces/transaction_db.h"

using namespace syncron;
using sc_core::sc_time;
using sc_core::SC_NS;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

sc_time ns(double v) { return sc_time(v, SC_NS); }

/// A fresh path in the temporary directory, removed (with companions) at scope exit.
struct TempDb {
    std::string path;
    explicit TempDb(const std::string& name) {
        path = (fs::temp_directory_path() / ("syncron_test_db_" + std::to_string(::getpid()) + "_" + name + ".db"))
                   .string();
        clean();
    }
    ~TempDb() { clean(); }
    void clean() const {
        for (const char* s : {"", "-wal", "-shm", "-journal"}) {
            std::error_code ec;
            fs::remove(path + s, ec);
        }
    }
};

using Row = std::vector<std::string>; // NULL reads as "NULL"

/// A read connection on a database file.
class Reader {
public:
    explicit Reader(const std::string& path) {
        REQUIRE(sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
    }
    ~Reader() { sqlite3_close(m_db); }

    std::vector<Row> query(const std::string& sql) const {
        std::vector<Row> out;
        sqlite3_stmt* st = nullptr;
        const int rc = sqlite3_prepare_v2(m_db, sql.c_str(), -1, &st, nullptr);
        INFO(sql);
        INFO(sqlite3_errmsg(m_db));
        REQUIRE(rc == SQLITE_OK);
        int s;
        while ((s = sqlite3_step(st)) == SQLITE_ROW) {
            Row r;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                const auto* t = sqlite3_column_text(st, c);
                r.push_back(t ? reinterpret_cast<const char*>(t) : "NULL");
            }
            out.push_back(std::move(r));
        }
        INFO(sqlite3_errmsg(m_db));
        CHECK(s == SQLITE_DONE);
        sqlite3_finalize(st);
        return out;
    }
    std::string scalar(const std::string& sql) const {
        auto rows = query(sql);
        REQUIRE(rows.size() == 1);
        REQUIRE(rows[0].size() == 1);
        return rows[0][0];
    }
    double number(const std::string& sql) const { return std::stod(scalar(sql)); }
    int64_t count(const std::string& table) const { return std::stoll(scalar("SELECT COUNT(*) FROM " + table)); }

private:
    sqlite3* m_db = nullptr;
};

MessageRecord message(Endpoint src, Endpoint dst, Opcode op, uint64_t addr, double sent, double arrived,
                      uint16_t core = 0, uint16_t se = 0, uint64_t info = 0) {
    MessageRecord r;
    r.src = src;
    r.dst = dst;
    r.msg.op = op;
    r.msg.addr = addr;
    r.msg.core = core;
    r.msg.se = se;
    r.msg.info = info;
    r.sent = ns(sent);
    r.arrived = ns(arrived);
    return r;
}

/// A core's message to its own SE and the SE's reply, 2 ns on the way.
MessageRecord to_se(unsigned unit, unsigned core, Opcode op, uint64_t addr, double arrived) {
    return message(Endpoint::core(unit, core), Endpoint::se(unit), op, addr, arrived - 2, arrived, core, unit);
}
MessageRecord from_se(unsigned unit, unsigned core, Opcode op, uint64_t addr, double sent) {
    return message(Endpoint::se(unit), Endpoint::core(unit, core), op, addr, sent, sent + 2, core, unit);
}

ServiceRecord service(unsigned se, Opcode op, uint64_t addr, double arrival, double start, double end, unsigned st) {
    ServiceRecord r;
    r.se = se;
    r.msg.op = op;
    r.msg.addr = addr;
    r.arrival = ns(arrival);
    r.start = ns(start);
    r.end = ns(end);
    r.st_occupancy = st;
    return r;
}

LinkRecord link(unsigned src, unsigned dst, double start, double end, double delivered, unsigned bytes = 16) {
    LinkRecord r;
    r.src = src;
    r.dst = dst;
    r.bytes = bytes;
    r.start = ns(start);
    r.end = ns(end);
    r.delivered = ns(delivered);
    return r;
}

/// The ```sql blocks of docs/traces.md's "Transaction database" section whose
/// first line is "-- cookbook: NAME", by NAME.
std::map<std::string, std::string> cookbook() {
    const fs::path doc = fs::path(SYNCRON_SOURCE_DIR) / "docs" / "traces.md";
    std::ifstream in(doc);
    INFO(doc.string());
    REQUIRE(in.good());
    std::map<std::string, std::string> out;
    std::string line, name, sql;
    bool in_section = false, in_block = false;
    while (std::getline(in, line)) {
        if (!in_block && line.rfind("## ", 0) == 0) in_section = line.find("Transaction database") != std::string::npos;
        if (!in_section) continue;
        if (!in_block && line.rfind("```sql", 0) == 0) {
            in_block = true;
            name.clear();
            sql.clear();
        } else if (in_block && line.rfind("```", 0) == 0) {
            in_block = false;
            if (!name.empty()) out[name] = sql;
        } else if (in_block) {
            const std::string tag = "-- cookbook: ";
            if (sql.empty() && name.empty() && line.rfind(tag, 0) == 0)
                name = line.substr(tag.size());
            else
                sql += line + "\n";
        }
    }
    return out;
}

// ASan keeps freed blocks in quarantine, so the process's RSS grows with
// every allocation there; the RSS bound is checked only without it.
#if defined(__SANITIZE_ADDRESS__) || defined(SYNCRON_ADDRESS_SANITIZER)
constexpr bool kRssIsMeaningful = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kRssIsMeaningful = false;
#else
constexpr bool kRssIsMeaningful = true;
#endif
#else
constexpr bool kRssIsMeaningful = true;
#endif

long rss_kib() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return 0;
}

} // namespace

TEST_CASE("trace db: row counts of every table and meta", "[traces][db]") {
    TempDb f("counts");
    {
        TransactionDb db(f.path);
        db.on_message(to_se(0, 1, Opcode::lock_acquire_local, 0x40, 10));
        db.on_message(from_se(0, 1, Opcode::lock_grant_local, 0x40, 12));
        db.on_service(service(0, Opcode::lock_acquire_local, 0x40, 10, 11, 12, 1));
        MemoryRecord m;
        m.addr = 0x1000;
        db.on_memory(m);
        db.on_memory(m);
        db.on_memory(m);
        CoreStateRecord c;
        db.on_core_state(c);
        db.on_link(link(0, 1, 1, 2, 3));
        QueueRecord q;
        q.component = "top.vault0";
        db.on_queue(q);
        db.on_queue(q);
        db.set_meta("scheme", "syncron");
        db.set_meta("workload", "lock_counter");
        db.set_meta("status", "running");
        db.set_meta("status", "ok"); // replaces
        CHECK(db.rows("messages") == 2);
        CHECK(db.rows("services") == 1);
        CHECK(db.rows("memory") == 3);
        CHECK(db.rows("core_states") == 1);
        CHECK(db.rows("links") == 1);
        CHECK(db.rows("queues") == 2);
        CHECK(db.rows("meta") == 5); // schema_version, time_unit + 3 keys
        CHECK_THROWS_AS(db.rows("nope"), std::invalid_argument);
        db.close();
        CHECK_FALSE(db.is_open());
        db.close();                                                       // idempotent
        db.on_message(to_se(0, 1, Opcode::lock_acquire_local, 0x40, 20)); // ignored after close
        CHECK(db.rows("messages") == 2);
    }
    Reader r(f.path);
    CHECK(r.count("messages") == 2);
    CHECK(r.count("services") == 1);
    CHECK(r.count("memory") == 3);
    CHECK(r.count("core_states") == 1);
    CHECK(r.count("links") == 1);
    CHECK(r.count("queues") == 2);
    CHECK(r.count("meta") == 5);
    CHECK(r.scalar("SELECT value FROM meta WHERE key = 'status'") == "ok");
    CHECK(r.scalar("SELECT value FROM meta WHERE key = 'workload'") == "lock_counter");
    CHECK(r.scalar("SELECT value FROM meta WHERE key = 'time_unit'") == "ns");
    CHECK(r.scalar("SELECT value FROM meta WHERE key = 'schema_version'") == "1");
    // Indexes exist after close(); the file is a plain (non-WAL) database.
    CHECK(r.count("sqlite_master WHERE type = 'index' AND name IN "
                  "('messages_addr', 'messages_opcode', 'services_se', 'memory_target')") == 4);
    CHECK(r.scalar("PRAGMA journal_mode") == "delete");
    CHECK(r.scalar("PRAGMA integrity_check") == "ok");
    CHECK_FALSE(fs::exists(f.path + "-wal"));
}

TEST_CASE("trace db: a message's fields and latency", "[traces][db]") {
    TempDb f("message");
    {
        TransactionDb db(f.path);
        db.on_message(message(Endpoint::core(1, 3), Endpoint::se(1), Opcode::barrier_wait_local_within_unit, 0x12345678,
                              10, 25.5, 3, 1, 16));
        db.on_message(message(Endpoint::se(1), Endpoint::se(0), Opcode::lock_acquire_global, 0x80, 100.25, 140, 2, 1));
    }
    Reader r(f.path);
    const auto rows = r.query("SELECT id, sent_ns, arrived_ns, latency_ns, src_kind, src_unit, src_core,"
                              " dst_kind, dst_unit, dst_core, opcode, level, primitive, addr, core_id, se_id,"
                              " info FROM messages ORDER BY id");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0] == Row{"1", "10.0", "25.5", "15.5", "core", "1", "3", "se", "1", "NULL",
                         "barrier_wait_local_within_unit", "local", "barrier", "305419896", "3", "1", "16"});
    CHECK(rows[1] == Row{"2", "100.25", "140.0", "39.75", "se", "1", "NULL", "se", "0", "NULL", "lock_acquire_global",
                         "global", "lock", "128", "2", "1", "0"});
    CHECK(r.number("SELECT SUM(latency_ns - (arrived_ns - sent_ns)) FROM messages") == 0.0);
}

TEST_CASE("trace db: times are exact decimals of the resolution, without float noise", "[traces][db]") {
    // 1234.6 - 1188.2 in doubles is 46.399999999999864; the recorder computes
    // differences from the integer ticks (1 ps) and divides once.
    TempDb f("noise");
    const sc_time sent(1188200, sc_core::SC_PS), arrived(1234600, sc_core::SC_PS);
    {
        TransactionDb db(f.path);
        MessageRecord m = message(Endpoint::core(0, 1), Endpoint::se(0), Opcode::lock_acquire_local, 0x40, 0, 0);
        m.sent = sent;
        m.arrived = arrived;
        db.on_message(m);
        ServiceRecord s = service(0, Opcode::lock_acquire_local, 0x40, 0, 0, 0, 1);
        s.arrival = sent;
        s.start = arrived;
        s.end = sc_time(1234999, sc_core::SC_PS);
        db.on_service(s);
        MemoryRecord mem;
        mem.begin = sc_time(400, sc_core::SC_PS);
        mem.end = sc_time(46800, sc_core::SC_PS);
        db.on_memory(mem);
    }
    Reader r(f.path);
    CHECK(r.query("SELECT sent_ns, arrived_ns, latency_ns FROM messages") ==
          std::vector<Row>{{"1188.2", "1234.6", "46.4"}});
    CHECK(r.query("SELECT arrival_ns, start_ns, end_ns, wait_ns FROM services") ==
          std::vector<Row>{{"1188.2", "1234.6", "1234.999", "46.4"}});
    CHECK(r.query("SELECT begin_ns, end_ns, latency_ns FROM memory") == std::vector<Row>{{"0.4", "46.8", "46.4"}});
}

TEST_CASE("trace db: services, memory, core states, links and queues fields", "[traces][db]") {
    TempDb f("fields");
    {
        // Home unit: 1 GiB per unit; vault: 256-byte interleaving over 32 vaults.
        TransactionDb db(
            f.path, [](uint64_t a) { return unsigned(a >> 30); }, [](uint64_t a) { return unsigned((a >> 8) % 32); });
        ServiceRecord s = service(2, Opcode::sem_wait_local, 0x500, 30, 34.5, 40, 7);
        s.buffer_waiting = 3;
        s.counters_in_use = 2;
        s.overflow = true;
        db.on_service(s);

        MemoryRecord m;
        m.initiator = Endpoint::core(1, 5);
        m.addr = (uint64_t(1) << 30) + 0x300; // unit 1, vault 3
        m.size = 64;
        m.write = false;
        m.at = true;
        m.begin = ns(100);
        m.end_req = ns(101);
        m.begin_resp = ns(150);
        m.end = ns(152);
        db.on_memory(m);
        m.initiator = Endpoint::se(0);
        m.write = true;
        m.at = false;
        db.on_memory(m);

        CoreStateRecord c;
        c.unit = 1;
        c.core = 4;
        c.global_id = 20;
        c.activity = CoreActivity::waiting_sync;
        c.operation = "lock_acquire";
        c.addr = 0x40;
        c.at = ns(7);
        db.on_core_state(c);

        LinkRecord l = link(0, 3, 200, 208, 230, 24);
        l.response = true;
        db.on_link(l);

        QueueRecord q;
        q.component = "top.unit1.vault3.queue";
        q.depth = 4;
        q.at = ns(99);
        db.on_queue(q);
    }
    Reader r(f.path);
    CHECK(r.query("SELECT se, opcode, addr, arrival_ns, start_ns, end_ns, wait_ns, st_occupancy, buffer_waiting,"
                  " counters_in_use, overflow FROM services") ==
          std::vector<Row>{{"2", "sem_wait_local", "1280", "30.0", "34.5", "40.0", "4.5", "7", "3", "2", "1"}});
    CHECK(r.query("SELECT initiator_kind, initiator_unit, initiator_core, target_unit, target_vault, addr, size,"
                  " command, begin_ns, end_req_ns, begin_resp_ns, end_ns, latency_ns, at FROM memory ORDER BY id") ==
          std::vector<Row>{
              {"core", "1", "5", "1", "3", "1073742592", "64", "read", "100.0", "101.0", "150.0", "152.0", "52.0", "1"},
              {"se", "0", "NULL", "1", "3", "1073742592", "64", "write", "100.0", "101.0", "150.0", "152.0", "52.0",
               "0"}});
    CHECK(r.query("SELECT unit, core, global_id, activity, operation, addr, at_ns FROM core_states") ==
          std::vector<Row>{{"1", "4", "20", "waiting_sync", "lock_acquire", "64", "7.0"}});
    CHECK(r.query("SELECT src, dst, bytes, response, start_ns, end_ns, delivered_ns FROM links") ==
          std::vector<Row>{{"0", "3", "24", "1", "200.0", "208.0", "230.0"}});
    CHECK(r.query("SELECT component, depth, at_ns FROM queues") ==
          std::vector<Row>{{"top.unit1.vault3.queue", "4", "99.0"}});
}

TEST_CASE("trace db: memory targets are NULL without address functions", "[traces][db]") {
    TempDb f("nofn");
    {
        TransactionDb db(f.path);
        MemoryRecord m;
        m.addr = 0x300;
        db.on_memory(m);
    }
    Reader r(f.path);
    CHECK(r.query("SELECT target_unit, target_vault FROM memory") == std::vector<Row>{{"NULL", "NULL"}});
}

TEST_CASE("trace db: a recorder destroyed without close() leaves a readable database", "[traces][db]") {
    TempDb f("noclose");
    {
        TransactionDb db(f.path, {}, {}, 7); // several batches and an open one
        for (int i = 0; i < 30; ++i) db.on_message(to_se(0, i % 4, Opcode::lock_acquire_local, 0x40, 10 + i));
        db.set_meta("status", "error");
        db.set_meta("error", "deadlock detected");
    }
    Reader r(f.path);
    CHECK(r.scalar("PRAGMA integrity_check") == "ok");
    CHECK(r.count("messages") == 30);
    CHECK(r.scalar("SELECT value FROM meta WHERE key = 'error'") == "deadlock detected");
}

TEST_CASE("trace db: a process ending without close() keeps the committed batches", "[traces][db]") {
    TempDb f("killed");
    const pid_t pid = fork();
    if (pid == 0) {
        int code = 0;
        try {
            auto* db = new TransactionDb(f.path, {}, {}, 100); // never deleted
            db->set_meta("status", "running");
            db->flush();
            for (int i = 0; i < 250; ++i) db->on_message(to_se(0, 0, Opcode::lock_release_local, 0x40, 10 + i));
        } catch (...) {
            code = 1;
        }
        _exit(code); // no destructors, no close(): like a crash
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    // Never completed: nothing under the final name; the committed batches
    // are in the temporary the process wrote (StagedFile's name).
    CHECK_FALSE(fs::exists(f.path));
    const fs::path p(f.path);
    const std::string temporary =
        (p.parent_path() / ("." + p.filename().string() + ".tmp." + std::to_string(pid))).string();
    Reader r(temporary);
    CHECK(r.scalar("PRAGMA integrity_check") == "ok");
    CHECK(r.count("messages") == 200); // two committed batches; the open one is lost
    CHECK(r.scalar("SELECT value FROM meta WHERE key = 'status'") == "running");
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(temporary + suffix);
}

TEST_CASE("trace db: flush() makes the rows visible while recording", "[traces][db]") {
    TempDb f("flush");
    TransactionDb db(f.path);
    db.on_message(to_se(0, 0, Opcode::lock_acquire_local, 0x40, 10));
    db.on_message(to_se(0, 1, Opcode::lock_acquire_local, 0x40, 11));
    db.flush();
    {
        Reader r(db.temporary()); // under its final name only once closed
        CHECK(r.count("messages") == 2);
    }
    CHECK_FALSE(fs::exists(f.path));
    db.on_message(to_se(0, 2, Opcode::lock_acquire_local, 0x40, 12));
    db.close();
    Reader r(f.path);
    CHECK(r.count("messages") == 3);
}

TEST_CASE("trace db: an unwritable path throws naming the path", "[traces][db]") {
    const std::string missing = "/nonexistent-syncron-dir/sub/trace.db";
    try {
        TransactionDb db(missing);
        FAIL("no exception for " << missing);
    } catch (const std::runtime_error& e) {
        CHECK_THAT(e.what(), Contains(missing));
        CHECK_THAT(e.what(), Contains("unable to open"));
    }
    // A directory cannot be replaced by the database either.
    const std::string dir = fs::temp_directory_path().string();
    try {
        TransactionDb db(dir);
        FAIL("no exception for " << dir);
    } catch (const std::runtime_error& e) {
        CHECK_THAT(e.what(), Contains(dir));
    }
}

TEST_CASE("trace db: an existing file is replaced", "[traces][db]") {
    TempDb f("replace");
    {
        std::ofstream junk(f.path);
        junk << "not a database";
    }
    {
        TransactionDb db(f.path);
        db.on_message(to_se(0, 0, Opcode::lock_acquire_local, 0x40, 10));
        db.on_message(to_se(0, 0, Opcode::lock_acquire_local, 0x40, 11));
    }
    {
        TransactionDb db(f.path);
        db.on_message(to_se(0, 0, Opcode::lock_release_local, 0x40, 20));
    }
    Reader r(f.path);
    CHECK(r.count("messages") == 1);
    CHECK(r.scalar("SELECT opcode FROM messages") == "lock_release_local");
}

TEST_CASE("trace db: 100000 rows stream with bounded memory", "[traces][db]") {
    TempDb f("stream");
    constexpr int kRows = 100000;
    const long rss_before = rss_kib();
    sqlite3_memory_highwater(1); // reset: SQLite's own peak from here on
    {
        TransactionDb db(
            f.path, [](uint64_t a) { return unsigned(a >> 30); }, [](uint64_t a) { return unsigned((a >> 8) % 32); });
        MemoryRecord m;
        m.initiator = Endpoint::core(0, 1);
        for (int i = 0; i < kRows; ++i) {
            db.on_message(to_se(i % 4, i % 16, Opcode::lock_acquire_local, 0x40 * (i % 64), 10 + i));
            m.addr = uint64_t(i) * 64;
            m.begin = ns(i);
            m.end = ns(i + 30);
            db.on_memory(m);
            if (i % 10 == 0) db.on_service(service(i % 4, Opcode::lock_acquire_local, 0x40, i, i + 1, i + 2, 1));
        }
        CHECK(db.rows("messages") == kRows);
        CHECK(db.rows("memory") == kRows);
        CHECK(db.rows("services") == kRows / 10);
        db.close();
    }
    // Rows are on disk, not in memory: SQLite's peak heap stays at its page
    // cache whatever the row count, and so does the process's.
    const sqlite3_int64 sqlite_peak = sqlite3_memory_highwater(0);
    INFO("SQLite peak heap " << sqlite_peak / 1024 << " KiB");
    CHECK(sqlite_peak < 16 * 1024 * 1024);
    if (kRssIsMeaningful) {
        const long growth = rss_kib() - rss_before;
        INFO("RSS growth " << growth << " KiB");
        CHECK(growth < 64 * 1024);
    }
    Reader r(f.path);
    CHECK(r.count("messages") == kRows);
    CHECK(r.count("memory") == kRows);
    CHECK(r.count("services") == kRows / 10);
    CHECK(r.number("SELECT MAX(id) FROM messages") == kRows);
}

TEST_CASE("trace db: the cookbook queries of docs/traces.md", "[traces][db]") {
    const auto book = cookbook();
    for (const char* name : {"lock-handoff", "lock-handoff-simple", "contended-variables", "st-occupancy",
                             "link-utilization", "latency-by-opcode", "se-waiting", "memory-per-vault", "core-time"}) {
        INFO(name);
        CHECK(book.count(name) == 1);
    }

    TempDb f("cookbook");
    {
        TransactionDb db(f.path);
        const uint64_t A = 0x100, B = 0x200, C = 0x300;
        // Unit 0, lock A: core 0 acquires a free lock (no hand-off).
        db.on_message(to_se(0, 0, Opcode::lock_acquire_local, A, 10));
        db.on_message(from_se(0, 0, Opcode::lock_grant_local, A, 12));
        // core 1 waits; core 0's release hands the lock to core 1 after 4 ns.
        db.on_message(to_se(0, 1, Opcode::lock_acquire_local, A, 20));
        db.on_message(to_se(0, 0, Opcode::lock_release_local, A, 30));
        db.on_message(from_se(0, 1, Opcode::lock_grant_local, A, 34));
        // core 1 releases with nobody waiting; core 2 acquires later (22 ns
        // after the release): not a hand-off, only the simple query counts it.
        db.on_message(to_se(0, 1, Opcode::lock_release_local, A, 50));
        db.on_message(to_se(0, 2, Opcode::lock_acquire_local, A, 70));
        db.on_message(from_se(0, 2, Opcode::lock_grant_local, A, 72));
        // Unit 1, lock B: a hand-off after 6 ns; a release and grant at the
        // same instant for another lock C count as a 0 ns hand-off.
        db.on_message(to_se(1, 0, Opcode::lock_acquire_local, B, 100));
        db.on_message(from_se(1, 0, Opcode::lock_grant_local, B, 101));
        db.on_message(to_se(1, 1, Opcode::lock_acquire_local, B, 105));
        db.on_message(to_se(1, 0, Opcode::lock_release_local, B, 110));
        db.on_message(from_se(1, 1, Opcode::lock_grant_local, B, 116));
        db.on_message(to_se(1, 2, Opcode::lock_acquire_local, C, 120));
        db.on_message(to_se(1, 3, Opcode::lock_release_local, C, 130));
        db.on_message(from_se(1, 2, Opcode::lock_grant_local, C, 130));
        // A global message (latency 40 ns) to vary the opcode averages.
        db.on_message(message(Endpoint::se(1), Endpoint::se(0), Opcode::lock_acquire_global, C, 140, 180, 0, 1));

        // SE 0 serves three messages in µs 0 and one in µs 1; SE 1 one.
        db.on_service(service(0, Opcode::lock_acquire_local, A, 90, 100, 110, 1));
        db.on_service(service(0, Opcode::lock_acquire_local, A, 880, 900, 910, 3));
        db.on_service(service(0, Opcode::lock_release_local, A, 950, 960, 970, 2));
        db.on_service(service(0, Opcode::lock_acquire_local, A, 1490, 1500, 1600, 2));
        db.on_service(service(1, Opcode::lock_acquire_local, B, 10, 20, 30, 5));

        // Links: 0->1 busy 20 ns, 1->0 busy 5 ns; the run ends at 2000 ns.
        db.on_link(link(0, 1, 0, 10, 15));
        db.on_link(link(0, 1, 20, 30, 35));
        db.on_link(link(1, 0, 5, 10, 2000));

        CoreStateRecord c;
        c.global_id = 0;
        c.activity = CoreActivity::computing;
        c.operation = "compute";
        c.at = ns(0);
        db.on_core_state(c);
        c.activity = CoreActivity::waiting_sync;
        c.operation = "lock_acquire";
        c.at = ns(8);
        db.on_core_state(c);
        c.activity = CoreActivity::done;
        c.operation = "";
        c.at = ns(14);
        db.on_core_state(c);
        MemoryRecord m;
        m.addr = 0x40;
        m.end = ns(52);
        db.on_memory(m);
    }
    Reader r(f.path);

    // Every cookbook query of the section runs on the schema.
    for (const auto& [name, sql] : book) {
        INFO(name);
        (void)r.query(sql);
    }

    SECTION("lock hand-off latency per unit") {
        CHECK(r.query(book.at("lock-handoff")) ==
              std::vector<Row>{{"0", "1", "4.0", "4.0", "4.0"}, {"1", "2", "3.0", "0.0", "6.0"}});
        CHECK(r.query(book.at("lock-handoff-simple")) ==
              std::vector<Row>{{"0", "2", "13.0", "4.0", "22.0"}, {"1", "2", "3.0", "0.0", "6.0"}});
    }
    SECTION("most contended variables") {
        const auto rows = r.query(book.at("contended-variables"));
        REQUIRE(rows.size() == 3);
        CHECK(rows[0][0] == "0x100"); // 8 messages
        CHECK(rows[0][1] == "lock");
        CHECK(rows[0][2] == "8");
        CHECK(rows[1][0] == "0x200"); // 5
        CHECK(rows[1][2] == "5");
        CHECK(rows[2][0] == "0x300"); // 4
        CHECK(rows[2][2] == "4");
    }
    SECTION("ST occupancy per microsecond") {
        CHECK(r.query(book.at("st-occupancy")) ==
              std::vector<Row>{{"0", "0", "3", "3", "2.0"}, {"0", "1", "1", "2", "2.0"}, {"1", "0", "1", "5", "5.0"}});
    }
    SECTION("link utilization") {
        CHECK(r.query(book.at("link-utilization")) ==
              std::vector<Row>{{"0", "1", "2", "32", "20.0", "0.01"}, {"1", "0", "1", "16", "5.0", "0.0025"}});
    }
    SECTION("average message latency by opcode") {
        const auto rows = r.query(book.at("latency-by-opcode"));
        REQUIRE(rows.size() == 4);
        CHECK(rows[0] == Row{"lock_acquire_global", "global", "1", "40.0", "40.0", "40.0"});
        for (size_t i = 1; i < rows.size(); ++i) CHECK(rows[i][3] == "2.0");
    }
    SECTION("where each core's time goes") {
        CHECK(r.query(book.at("core-time")) ==
              std::vector<Row>{{"0", "computing", "8.0"}, {"0", "waiting_sync", "6.0"}});
    }
}

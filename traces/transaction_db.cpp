#include "traces/transaction_db.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <sqlite3.h>
#include <unistd.h>

namespace syncron {
namespace {

// Tables in creation order; the indexes come at close() (inserts stay cheap).
constexpr const char* kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE messages(
  id INTEGER PRIMARY KEY, sent_ns REAL, arrived_ns REAL, latency_ns REAL,
  src_kind TEXT, src_unit INT, src_core INT, dst_kind TEXT, dst_unit INT, dst_core INT,
  opcode TEXT, level TEXT, primitive TEXT, addr INT, core_id INT, se_id INT, info INT);
CREATE TABLE services(
  id INTEGER PRIMARY KEY, se INT, opcode TEXT, addr INT,
  arrival_ns REAL, start_ns REAL, end_ns REAL, wait_ns REAL,
  st_occupancy INT, buffer_waiting INT, counters_in_use INT, overflow INT);
CREATE TABLE memory(
  id INTEGER PRIMARY KEY, initiator_kind TEXT, initiator_unit INT, initiator_core INT,
  target_unit INT, target_vault INT, addr INT, size INT, command TEXT,
  begin_ns REAL, end_req_ns REAL, begin_resp_ns REAL, end_ns REAL, latency_ns REAL, at INT);
CREATE TABLE core_states(
  id INTEGER PRIMARY KEY, unit INT, core INT, global_id INT,
  activity TEXT, operation TEXT, addr INT, at_ns REAL);
CREATE TABLE links(
  id INTEGER PRIMARY KEY, src INT, dst INT, bytes INT, response INT,
  start_ns REAL, end_ns REAL, delivered_ns REAL);
CREATE TABLE queues(id INTEGER PRIMARY KEY, component TEXT, depth INT, at_ns REAL);
)sql";

constexpr const char* kIndexes = R"sql(
CREATE INDEX IF NOT EXISTS messages_addr ON messages(addr);
CREATE INDEX IF NOT EXISTS messages_opcode ON messages(opcode);
CREATE INDEX IF NOT EXISTS services_se ON services(se);
CREATE INDEX IF NOT EXISTS memory_target ON memory(target_unit, target_vault);
)sql";

constexpr const char* kInsert[] = {
    "INSERT INTO messages(sent_ns, arrived_ns, latency_ns, src_kind, src_unit, src_core, dst_kind,"
    " dst_unit, dst_core, opcode, level, primitive, addr, core_id, se_id, info)"
    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO services(se, opcode, addr, arrival_ns, start_ns, end_ns, wait_ns, st_occupancy,"
    " buffer_waiting, counters_in_use, overflow) VALUES(?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO memory(initiator_kind, initiator_unit, initiator_core, target_unit, target_vault,"
    " addr, size, command, begin_ns, end_req_ns, begin_resp_ns, end_ns, latency_ns, at)"
    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO core_states(unit, core, global_id, activity, operation, addr, at_ns)"
    " VALUES(?,?,?,?,?,?,?)",
    "INSERT INTO links(src, dst, bytes, response, start_ns, end_ns, delivered_ns)"
    " VALUES(?,?,?,?,?,?,?)",
    "INSERT INTO queues(component, depth, at_ns) VALUES(?,?,?)",
};
constexpr const char* kTableNames[] = {"messages", "services", "memory", "core_states", "links", "queues"};

const char* kind_name(Endpoint::Kind k) { return k == Endpoint::Kind::se ? "se" : "core"; }

const char* level_name(Level l) {
    switch (l) {
    case Level::local: return "local";
    case Level::global: return "global";
    case Level::overflow: return "overflow";
    default: return "other";
    }
}

const char* primitive_name(Primitive p) {
    switch (p) {
    case Primitive::lock: return "lock";
    case Primitive::barrier: return "barrier";
    case Primitive::semaphore: return "semaphore";
    case Primitive::condvar: return "condvar";
    default: return "other";
    }
}

const char* activity_name(CoreActivity a) {
    switch (a) {
    case CoreActivity::computing: return "computing";
    case CoreActivity::memory: return "memory";
    case CoreActivity::waiting_sync: return "waiting_sync";
    default: return "done";
    }
}

// Positional binders (1-based columns, as SQLite counts them). Texts are
// static strings or outlive the step: SQLITE_STATIC, no copy.
struct Binder {
    sqlite3_stmt* st;
    int col = 1;
    Binder& i(int64_t v) {
        sqlite3_bind_int64(st, col++, v);
        return *this;
    }
    Binder& u(uint64_t v) { return i(static_cast<int64_t>(v)); } // addresses >= 2^63 read back negative
    Binder& d(double v) {
        sqlite3_bind_double(st, col++, v);
        return *this;
    }
    Binder& s(std::string_view v) {
        sqlite3_bind_text(st, col++, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
        return *this;
    }
    Binder& null() {
        sqlite3_bind_null(st, col++);
        return *this;
    }
    // An endpoint as (kind, unit, core); core is NULL for an SE.
    Binder& ep(const Endpoint& e) {
        s(kind_name(e.kind)).i(e.unit);
        return e.kind == Endpoint::Kind::se ? null() : i(e.index);
    }
};

/// " (<strerror>)" after an I/O error: "database or disk is full" alone does
/// not say whether the disk or a file-size limit stopped the write.
std::string os_reason(sqlite3* db) {
    const int code = sqlite3_errcode(db) & 0xff;
    const int e = sqlite3_system_errno(db); // kept from the last failed system call: only for I/O errors
    if (e == 0 || (code != SQLITE_IOERR && code != SQLITE_FULL && code != SQLITE_CANTOPEN)) return "";
    return std::string(" (") + std::strerror(e) + ")";
}

} // namespace

TransactionDb::TransactionDb(const std::string& path, AddrFn home_unit, AddrFn vault_of, std::size_t batch_rows)
    : m_path(path), m_file(path), m_home_unit(std::move(home_unit)), m_vault_of(std::move(vault_of)),
      m_batch_rows(batch_rows ? batch_rows : 1) {
    // The database is built under a temporary name and renamed over `path`
    // by a close() that completed it: the previous database survives a
    // failed or killed run.
    m_file.add_companions({"-wal", "-shm", "-journal"});
    const std::string& file = m_file.temporary();
    // A stale temporary of this process ID goes; a file written in place (the
    // command line refuses a device) is never deleted.
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        if (m_file.in_place()) break;
        const std::string f = file + suffix;
        if (::unlink(f.c_str()) != 0 && errno != ENOENT)
            throw std::runtime_error("trace database " + path + ": cannot replace " + f + ": " + std::strerror(errno));
    }
    const int rc = sqlite3_open_v2(file.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    if (rc != SQLITE_OK) {
        const std::string err = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw std::runtime_error("trace database " + path + ": cannot open: " + err);
    }
    try {
        // WAL + synchronous=OFF: commits need no fsync; an application crash
        // keeps every committed batch (only an OS crash may lose recent ones).
        exec("PRAGMA journal_mode=WAL");
        exec("PRAGMA synchronous=OFF");
        exec("PRAGMA temp_store=FILE"); // the indexes built at close() sort on disk: bounded memory
        exec("BEGIN");
        exec(kSchema);
        exec("COMMIT"); // the schema is on disk: the path is writable
        for (int t = 0; t < t_count; ++t) m_ins[t] = prepare(kInsert[t]);
        m_ins_meta = prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)");
    } catch (...) {
        release();
        throw;
    }
    set_meta("schema_version", "1");
    set_meta("time_unit", "ns");
    flush(); // batches then count probe records and caller's meta only
}

TransactionDb::~TransactionDb() {
    try {
        close();
    } catch (...) {
    }
}

std::string TransactionDb::last_error() const {
    if (!m_db) return "not open";
    return sqlite3_errmsg(m_db) + os_reason(m_db);
}

void TransactionDb::fail(const std::string& what) const {
    throw std::runtime_error("trace database " + m_path + ": " + what + ": " + last_error());
}

void TransactionDb::exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(m_db);
        sqlite3_free(err);
        msg += os_reason(m_db);
        std::string_view head(sql);
        while (!head.empty() && (head.front() == '\n' || head.front() == ' ')) head.remove_prefix(1);
        throw std::runtime_error("trace database " + m_path + ": " +
                                 std::string(head.substr(0, head.find_first_of("(\n"))) + ": " + msg);
    }
}

sqlite3_stmt* TransactionDb::prepare(const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v3(m_db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, nullptr) != SQLITE_OK)
        fail("cannot prepare statement");
    return st;
}

void TransactionDb::step(sqlite3_stmt* st, const char* table) {
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE) fail(std::string("cannot insert into ") + table);
}

double TransactionDb::ns(const sc_core::sc_time& t) { return ns_between(sc_core::SC_ZERO_TIME, t); }

double TransactionDb::ns_between(const sc_core::sc_time& from, const sc_core::sc_time& to) {
    // From the integer tick counts, one division: the value is the decimal
    // number of ns rounded to the resolution (1 ps: three decimals), with no
    // float noise from subtracting two already divided times.
    const sc_core::sc_time::value_type a = from.value(), b = to.value();
    if (a == b) return 0.0;
    if (m_ticks_per_ns == 0) {
        // Records carry non-zero times, so the resolution is fixed by now.
        const sc_core::sc_time one(1, sc_core::SC_NS);
        m_ticks_per_ns = one.value() > 0 ? static_cast<double>(one.value()) : -1;
        m_ns_per_tick = sc_core::sc_get_time_resolution().to_seconds() * 1e9;
    }
    const double ticks = b >= a ? static_cast<double>(b - a) : -static_cast<double>(a - b);
    return m_ticks_per_ns > 0 ? ticks / m_ticks_per_ns : ticks * m_ns_per_tick;
}

void TransactionDb::record_failed(const std::exception& e) {
    // Thrown into the model, the error would unwind a transaction in flight
    // (its payload still pointing at destroyed extensions). Recording stops
    // here and close() reports the error.
    m_record_error = e.what();
}

void TransactionDb::row_written() {
    if (++m_in_batch >= m_batch_rows) flush();
}

void TransactionDb::on_message(const MessageRecord& r) {
    if (!m_db || !m_record_error.empty()) return;
    try {
        if (!m_in_txn) {
            exec("BEGIN");
            m_in_txn = true;
        }
        const double sent = ns(r.sent), arrived = ns(r.arrived);
        sqlite3_stmt* st = m_ins[t_messages];
        Binder{st}
            .d(sent)
            .d(arrived)
            .d(ns_between(r.sent, r.arrived))
            .ep(r.src)
            .ep(r.dst)
            .s(to_string(r.msg.op))
            .s(level_name(level_of(r.msg.op)))
            .s(primitive_name(primitive_of(r.msg.op)))
            .u(r.msg.addr)
            .i(r.msg.core)
            .i(r.msg.se)
            .u(r.msg.info);
        step(st, "messages");
        ++m_rows[t_messages];
        row_written();
    } catch (const std::exception& e) {
        record_failed(e);
    }
}

void TransactionDb::on_service(const ServiceRecord& r) {
    if (!m_db || !m_record_error.empty()) return;
    try {
        if (!m_in_txn) {
            exec("BEGIN");
            m_in_txn = true;
        }
        const double arrival = ns(r.arrival), start = ns(r.start);
        sqlite3_stmt* st = m_ins[t_services];
        Binder{st}
            .i(r.se)
            .s(to_string(r.msg.op))
            .u(r.msg.addr)
            .d(arrival)
            .d(start)
            .d(ns(r.end))
            .d(ns_between(r.arrival, r.start))
            .i(r.st_occupancy)
            .i(r.buffer_waiting)
            .i(r.counters_in_use)
            .i(r.overflow);
        step(st, "services");
        ++m_rows[t_services];
        row_written();
    } catch (const std::exception& e) {
        record_failed(e);
    }
}

void TransactionDb::on_memory(const MemoryRecord& r) {
    if (!m_db || !m_record_error.empty()) return;
    try {
        if (!m_in_txn) {
            exec("BEGIN");
            m_in_txn = true;
        }
        const double begin = ns(r.begin), end = ns(r.end);
        sqlite3_stmt* st = m_ins[t_memory];
        Binder b{st};
        b.ep(r.initiator);
        if (m_home_unit)
            b.i(m_home_unit(r.addr));
        else
            b.null();
        if (m_vault_of)
            b.i(m_vault_of(r.addr));
        else
            b.null();
        b.u(r.addr)
            .i(r.size)
            .s(r.write ? "write" : "read")
            .d(begin)
            .d(ns(r.end_req))
            .d(ns(r.begin_resp))
            .d(end)
            .d(ns_between(r.begin, r.end))
            .i(r.at);
        step(st, "memory");
        ++m_rows[t_memory];
        row_written();
    } catch (const std::exception& e) {
        record_failed(e);
    }
}

void TransactionDb::on_core_state(const CoreStateRecord& r) {
    if (!m_db || !m_record_error.empty()) return;
    try {
        if (!m_in_txn) {
            exec("BEGIN");
            m_in_txn = true;
        }
        sqlite3_stmt* st = m_ins[t_core_states];
        Binder{st}
            .i(r.unit)
            .i(r.core)
            .i(r.global_id)
            .s(activity_name(r.activity))
            .s(r.operation ? r.operation : "")
            .u(r.addr)
            .d(ns(r.at));
        step(st, "core_states");
        ++m_rows[t_core_states];
        row_written();
    } catch (const std::exception& e) {
        record_failed(e);
    }
}

void TransactionDb::on_link(const LinkRecord& r) {
    if (!m_db || !m_record_error.empty()) return;
    try {
        if (!m_in_txn) {
            exec("BEGIN");
            m_in_txn = true;
        }
        sqlite3_stmt* st = m_ins[t_links];
        Binder{st}.i(r.src).i(r.dst).i(r.bytes).i(r.response).d(ns(r.start)).d(ns(r.end)).d(ns(r.delivered));
        step(st, "links");
        ++m_rows[t_links];
        row_written();
    } catch (const std::exception& e) {
        record_failed(e);
    }
}

void TransactionDb::on_queue(const QueueRecord& r) {
    if (!m_db || !m_record_error.empty()) return;
    try {
        if (!m_in_txn) {
            exec("BEGIN");
            m_in_txn = true;
        }
        sqlite3_stmt* st = m_ins[t_queues];
        Binder{st}.s(r.component ? r.component : "").i(r.depth).d(ns(r.at));
        step(st, "queues");
        ++m_rows[t_queues];
        row_written();
    } catch (const std::exception& e) {
        record_failed(e);
    }
}

void TransactionDb::set_meta(const std::string& key, const std::string& value) {
    if (!m_db) throw std::runtime_error("trace database " + m_path + ": set_meta(" + key + ") after close()");
    if (!m_in_txn) {
        exec("BEGIN");
        m_in_txn = true;
    }
    Binder{m_ins_meta}.s(key).s(value);
    step(m_ins_meta, "meta");
    m_meta_keys.insert(key);
    row_written();
}

void TransactionDb::flush() {
    if (!m_db || !m_in_txn) return;
    m_in_txn = false; // even if COMMIT fails: the next record starts afresh
    m_in_batch = 0;
    exec("COMMIT");
}

void TransactionDb::finalize_statements() noexcept {
    for (auto*& st : m_ins) {
        sqlite3_finalize(st);
        st = nullptr;
    }
    sqlite3_finalize(m_ins_meta);
    m_ins_meta = nullptr;
}

void TransactionDb::release() noexcept {
    finalize_statements();
    sqlite3_close(m_db);
    m_db = nullptr;
    m_in_txn = false;
}

void TransactionDb::discard() noexcept {
    if (!m_db) return;
    if (sqlite3_get_autocommit(m_db) == 0) sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    release();
    m_file.discard();
}

void TransactionDb::close() {
    if (!m_db) return;
    std::string error;
    auto attempt = [&](auto&& fn) {
        try {
            fn();
        } catch (const std::exception& e) {
            if (error.empty()) error = e.what();
        }
    };
    if (!m_record_error.empty()) error = m_record_error;
    attempt([&] { flush(); });
    if (error.empty()) {
        attempt([&] { exec(kIndexes); });
        // Checkpoint the WAL into the main file and leave a plain rollback-
        // journal database: one self-contained file, readable read-only.
        attempt([&] { exec("PRAGMA journal_mode=DELETE"); });
    } else if (sqlite3_get_autocommit(m_db) == 0) {
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    finalize_statements();
    if (sqlite3_close(m_db) != SQLITE_OK && error.empty())
        error = "trace database " + m_path + ": cannot close: " + last_error();
    m_db = nullptr;
    m_in_txn = false;
    if (error.empty()) {
        if (const int e = m_file.commit())
            error =
                "trace database " + m_path + ": cannot rename the finished database into place: " + std::strerror(e);
    } else {
        m_file.discard();
    }
    if (!error.empty()) throw std::runtime_error(error);
}

uint64_t TransactionDb::rows(const std::string& table) const {
    if (table == "meta") return m_meta_keys.size();
    for (int t = 0; t < t_count; ++t)
        if (table == kTableNames[t]) return m_rows[t];
    throw std::invalid_argument("trace database: no table '" + table + "'");
}

} // namespace syncron

#pragma once
// The transaction database (--trace-db FILE): every probe record of
// models/tlm/trace_sink.h becomes one row of an SQLite table, so that a run
// can be analysed with SQL afterwards. Schema and query cookbook:
// docs/traces.md, section "Transaction database (--trace-db)".
//
// Streaming with bounded memory: one prepared INSERT per table, rows are
// written inside a transaction that is committed every `batch_rows` rows and
// on flush()/close(); the database runs in WAL mode with synchronous=OFF (an
// application crash loses at most the open batch, never the committed ones).
// close() creates the indexes, checkpoints the WAL and switches the file back
// to journal_mode=DELETE, so a closed database is one self-contained file.
// The database is built under a temporary name beside FILE (StagedFile) and
// renamed over FILE only by a close() that completed it.
#include <cstdint>
#include <exception>
#include <functional>
#include <set>
#include <string>

#include "models/tlm/trace_sink.h"
#include "traces/staged_file.h"

struct sqlite3;
struct sqlite3_stmt;

namespace syncron {

class TransactionDb : public TraceSink {
public:
    /// Maps an address to a unit / vault number (e.g. AddressMap::home_unit
    /// and AddressMap::vault_of); empty = the memory.target_* columns are NULL.
    using AddrFn = std::function<unsigned(uint64_t)>;

    static constexpr std::size_t kDefaultBatchRows = 10000;

    /// Creates the database at `path`; an existing file (and its -wal/-shm/
    /// -journal companions) is replaced. Throws std::runtime_error naming
    /// `path` and SQLite's error when the file cannot be created or written.
    explicit TransactionDb(const std::string& path, AddrFn home_unit = {}, AddrFn vault_of = {},
                           std::size_t batch_rows = kDefaultBatchRows);
    /// Calls close(); errors are swallowed (call close() to see them).
    ~TransactionDb() override;

    TransactionDb(const TransactionDb&) = delete;
    TransactionDb& operator=(const TransactionDb&) = delete;

    void on_message(const MessageRecord& r) override;
    void on_service(const ServiceRecord& r) override;
    void on_core_state(const CoreStateRecord& r) override;
    void on_memory(const MemoryRecord& r) override;
    void on_link(const LinkRecord& r) override;
    void on_queue(const QueueRecord& r) override;

    /// Inserts or replaces meta(key, value): configuration, scheme, workload,
    /// status, error, ... Allowed until close().
    void set_meta(const std::string& key, const std::string& value);

    /// Commits the open batch (the rows so far are then on disk).
    void flush();
    /// Commits, creates the indexes and closes the file. Idempotent; records
    /// arriving after close() are ignored. Throws std::runtime_error on an
    /// SQLite error (the handle is closed anyway), including one of an on_*
    /// call: those never throw into the model, they stop the recording.
    void close();
    /// Closes without keeping anything: the temporary database is removed and
    /// a previous file of that name stays (a run refused before it started).
    void discard() noexcept;
    bool is_open() const { return m_db != nullptr; }

    /// Rows written so far to `table` (one of messages, services, memory,
    /// core_states, links, queues, meta); throws std::invalid_argument otherwise.
    uint64_t rows(const std::string& table) const;
    const std::string& path() const { return m_path; }
    /// The file being written: a temporary beside path() until close() renames it.
    const std::string& temporary() const { return m_file.temporary(); }

private:
    enum Table { t_messages, t_services, t_memory, t_core_states, t_links, t_queues, t_count };

    void exec(const char* sql);
    [[noreturn]] void fail(const std::string& what) const;
    /// SQLite's last error message, with the OS's reason when a system call failed.
    std::string last_error() const;
    sqlite3_stmt* prepare(const char* sql);
    void step(sqlite3_stmt* st, const char* table);
    void row_written();
    void record_failed(const std::exception& e); ///< an on_* call failed: stop recording
    double ns(const sc_core::sc_time& t);
    double ns_between(const sc_core::sc_time& from, const sc_core::sc_time& to); ///< to - from
    void finalize_statements() noexcept; ///< every prepared statement, before the handle is closed
    void release() noexcept;             ///< statements finalized, handle closed, no error asked for

    std::string m_path;
    StagedFile m_file; ///< the database under its temporary name until close()
    AddrFn m_home_unit, m_vault_of;
    std::size_t m_batch_rows;
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_ins[t_count] = {};
    sqlite3_stmt* m_ins_meta = nullptr;
    uint64_t m_rows[t_count] = {};
    std::set<std::string> m_meta_keys;
    std::size_t m_in_batch = 0;
    bool m_in_txn = false;
    std::string m_record_error; ///< the first failure of an on_* call, reported by close()
    double m_ticks_per_ns = 0;  ///< resolution ticks per ns, set at the first record (-1: coarser than 1 ns)
    double m_ns_per_tick = 0;   ///< used when the resolution is coarser than 1 ns
};

} // namespace syncron

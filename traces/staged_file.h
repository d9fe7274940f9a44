#pragma once
// An output file written under a temporary name in its own folder
// ("<folder>/.<name>.tmp.<pid>") and renamed over its final name only when
// it is complete (docs/reliability.md, "Outputs are never lost"): a run that
// fails, is stopped or is killed (SIGKILL included) leaves the previous
// complete file or none under the final name, never a truncated one.
//
// The final name's symbolic links are followed, so the file they lead to is
// replaced and the links stay. A device, a FIFO or a /proc link
// (/dev/stdout) cannot be replaced: such a file is written in place.
#include <string>
#include <vector>

namespace syncron {

class StagedFile {
public:
    /// `suffix` ends the temporary's name (SystemC's VCD writer adds ".vcd").
    explicit StagedFile(std::string path, const std::string& suffix = "");
    ~StagedFile(); ///< discard() unless committed
    StagedFile(const StagedFile&) = delete;
    StagedFile& operator=(const StagedFile&) = delete;

    const std::string& path() const { return m_path; }           ///< as given: what messages name
    const std::string& temporary() const { return m_temporary; } ///< the file to write
    bool in_place() const { return m_in_place; }                 ///< temporary() == path()

    /// Throws std::runtime_error "cannot write <what> to '<path>': <reason>"
    /// when the file could not be written: the final file exists and is not
    /// writable, or no temporary can be created in its folder. Leaves
    /// nothing behind.
    void check(const std::string& what) const;
    /// Names the temporary's companions (SQLite's "-wal", "-shm",
    /// "-journal"): removed with it, and removed under the final name before
    /// the rename (stale ones would be read with the new file).
    void add_companions(const std::vector<std::string>& suffixes);
    /// Renames the written temporary over the final file (keeping the final
    /// file's permissions). Returns 0, or the errno of the failure (the
    /// temporary is then removed). Async-signal-safe; idempotent.
    int commit() noexcept;
    bool committed() const { return m_committed; }
    /// Removes the temporary and its companions (not in place). Idempotent.
    void discard() noexcept;

    /// Removes the temporaries of every StagedFile of the process still
    /// being written. Async-signal-safe: for a handler of a signal that ends
    /// the process.
    static void remove_all_temporaries() noexcept;

private:
    void track(bool on) noexcept;

    std::string m_path;
    std::string m_target; ///< the file commit() replaces (links followed)
    std::string m_temporary;
    std::vector<std::string> m_companions;
    bool m_in_place = false;
    bool m_committed = false;
    bool m_done = false;
    std::vector<int> m_slots; ///< in the process's list of temporaries (-1: not listed)
};

} // namespace syncron

#pragma once
// Which file a path names, for comparing the paths of a run's inputs and
// outputs and for writing an output in place of its final file
// (docs/reliability.md, "Outputs are never lost"): symbolic links are
// followed by hand, so a link whose target does not exist yet still leads
// to that target, and an existing file is known by its device and inode.
#include <cstdint>
#include <string>

namespace syncron {

class FileIdentity {
public:
    /// Resolves `path` (relative to the working folder); never throws.
    explicit FileIdentity(const std::string& path);

    /// The absolute path with every symbolic link, "." and ".." resolved;
    /// past the first missing component, the rest of the path as written.
    const std::string& resolved() const { return m_resolved; }
    bool exists() const { return m_exists; }
    bool is_regular() const { return m_regular; }
    bool is_directory() const { return m_directory; }
    bool is_character_device() const { return m_char_device; }
    bool is_block_device() const { return m_block_device; }
    /// The path leads through /proc (e.g. /dev/stdout -> /proc/self/fd/1):
    /// such a link names an open file, not a place in a folder.
    bool through_proc() const { return m_through_proc; }
    /// Too many links (a loop): resolved() is where the walk stopped.
    bool loops() const { return m_loops; }

    /// The same file: the same device and inode when both exist, the same
    /// resolved path when neither does.
    bool same_as(const FileIdentity& other) const;

private:
    std::string m_resolved;
    bool m_exists = false;
    bool m_regular = false;
    bool m_directory = false;
    bool m_char_device = false;
    bool m_block_device = false;
    bool m_through_proc = false;
    bool m_loops = false;
    uint64_t m_dev = 0;
    uint64_t m_ino = 0;
};

} // namespace syncron

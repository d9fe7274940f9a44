#include "traces/staged_file.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/common/file_identity.h"
#include "models/common/input_file.h"

namespace syncron {

namespace {

// The temporaries being written, for a signal handler: fixed storage, no
// allocation, each slot claimed and released with an atomic flag. A run
// writes at most a dozen outputs, each with at most four names.
constexpr int kSlots = 64;
constexpr size_t kNameMax = PATH_MAX + 32;
char g_names[kSlots][kNameMax];
std::atomic<bool> g_used[kSlots];
std::atomic<bool> g_ready[kSlots];

int claim(const std::string& name) noexcept {
    if (name.size() >= kNameMax) return -1;
    for (int i = 0; i < kSlots; ++i) {
        bool expected = false;
        if (!g_used[i].compare_exchange_strong(expected, true)) continue;
        std::memcpy(g_names[i], name.c_str(), name.size() + 1);
        g_ready[i].store(true);
        return i;
    }
    return -1; // untracked: only a second stop signal would leave it behind
}

void release(int slot) noexcept {
    if (slot < 0) return;
    g_ready[slot].store(false);
    g_used[slot].store(false);
}

/// unlink(base + suffix) without allocating.
void unlink_joined(const std::string& base, const std::string& suffix) noexcept {
    char name[kNameMax];
    if (base.size() + suffix.size() >= kNameMax) return;
    std::memcpy(name, base.c_str(), base.size());
    std::memcpy(name + base.size(), suffix.c_str(), suffix.size() + 1);
    ::unlink(name);
}

} // namespace

StagedFile::StagedFile(std::string path, const std::string& suffix) : m_path(std::move(path)) {
    const FileIdentity id(m_path);
    m_in_place = id.through_proc() || (id.exists() && !id.is_regular());
    if (m_in_place) {
        m_target = m_temporary = m_path;
        return;
    }
    m_target = id.resolved();
    const size_t slash = m_target.find_last_of('/');
    const std::string folder = m_target.substr(0, slash + 1);
    // A name near NAME_MAX must not make the temporary's name too long.
    const std::string name = m_target.substr(slash + 1).substr(0, 200);
    m_temporary = folder + "." + name + ".tmp." + std::to_string(::getpid()) + suffix;
    track(true);
}

StagedFile::~StagedFile() {
    if (!m_committed) discard();
}

void StagedFile::add_companions(const std::vector<std::string>& suffixes) {
    if (m_in_place) return;
    track(false);
    m_companions = suffixes;
    track(true);
}

void StagedFile::track(bool on) noexcept {
    for (const int slot : m_slots) release(slot);
    m_slots.clear();
    if (!on) return;
    m_slots.push_back(claim(m_temporary));
    for (const std::string& s : m_companions) m_slots.push_back(claim(m_temporary + s));
}

void StagedFile::check(const std::string& what) const {
    const auto fail = [&](int error) {
        throw std::runtime_error("cannot write " + what + " to '" + excerpt(m_path, kQuotedMax) +
                                 "': " + std::strerror(error));
    };
    // The temporary's name is cut short; the final one must be possible too.
    const size_t name = m_target.size() - m_target.find_last_of('/') - 1;
    if (!m_in_place && (m_target.size() >= PATH_MAX || name > NAME_MAX)) fail(ENAMETOOLONG);
    // A file the user keeps read-only stays as it is, although a rename could replace it.
    if (::access(m_target.c_str(), F_OK) == 0 && ::access(m_target.c_str(), W_OK) != 0) fail(errno);
    if (m_in_place) return;
    const int fd = ::open(m_temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) fail(errno);
    ::close(fd);
    ::unlink(m_temporary.c_str());
}

int StagedFile::commit() noexcept {
    if (m_committed || m_in_place) {
        m_committed = true;
        return 0;
    }
    if (m_done) return ENOENT;
    struct stat st {};
    if (::stat(m_target.c_str(), &st) == 0) ::chmod(m_temporary.c_str(), st.st_mode & 07777);
    // Stale companions of the final file would be read together with the new file.
    for (const std::string& s : m_companions) unlink_joined(m_target, s);
    if (::rename(m_temporary.c_str(), m_target.c_str()) != 0) {
        const int error = errno;
        discard();
        return error;
    }
    m_committed = true;
    m_done = true;
    for (const std::string& s : m_companions) unlink_joined(m_temporary, s);
    track(false);
    return 0;
}

void StagedFile::discard() noexcept {
    if (m_in_place || m_done) return;
    m_done = true;
    ::unlink(m_temporary.c_str());
    for (const std::string& s : m_companions) unlink_joined(m_temporary, s);
    track(false);
}

void StagedFile::remove_all_temporaries() noexcept {
    for (int i = 0; i < kSlots; ++i)
        if (g_ready[i].load()) ::unlink(g_names[i]);
}

} // namespace syncron

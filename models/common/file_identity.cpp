#include "models/common/file_identity.h"

#include <climits>
#include <deque>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace syncron {

namespace {

void split_into(const std::string& path, std::deque<std::string>& parts, bool front) {
    std::vector<std::string> items;
    size_t b = 0;
    while (b <= path.size()) {
        size_t e = path.find('/', b);
        if (e == std::string::npos) e = path.size();
        if (e > b) items.push_back(path.substr(b, e - b));
        b = e + 1;
    }
    if (front)
        parts.insert(parts.begin(), items.begin(), items.end());
    else
        parts.insert(parts.end(), items.begin(), items.end());
}

std::string parent_of(const std::string& dir) {
    const size_t slash = dir.find_last_of('/');
    return slash == 0 || slash == std::string::npos ? "/" : dir.substr(0, slash);
}

std::string join(const std::string& dir, const std::string& name) { return dir == "/" ? "/" + name : dir + "/" + name; }

bool starts_with_proc(const std::string& p) { return p == "/proc" || p.rfind("/proc/", 0) == 0; }

} // namespace

FileIdentity::FileIdentity(const std::string& path) {
    std::string start = path;
    if (start.empty() || start[0] != '/') {
        char cwd[PATH_MAX];
        start = std::string(::getcwd(cwd, sizeof cwd) ? cwd : ".") + "/" + path;
    }
    std::deque<std::string> todo;
    split_into(start, todo, false);
    std::string done = "/";
    bool missing = false; // past a component that does not exist: the rest is taken as written
    int links = 0;
    while (!todo.empty()) {
        const std::string c = todo.front();
        todo.pop_front();
        if (c == ".") continue;
        if (c == "..") {
            done = parent_of(done);
            continue;
        }
        const std::string next = join(done, c);
        struct stat st {};
        if (missing || ::lstat(next.c_str(), &st) != 0) {
            missing = true;
            done = next;
            continue;
        }
        if (starts_with_proc(next)) m_through_proc = true;
        if (!S_ISLNK(st.st_mode)) {
            done = next;
            continue;
        }
        if (++links > 40) { // what the kernel allows (ELOOP)
            m_loops = true;
            done = next;
            break;
        }
        char target[PATH_MAX];
        const ssize_t n = ::readlink(next.c_str(), target, sizeof target - 1);
        if (n <= 0) {
            done = next;
            continue;
        }
        const std::string t(target, static_cast<size_t>(n));
        if (t[0] == '/') done = "/";
        split_into(t, todo, true);
    }
    m_resolved = done;
    if (starts_with_proc(m_resolved)) m_through_proc = true;
    // The file itself, as the kernel opens it (a /proc link leads to the open file).
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        m_exists = true;
        m_regular = S_ISREG(st.st_mode);
        m_directory = S_ISDIR(st.st_mode);
        m_char_device = S_ISCHR(st.st_mode);
        m_block_device = S_ISBLK(st.st_mode);
        m_dev = static_cast<uint64_t>(st.st_dev);
        m_ino = static_cast<uint64_t>(st.st_ino);
    }
}

bool FileIdentity::same_as(const FileIdentity& other) const {
    if (m_exists != other.m_exists) return false;
    if (m_exists) return m_dev == other.m_dev && m_ino == other.m_ino;
    return m_resolved == other.m_resolved;
}

} // namespace syncron

#include "sc_main/output_paths.h"

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <sys/stat.h>

#include "platforms/trace_session.h"
#include "traces/vcd_recorder.h"

namespace syncron {

namespace fs = std::filesystem;

namespace {

struct Output {
    std::string option; ///< how the user asked for it, e.g. "--stats" or "--out (stats.json)"
    std::string path;   ///< the file that will be written
};

/// The path two spellings of one file share: symbolic links, "." and ".."
/// resolved as far as the path exists.
fs::path identity(const std::string& path) {
    std::error_code ec;
    const fs::path abs = fs::absolute(path, ec);
    if (ec) return fs::path(path).lexically_normal();
    const fs::path canon = fs::weakly_canonical(abs, ec);
    return ec ? abs.lexically_normal() : canon;
}

/// True when `dir` is the --out folder or one of its parents, which
/// create_directories makes before anything is written.
bool created_by_out(const fs::path& dir, const std::string& out_dir) {
    if (out_dir.empty()) return false;
    const fs::path out = identity(out_dir);
    const fs::path d = identity(dir.string());
    auto o = out.begin();
    for (auto it = d.begin(); it != d.end(); ++it, ++o)
        if (o == out.end() || *it != *o) return false;
    return true;
}

bool is_character_device(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

void check_one(const Output& o, const std::string& out_dir) {
    std::error_code ec;
    if (fs::is_directory(o.path, ec))
        throw CliError("option '" + o.option + "': '" + o.path + "' is a folder, not a file (give a file name)");
    fs::path parent = fs::path(o.path).parent_path();
    if (parent.empty()) parent = ".";
    if (fs::exists(parent, ec)) {
        if (!fs::is_directory(parent, ec))
            throw CliError("option '" + o.option + "': '" + parent.string() + "' (the folder of '" + o.path +
                           "') is not a folder");
    } else if (!created_by_out(parent, out_dir)) {
        throw CliError("option '" + o.option + "': the folder '" + parent.string() + "' of '" + o.path +
                       "' does not exist (create it, or use --out DIR, which creates its folder)");
    }
}

} // namespace

void check_output_paths(const CliOptions& options) {
    std::error_code ec;
    if (!options.out_dir.empty() && fs::exists(options.out_dir, ec) && !fs::is_directory(options.out_dir, ec))
        throw CliError("--out '" + options.out_dir + "' exists and is not a folder");
    std::vector<Output> outputs;
    if (!options.out_dir.empty())
        for (const char* name : {"stats.json", "summary.txt", "config.json"})
            outputs.push_back({std::string("--out (") + name + ")", options.out_dir + "/" + name});
    if (!options.stats_file.empty()) outputs.push_back({"--stats", options.stats_file});
    const TraceOptions& t = options.traces;
    if (!t.vcd.empty()) {
        // SystemC appends ".vcd" to the name it is given: --vcd run and --vcd
        // run.vcd both write run.vcd. A folder is refused in either spelling.
        const std::string written = VcdRecorder::file_base(t.vcd) + ".vcd";
        if (written != t.vcd) check_one({"--vcd", t.vcd}, options.out_dir);
        outputs.push_back({"--vcd", written});
    }
    if (!t.db.empty()) {
        outputs.push_back({"--trace-db", t.db});
        // The database deletes and recreates its file (and -wal, -shm, -journal): never a device or a FIFO.
        const fs::file_status st = fs::status(t.db, ec);
        if (!ec && fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st))
            throw CliError("option '--trace-db': '" + t.db +
                           "' is not a regular file (the database replaces its file; give a file name)");
    }
    if (!t.json.empty()) outputs.push_back({"--trace-json", t.json});
    if (!t.gtkw.empty())
        for (const std::string& f : TraceSession::gtkw_files(t.gtkw)) outputs.push_back({"--gtkw", f});

    for (const Output& o : outputs) check_one(o, options.out_dir);
    for (size_t i = 0; i < outputs.size(); ++i)
        for (size_t j = i + 1; j < outputs.size(); ++j) {
            if (identity(outputs[i].path) != identity(outputs[j].path)) continue;
            // Two outputs thrown away into /dev/null harm nothing.
            if (is_character_device(outputs[i].path)) continue;
            throw CliError("options '" + outputs[i].option + "' and '" + outputs[j].option + "' name the same file '" +
                           outputs[j].path + "': each output needs a file of its own");
        }
}

} // namespace syncron

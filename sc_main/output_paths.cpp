#include "sc_main/output_paths.h"

#include <climits>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "models/common/file_identity.h"
#include "models/common/input_file.h"
#include "platforms/trace_session.h"
#include "traces/vcd_recorder.h"

namespace syncron {

namespace fs = std::filesystem;

namespace {

/// A path as a message quotes it: cut short.
std::string shown(const std::string& path) { return excerpt(path, kQuotedMax); }

/// The path two spellings of one file share: symbolic links, "." and ".." resolved.
fs::path identity(const std::string& path) { return FileIdentity(path).resolved(); }

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

void check_one(const NamedPath& o, const std::string& out_dir) {
    // Found now rather than when the finished file is renamed into place.
    const std::string name = fs::path(o.path).filename().string();
    if (o.path.size() >= PATH_MAX || name.size() > NAME_MAX)
        throw CliError("option '" + o.option + "': '" + shown(o.path) + "' is too long a file name");
    std::error_code ec;
    if (fs::is_directory(o.path, ec))
        throw CliError("option '" + o.option + "': '" + shown(o.path) + "' is a folder, not a file (give a file name)");
    fs::path parent = fs::path(o.path).parent_path();
    if (parent.empty()) parent = ".";
    if (fs::exists(parent, ec)) {
        if (!fs::is_directory(parent, ec))
            throw CliError("option '" + o.option + "': '" + shown(parent.string()) + "' (the folder of '" +
                           shown(o.path) + "') is not a folder");
    } else if (!created_by_out(parent, out_dir)) {
        throw CliError("option '" + o.option + "': the folder '" + shown(parent.string()) + "' of '" + shown(o.path) +
                       "' does not exist (create it, or use --out DIR, which creates its folder)");
    }
}

} // namespace

std::vector<NamedPath> output_files(const CliOptions& options) {
    std::vector<NamedPath> outputs;
    if (!options.out_dir.empty())
        for (const char* name : {"stats.json", "summary.txt", "config.json"})
            outputs.push_back({std::string("--out (") + name + ")", options.out_dir + "/" + name});
    if (!options.stats_file.empty()) outputs.push_back({"--stats", options.stats_file});
    const TraceOptions& t = options.traces;
    // SystemC appends ".vcd" to the name it is given: --vcd run and --vcd run.vcd both write run.vcd.
    if (!t.vcd.empty()) outputs.push_back({"--vcd", VcdRecorder::file_base(t.vcd) + ".vcd"});
    if (!t.db.empty()) outputs.push_back({"--trace-db", t.db});
    if (!t.json.empty()) outputs.push_back({"--trace-json", t.json});
    if (!t.gtkw.empty())
        for (const std::string& f : TraceSession::gtkw_files(t.gtkw)) outputs.push_back({"--gtkw", f});
    return outputs;
}

void check_output_paths(const CliOptions& options) {
    std::error_code ec;
    if (!options.out_dir.empty() && fs::exists(options.out_dir, ec) && !fs::is_directory(options.out_dir, ec))
        throw CliError("--out '" + shown(options.out_dir) + "' exists and is not a folder");
    const TraceOptions& t = options.traces;
    // A folder is refused in either spelling of --vcd.
    if (!t.vcd.empty() && VcdRecorder::file_base(t.vcd) + ".vcd" != t.vcd) check_one({"--vcd", t.vcd}, options.out_dir);
    if (!t.db.empty()) {
        // The database deletes and recreates its file (and -wal, -shm, -journal): never a device or a FIFO.
        const fs::file_status st = fs::status(t.db, ec);
        if (!ec && fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st))
            throw CliError("option '--trace-db': '" + shown(t.db) +
                           "' is not a regular file (the database replaces its file; give a file name)");
    }
    const std::vector<NamedPath> outputs = output_files(options);
    for (const NamedPath& o : outputs) check_one(o, options.out_dir);
    std::vector<FileIdentity> ids;
    ids.reserve(outputs.size());
    for (const NamedPath& o : outputs) ids.emplace_back(o.path);
    for (size_t i = 0; i < outputs.size(); ++i)
        for (size_t j = i + 1; j < outputs.size(); ++j) {
            if (!ids[i].same_as(ids[j])) continue;
            // Two outputs thrown away into /dev/null harm nothing.
            if (ids[i].is_character_device()) continue;
            throw CliError("options '" + outputs[i].option + "' and '" + outputs[j].option + "' name the same file '" +
                           shown(outputs[j].path) + "': each output needs a file of its own");
        }
}

void check_outputs_against_inputs(const CliOptions& options) {
    const std::vector<NamedPath> outputs = output_files(options);
    for (const NamedPath& in : options.inputs) {
        const FileIdentity input(in.path);
        // Reading /dev/stdin from a terminal and writing to it is no harm either.
        if (input.is_character_device()) continue;
        for (const NamedPath& out : outputs)
            if (FileIdentity(out.path).same_as(input))
                throw CliError("options '" + out.option + "' and '" + in.option + "' name the same file '" + out.path +
                               "': an output never replaces an input (give another file name)");
    }
}

} // namespace syncron

// The bad-input table (bad_inputs.tsv): every row runs syncron-sim as a user
// would and asserts its exit code and the words of its message; the table in
// docs/reliability.md is this file's rendering, checked here too
// (SYNCRON_UPDATE_DOCS=1 rewrites it). docs/reliability.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "testbenches/tests/sim_binary.h"

namespace {

namespace fs = std::filesystem;
using syncron::test::run_sim;

struct Row {
    int line;
    std::string what, args, fragments;
    int exit_code;
};

std::vector<std::string> split(const std::string& s, const std::string& sep) {
    std::vector<std::string> out;
    size_t begin = 0;
    for (size_t at; (at = s.find(sep, begin)) != std::string::npos; begin = at + sep.size())
        out.push_back(s.substr(begin, at - begin));
    out.push_back(s.substr(begin));
    return out;
}

std::string source_file(const std::string& rel) { return std::string(SYNCRON_SOURCE_DIR) + "/" + rel; }

std::vector<Row> rows() {
    const std::string path = source_file("testbenches/tests/bad_inputs.tsv");
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<Row> out;
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.empty() || line[0] == '#') continue;
        const auto cols = split(line, "\t");
        INFO(path << ":" << n);
        REQUIRE(cols.size() == 4);
        out.push_back({n, cols[0], cols[1], cols[3], std::stoi(cols[2])});
    }
    return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
    return s;
}

void write(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
    REQUIRE(out.good());
}

// The files the rows name as {dir}/...
void make_inputs(const fs::path& dir) {
    write(dir / "nested.json", std::string(100000, '['));
    std::string huge = R"({"se":{"st_entries":[)";
    huge.reserve(huge.size() + 10000000);
    for (int i = 0; i < 5000000; ++i) huge += i ? ",0" : "0";
    write(dir / "huge.json", huge + "]}}");
    write(dir / "array.json", "[1, 2]");
    write(dir / "null.json", "null\n");
    write(dir / "nul.json", std::string(R"({"se":{}})") + '\0' + R"({"se":{"st_entries":"x"}})");
    write(dir / "syntax.json", "{\"se\": {\"st_entries\": 8,}}");
    write(dir / "units0.json", R"({"platform":{"units":0}})");
    write(dir / "units_text.json", R"({"platform":{"units":"4"}})");
    write(dir / "clients_negative.json", R"({"platform":{"client_cores":-3}})");
    write(dir / "unknown_key.json", R"({"se":{"st_entriez":8}})");
    write(dir / "annotation.json", R"({"name":5})");
    write(dir / "bad.snap", "# a SNAP edge list\n0 1\nzero two\n");
    write(dir / "bad_series.txt", "1.5\nabc\n2.5\n");
    // Inputs that the rows also name as outputs: each must be left as it was.
    const std::string graph = "0 1\n1 2\n2 0\n";
    write(dir / "good.snap", graph);
    write(dir / "graph.vcd", graph);
    write(dir / "good_series.txt", "1.5\n2.5\n0.5\n3.5\n1.0\n2.0\n0.0\n4.0\n");
    write(dir / "good.json", R"({"se":{"st_entries":8}})");
    write(dir / "graph_config.json", R"({"workload":{"name":"bfs","graph":")" + (dir / "good.snap").string() + "\"}}");
    fs::create_directories(dir / "run");
    write(dir / "run/config.json", "{}");
    fs::create_symlink("good.snap", dir / "graph_link.snap");
    fs::create_hard_link(dir / "good.json", dir / "good_hard.json");
    fs::create_symlink("not_yet.json", dir / "dangling.json"); // its target does not exist
    std::string long_line = "0 1\n";
    for (int i = 0; i < 650000; ++i) long_line += "1 ";
    write(dir / "long_line.snap", long_line + "\n");
    write(dir / "sparse_ids.snap", "0 1\n1 268435455\n"); // 2^28 vertices by one ID
    write(dir / "hermitian.mtx", "%%MatrixMarket matrix coordinate pattern hermitian\n3 3 2\n1 2\n2 3\n");
    write(dir / "duplicate.json", R"({"se":{"st_entries":8,"st_entries":16}})");
    write(dir / "overflow.json", R"({"se":{"clock_ghz":1e400}})");
    write(dir / "long_key.json", R"({"se":{")" + std::string(5000, 'k') + R"(":1}})");
    REQUIRE(::mkfifo((dir / "fifo.json").c_str(), 0600) == 0); // no writer: opening it to read would block
}

std::string snapshot_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Every regular file under `dir` and its contents.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file() || e.is_symlink()) continue;
        files[e.path().string()] = snapshot_of(e.path());
    }
    return files;
}

std::string md_code(const std::string& s) { return s.empty() ? "" : "`` " + replace_all(s, "|", "\\|") + " ``"; }

/// The table of docs/reliability.md, from the TSV.
std::string markdown(const std::vector<Row>& table) {
    std::ostringstream os;
    os << "| # | input | arguments | exit | the message contains |\n|---|---|---|---|---|\n";
    int i = 0;
    for (const Row& r : table) {
        std::string words;
        for (const auto& f : split(r.fragments, " && ")) words += (words.empty() ? "" : " … ") + md_code(f);
        os << "| " << ++i << " | " << r.what << " | " << md_code(r.args) << " | " << r.exit_code << " | " << words
           << " |\n";
    }
    return os.str();
}

} // namespace

TEST_CASE("bad inputs: every row of bad_inputs.tsv gives its exit code and message", "[cli][bad_inputs]") {
    const auto table = rows();
    REQUIRE(table.size() >= 40);
    const fs::path dir = fs::path(syncron::test::temp_dir()) / ("bad-inputs-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    make_inputs(dir);
    const std::string nested(100000, '['), long_name(100000, 'p');
    const auto inputs = snapshot(dir);
    for (const Row& r : table) {
        const std::string args = replace_all(
            replace_all(replace_all(r.args, "{dir}", dir.string()), "{nested}", nested), "{long}", long_name);
        INFO("bad_inputs.tsv:" << r.line << " " << r.what << ": syncron-sim " << r.args);
        const auto run = run_sim(args);
        INFO("output: " << run.out.substr(0, 2000));
        CHECK(run.status == r.exit_code);
        for (const auto& f : split(r.fragments, " && "))
            CHECK_THAT(run.out, Catch::Contains(replace_all(f, "{dir}", dir.string())));
        // A clear message, never the input quoted back at length (a failed
        // run also prints its summary, some 20 short lines).
        size_t longest = 0;
        for (const auto& l : split(run.out, "\n")) longest = std::max(longest, l.size());
        CHECK(longest < 500);
        CHECK(run.out.size() < 4000);
        // Bad input is found before anything is simulated: no summary.
        if (r.exit_code == 2) CHECK_THAT(run.out, !Catch::Contains("SynCron simulation"));
        // No input is ever harmed, also when a row names it as an output.
        for (const auto& [path, text] : inputs) {
            INFO("input " << path);
            CHECK(fs::exists(path));
            CHECK((fs::exists(path) && snapshot_of(path) == text));
        }
        CHECK_FALSE(fs::exists(dir / "not_yet.json"));
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
}

TEST_CASE("bad inputs: docs/reliability.md shows the table as tested", "[cli][bad_inputs]") {
    const std::string doc_path = source_file("docs/reliability.md");
    std::ifstream in(doc_path);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string doc = ss.str();
    const std::string begin = "<!-- bad-inputs table: generated from testbenches/tests/bad_inputs.tsv -->\n";
    const std::string end = "<!-- end of bad-inputs table -->";
    const size_t b = doc.find(begin);
    const size_t e = doc.find(end);
    REQUIRE(b != std::string::npos);
    REQUIRE(e != std::string::npos);
    const std::string want = markdown(rows());
    const std::string have = doc.substr(b + begin.size(), e - b - begin.size());
    if (have != want && std::getenv("SYNCRON_UPDATE_DOCS")) {
        doc.replace(b + begin.size(), e - b - begin.size(), want);
        std::ofstream(doc_path) << doc;
        return;
    }
    INFO("run with SYNCRON_UPDATE_DOCS=1 to rewrite the table");
    CHECK(have == want);
}

TEST_CASE("bad inputs: a configuration read from a pipe (--config /dev/stdin)", "[cli][bad_inputs]") {
    const fs::path file = syncron::test::temp_path("syncron_stdin_", "cfg.json");
    write(file, R"({"platform":{"units":2,"client_cores":4}})");
    const auto run = run_sim("--config /dev/stdin --dump-config < " + file.string());
    fs::remove(file);
    INFO(run.out);
    REQUIRE(run.status == 0);
    CHECK_THAT(run.out, Catch::Contains("\"units\": 2"));
    CHECK_THAT(run.out, Catch::Contains("\"client_cores\": 4"));
}

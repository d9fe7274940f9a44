#pragma once
// Runs one simulation in a forked child and returns what it reports as JSON.
// A SystemC kernel elaborates once per process; forking lets one process
// compare several elaborations (the parent never elaborates anything): the
// tests and syncron-sim --compare use it.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

namespace syncron {

inline nlohmann::json in_child(const std::function<nlohmann::json()>& body) {
    int fd[2];
    if (pipe(fd) != 0) return {{"child_error", "pipe failed"}};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        std::string out;
        try {
            out = body().dump();
        } catch (const std::exception& e) {
            out = nlohmann::json{{"child_error", e.what()}}.dump();
        }
        for (size_t done = 0; done < out.size();) {
            const ssize_t n = write(fd[1], out.data() + done, out.size() - done);
            if (n <= 0) break;
            done += static_cast<size_t>(n);
        }
        close(fd[1]);
        _exit(0);
    }
    close(fd[1]);
    std::string in;
    char buf[65536];
    for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) in.append(buf, static_cast<size_t>(n));
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (in.empty()) return {{"child_error", "child produced no result (crashed?)"}};
    return nlohmann::json::parse(in);
}

} // namespace syncron

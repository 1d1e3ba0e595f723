// A private HAProxy (Debian's haproxy) for the tests, run with the configuration the project ships
// (docker/haproxy.cfg) in front of three nodes: its front end and its stats page on free ports of
// 127.0.0.1, its log in a file of its own, killed at the test's end or at once if the test process
// dies (SIGKILL as its parent-death signal). Every wait is bounded. Tests call
// BC_NEED_HAPROXY(h, ports): without the program they are skipped with what to install.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "build_paths.hpp"
#include "ports.hpp"
#include "tests/server/test_client.hpp"

namespace bc::test {

inline constexpr const char* kHaproxy = "/usr/sbin/haproxy";

class HaproxyServer {
 public:
  // HAProxy in front of the nodes a, b and c listening on `nodes` (127.0.0.1), or why() says why
  // not.
  explicit HaproxyServer(const std::array<std::uint16_t, 3>& nodes) : nodes_(nodes) {
    log_ = std::filesystem::temp_directory_path() /
           ("bc-haproxy-" + std::to_string(::getpid()) + "-" + std::to_string(++count_) + ".log");
    for (int attempt = 0; attempt < 3 && pid_ <= 0; ++attempt) launch();
  }
  ~HaproxyServer() {
    stop();
    std::error_code ec;
    std::filesystem::remove(log_, ec);
  }
  HaproxyServer(const HaproxyServer&) = delete;
  HaproxyServer& operator=(const HaproxyServer&) = delete;

  bool ok() const { return pid_ > 0; }
  const std::string& why() const { return why_; }
  std::uint16_t port() const { return port_; }
  std::uint16_t stats_port() const { return stats_port_; }
  // What HAProxy logged (its warnings: servers going down and up).
  std::string log() const {
    std::ifstream in(log_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // The state of each node ("UP", "DOWN", "UP 1/2", ...) by its name, from the stats page's CSV.
  std::vector<std::pair<std::string, std::string>> servers() const {
    std::vector<std::pair<std::string, std::string>> out;
    auto r = stats();
    if (r.status != 200) return out;
    std::istringstream lines(r.body);
    std::string line;
    std::size_t status_col = 0;
    while (std::getline(lines, line)) {
      auto cols = split(line);
      if (line.rfind("# ", 0) == 0) {
        for (std::size_t i = 0; i < cols.size(); ++i)
          if (cols[i] == "status") status_col = i;
        continue;
      }
      if (cols.size() > status_col && cols[0] == "nodes" && cols[1] != "BACKEND")
        out.emplace_back(cols[1], cols[status_col]);
    }
    return out;
  }
  // How many nodes HAProxy sends connections to.
  int up() const {
    int n = 0;
    for (const auto& [name, status] : servers()) n += status == "UP";
    return n;
  }
  // Waits until `n` nodes are up (or down to `n`); false after `limit`.
  bool wait_up(int n, std::chrono::milliseconds limit) const {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      if (up() == n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  // The stats page as CSV; status 0 while nothing listens.
  HttpResponse stats() const {
    try {
      return http_get(stats_port_, "/;csv");
    } catch (const std::exception&) {
      return {};
    }
  }

  static std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> cols;
    std::string cell;
    std::istringstream in(line.rfind("# ", 0) == 0 ? line.substr(2) : line);
    while (std::getline(in, cell, ',')) cols.push_back(cell);
    return cols;
  }

  void launch() {
    port_ = free_loopback_port();
    stats_port_ = free_loopback_port();
    auto addr = [](std::uint16_t p) { return "127.0.0.1:" + std::to_string(p); };
    std::vector<std::string> env = {"BC_LISTEN=" + addr(port_), "BC_STATS=" + addr(stats_port_),
                                    "BC_NODE_A=" + addr(nodes_[0]), "BC_NODE_B=" + addr(nodes_[1]),
                                    "BC_NODE_C=" + addr(nodes_[2])};
    std::vector<std::string> args = {kHaproxy, "-db", "-f", kHaproxyCfg};
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      const int log = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (log >= 0) {
        ::dup2(log, 1);
        ::dup2(log, 2);
      }
      ::execve(argv[0], argv.data(), envp.data());
      ::_exit(127);
    }
    pid_ = pid;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
      if (stats().status == 200) return;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {  // a port taken, or a bad configuration
        pid_ = -1;
        why_ = "haproxy exited: " + log();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    why_ = "haproxy did not answer on 127.0.0.1:" + std::to_string(stats_port_) + ": " + log();
    stop();
  }

  std::array<std::uint16_t, 3> nodes_;
  std::filesystem::path log_;
  pid_t pid_ = -1;
  std::uint16_t port_ = 0, stats_port_ = 0;
  std::string why_;
  static inline int count_ = 0;
};

}  // namespace bc::test

#define BC_NEED_HAPROXY(h, ports)                                                    \
  if (!std::filesystem::exists(::bc::test::kHaproxy))                                \
    GTEST_SKIP() << "haproxy is not installed (Debian: apt-get install haproxy, or " \
                    "scripts/install-deps.sh)";                                      \
  ::bc::test::HaproxyServer h(ports);                                                \
  if (!h.ok()) FAIL() << h.why();

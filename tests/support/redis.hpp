// A private Redis server for the tests (Debian's redis-server): started by the test on a free port
// of 127.0.0.1 with persistence off and no other listener, stopped at the test's end, or at once
// if the test process dies (SIGKILL as its parent-death signal). Every wait is bounded. Tests call
// BC_NEED_REDIS(r): without the program they are skipped with what to install.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ports.hpp"
#include "server/cluster/redis.hpp"

namespace bc::test {

inline constexpr const char* kRedisServer = "/usr/bin/redis-server";

class RedisServer {
 public:
  // Started and answering PING, or why() says why not.
  // `password`: the server asks for it (requirepass).
  explicit RedisServer(std::string password = {}) : password_(std::move(password)) {
    for (int attempt = 0; attempt < 3 && pid_ <= 0; ++attempt) start();
  }
  ~RedisServer() { stop(SIGKILL); }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  bool ok() const { return pid_ > 0; }
  const std::string& why() const { return why_; }
  std::uint16_t port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
  // Kills it (SIGKILL: a crash) or stops it.
  void stop(int how) {
    if (pid_ <= 0) return;
    ::kill(pid_, how);
    int status = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until && ::waitpid(pid_, &status, WNOHANG) == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, WNOHANG);
    pid_ = -1;
  }
  // Starts it again on the same port (empty: nothing kept).
  bool restart() {
    stop(SIGKILL);
    return launch();
  }

 private:
  void start() {
    port_ = free_loopback_port();
    launch();
  }

  bool launch() {
    std::vector<std::string> args = {
        kRedisServer,   "--port", std::to_string(port_), "--bind", "127.0.0.1",  "--save",  "",
        "--appendonly", "no",     "--protected-mode",    "yes",    "--loglevel", "warning", "--dir",
        "/tmp"};
    if (!password_.empty()) {
      args.push_back("--requirepass");
      args.push_back(password_);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      const int null = ::open("/dev/null", O_WRONLY);  // its start-up banner is not the test's
      if (null >= 0) {
        ::dup2(null, 1);
        ::dup2(null, 2);
      }
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    pid_ = pid;
    server::Redis probe(server::RedisAddress{"127.0.0.1", port_, {}, password_},
                        std::chrono::milliseconds(200));
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
      auto r = probe.command({"PING"});
      if (r && r->str == "PONG") return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) break;  // the port was taken
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    why_ = "redis-server did not start on 127.0.0.1:" + std::to_string(port_);
    stop(SIGKILL);
    return false;
  }

  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
  std::string password_;
  std::string why_;
};

}  // namespace bc::test

#define BC_NEED_REDIS(r)                                                                    \
  if (!std::filesystem::exists(::bc::test::kRedisServer))                                   \
    GTEST_SKIP() << "redis-server is not installed (Debian: apt-get install redis-server, " \
                    "or scripts/install-deps.sh)";                                          \
  ::bc::test::RedisServer r;                                                                \
  if (!r.ok()) FAIL() << r.why();

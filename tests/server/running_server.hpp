// A server in the test process on 127.0.0.1 and a free port, run on a thread of its own, for the
// socket tests' fixtures; stopped (its thread joined) by stop() or when it goes.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "server/net/server.hpp"

namespace bc::test {

// The I/O threads of a test's server: two, or BC_TEST_IO_THREADS (1 to 8). With one, rooms and
// connections have no strands (server/host/serial.hpp): tests/server/CMakeLists.txt runs the
// ServerTest suite a second time so, as "OneThread.ServerTest.*".
inline int test_io_threads() {
  const char* v = std::getenv("BC_TEST_IO_THREADS");
  const int n = v != nullptr ? std::atoi(v) : 0;
  return n >= 1 && n <= 8 ? n : 2;
}

// 127.0.0.1, a free port, test_io_threads() threads, games in memory, the temporary directory as
// web root.
inline server::ServerConfig loopback_config() {
  server::ServerConfig cfg;
  cfg.host = "127.0.0.1";
  cfg.port = 0;
  cfg.web_root = std::filesystem::temp_directory_path();
  // No puzzles unless a test gives its collection: not whatever the temporary folder holds.
  cfg.puzzles = std::filesystem::temp_directory_path() / "bc-tests-have-no-puzzles.json";
  cfg.threads = test_io_threads();
  cfg.memory = true;
  return cfg;
}

class RunningServer {
 public:
  RunningServer() = default;
  RunningServer(const RunningServer&) = delete;
  RunningServer& operator=(const RunningServer&) = delete;
  ~RunningServer() { stop(); }

  // Starts it; why not, if it could not.
  std::optional<std::string> start(server::ServerConfig cfg) {
    stop();
    server_ = std::make_unique<server::Server>(std::move(cfg));
    if (auto err = server_->start()) {
      server_.reset();
      return err;
    }
    thread_ = std::thread([s = server_.get()] { s->run(); });
    return std::nullopt;
  }
  void stop() {
    if (!server_) return;
    server_->stop();
    if (thread_.joinable()) thread_.join();
    server_.reset();
  }
  std::uint16_t port() const { return server_ ? server_->port() : 0; }
  server::Server& server() { return *server_; }

 private:
  std::unique_ptr<server::Server> server_;
  std::thread thread_;
};

}  // namespace bc::test

// bc_create_flood: what a create flood from one address leaves in the store (issue 13.5). On
// 127.0.0.1 only: --connections workers at 127.0.0.1 each open a connection, create a room, close
// it and go again, for --seconds; then the growth of the database's files (data_dir/bombcheckers.db
// and its -wal; the WAL is reused after a checkpoint, so measure the file after the server stops
// for the lasting size) per second, extrapolated to a day. Every wait times out.
//
//   bc_create_flood --port P --data-dir DIR [--seconds 10] [--connections 4] [--json]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "../server/test_client.hpp"

namespace {

using bc::test::WsClient;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::uintmax_t store_bytes(const std::filesystem::path& dir) {
  std::uintmax_t total = 0;
  for (const char* f : {"bombcheckers.db", "bombcheckers.db-wal"}) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(dir / f, ec);
    if (!ec) total += n;
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint16_t port = 0;
  std::filesystem::path data_dir;
  double seconds = 10;
  int connections = 4;
  bool as_json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--port") {
      port = static_cast<std::uint16_t>(std::atoi(next().c_str()));
    } else if (a == "--data-dir") {
      data_dir = next();
    } else if (a == "--seconds") {
      seconds = std::clamp(std::atof(next().c_str()), 0.1, 600.0);
    } else if (a == "--connections") {
      connections = std::clamp(std::atoi(next().c_str()), 1, 64);
    } else if (a == "--json") {
      as_json = true;
    } else {
      std::fprintf(stderr,
                   "usage: bc_create_flood --port P --data-dir DIR [--seconds S] "
                   "[--connections N] [--json]\n");
      return 2;
    }
  }
  if (port == 0 || data_dir.empty()) return 2;

  // Each of the --connections workers opens a connection, creates a room, and on the answer
  // closes it and opens the next: a fresh per-connection budget for every room, as the attack did.
  const std::uintmax_t bytes_before = store_bytes(data_dir);
  std::atomic<long> made{0}, limited{0}, other{0}, unanswered{0};
  const auto started = Clock::now();
  const auto until =
      started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<std::thread> workers;
  for (int w = 0; w < connections; ++w) {
    workers.emplace_back([&] {
      while (Clock::now() < until) {
        try {
          WsClient c(port, "/ws", true, "", "127.0.0.1");
          c.expect("welcome", 2s);
          c.send({{"type", "create"}, {"variant", "bomb"}, {"seat", "fire"}, {"name", "flood"}});
          bool answered = false;
          for (int i = 0; i < 20 && !answered; ++i) {
            auto m = c.recv(2s);
            if (!m) break;
            if ((*m)["type"] == "joined") {
              ++made;
              answered = true;
            } else if ((*m)["type"] == "error") {
              ++((*m)["code"] == "rate_limited" ? limited : other);
              answered = true;
            }
          }
          if (!answered) ++unanswered;
        } catch (const std::exception&) {
          ++unanswered;  // refused at accept (the address's connection limit), say
          std::this_thread::sleep_for(10ms);
        }
      }
    });
  }
  for (auto& t : workers) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  std::this_thread::sleep_for(500ms);  // the last commits
  const std::uintmax_t bytes_after = store_bytes(data_dir);
  const double grown = static_cast<double>(bytes_after) - static_cast<double>(bytes_before);
  const double per_day_gb = grown / elapsed * 86400.0 / 1e9;
  if (as_json) {
    std::printf(
        "{\"seconds\":%.2f,\"rooms_made\":%ld,\"rate_limited\":%ld,\"other_errors\":%ld,"
        "\"unanswered\":%ld,"
        "\"rooms_per_second\":%.2f,\"store_bytes_before\":%ju,\"store_bytes_after\":%ju,"
        "\"gb_per_day\":%.3f}\n",
        elapsed, made.load(), limited.load(), other.load(), unanswered.load(),
        static_cast<double>(made.load()) / elapsed, bytes_before, bytes_after, per_day_gb);
  } else {
    std::printf(
        "%.1f s: %ld rooms made (%.2f/s), %ld rate_limited, %ld other errors, %ld unanswered; "
        "store files %ju -> %ju bytes (%.0f bytes/s, %.3f GB/day)\n",
        elapsed, made.load(), static_cast<double>(made.load()) / elapsed, limited.load(),
        other.load(), unanswered.load(), bytes_before, bytes_after, grown / elapsed, per_day_gb);
  }
  return 0;
}

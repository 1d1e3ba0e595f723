// bc_create_flood: what a create flood from one address leaves in the store (issue 13.5). On
// 127.0.0.1 only: --connections connections of 127.0.0.1 each send `create` as soon as the last one
// is answered, for --seconds; then the database's growth (data_dir/bombcheckers.db and its -wal) is
// printed per second and extrapolated to a day. Every wait times out.
//
//   bc_create_flood --port P --data-dir DIR [--seconds 10] [--connections 4] [--json]
#include <algorithm>
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

  std::vector<std::unique_ptr<WsClient>> crowd;
  for (int i = 0; i < connections; ++i) {
    crowd.push_back(std::make_unique<WsClient>(port, "/ws", true, "", "127.0.0.1"));
    crowd.back()->expect("welcome", 2s);
  }
  const std::uintmax_t bytes_before = store_bytes(data_dir);
  long made = 0, refused = 0, unanswered = 0;
  const auto started = Clock::now();
  const auto until = started + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(seconds));
  while (Clock::now() < until) {
    for (auto& c : crowd) {
      c->send({{"type", "create"}, {"variant", "bomb"}, {"seat", "fire"}, {"name", "flood"}});
      bool answered = false;
      for (int i = 0; i < 20 && !answered; ++i) {
        auto m = c->recv(2s);
        if (!m) break;
        if ((*m)["type"] == "joined") {
          ++made;
          answered = true;
        } else if ((*m)["type"] == "error") {
          ++refused;
          answered = true;
        }
      }
      if (!answered) ++unanswered;
    }
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  crowd.clear();
  std::this_thread::sleep_for(500ms);  // the last commits
  const std::uintmax_t bytes_after = store_bytes(data_dir);
  const double grown = static_cast<double>(bytes_after) - static_cast<double>(bytes_before);
  const double per_day_gb = grown / elapsed * 86400.0 / 1e9;
  if (as_json) {
    std::printf(
        "{\"seconds\":%.2f,\"rooms_made\":%ld,\"refused\":%ld,\"unanswered\":%ld,"
        "\"rooms_per_second\":%.2f,\"store_bytes_before\":%ju,\"store_bytes_after\":%ju,"
        "\"gb_per_day\":%.3f}\n",
        elapsed, made, refused, unanswered, static_cast<double>(made) / elapsed, bytes_before,
        bytes_after, per_day_gb);
  } else {
    std::printf(
        "%.1f s: %ld rooms made (%.2f/s), %ld refused, %ld unanswered; store %ju -> %ju bytes "
        "(%.0f bytes/s, %.3f GB/day)\n",
        elapsed, made, static_cast<double>(made) / elapsed, refused, unanswered, bytes_before,
        bytes_after, grown / elapsed, per_day_gb);
  }
  return unanswered == 0 ? 0 : 1;
}

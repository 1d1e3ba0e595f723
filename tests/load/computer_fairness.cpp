// bc_computer_fairness: how long a computer answer (level 1 by default) takes at one address while
// another address keeps many computer-vs-computer rooms busy (issue 13). On 127.0.0.1 only: the
// attack comes from 127.0.0.1, the player from 127.0.0.2. Prints the answer times with no attack,
// then under it. Bounded: every wait times out.
//
//   bc_computer_fairness --port P [--rooms 30] [--level 8] [--kaboom] [--turns 5]
//                        [--warmup-ms 2000] [--victim-level 1]
//
// --kaboom: the attack rooms play Kaboom on a 4x4 board, connect 4, 2 bombs each (small enough
// for the exact solver of levels 7 and 8).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "../server/test_client.hpp"

namespace {

using bc::test::json;
using bc::test::WsClient;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// One game against the computer at `level` from `address`: the player moves `turns` times and
// times each computer answer (from its act sent to the state where it is to move again).
std::vector<double> answers(std::uint16_t port, const std::string& address, int level, int turns,
                            std::chrono::milliseconds timeout) {
  WsClient c(port, "/ws", true, "", address);
  c.expect("welcome");
  c.send({{"type", "create"},
          {"variant", "bomb"},
          {"seat", "fire"},
          {"name", "Player"},
          {"opponent", {{"ai", level}}}});
  c.expect("joined");
  std::vector<double> out;
  json s = c.expect("state");
  for (int t = 0; t < turns; ++t) {
    while (s["turn"] != "fire" || s["status"] != "playing") {
      if (s["status"] == "finished") return out;
      s = c.expect("state", timeout);
    }
    const auto sent = Clock::now();
    c.send({{"type", "act"}, {"action", s["legal"][0]}, {"version", s["version"]}});
    do {
      s = c.expect("state", timeout);
    } while (s["turn"] != "fire" && s["status"] == "playing");
    out.push_back(std::chrono::duration<double>(Clock::now() - sent).count());
  }
  return out;
}

void report(const char* what, std::vector<double> v) {
  std::printf("%-28s", what);
  for (double x : v) std::printf(" %.2f", x);
  if (!v.empty()) {
    std::sort(v.begin(), v.end());
    std::printf("   median %.2f s, max %.2f s", v[v.size() / 2], v.back());
  }
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint16_t port = 0;
  int rooms = 30;
  int level = 8;
  int turns = 5;
  bool kaboom = false;
  int warmup_ms = 2000;
  int victim_level = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
    if (a == "--port") {
      port = static_cast<std::uint16_t>(next());
    } else if (a == "--rooms") {
      rooms = next();
    } else if (a == "--level") {
      level = next();
    } else if (a == "--turns") {
      turns = next();
    } else if (a == "--warmup-ms") {
      warmup_ms = next();
    } else if (a == "--victim-level") {
      victim_level = next();
    } else if (a == "--kaboom") {
      kaboom = true;
    } else {
      std::fprintf(stderr,
                   "usage: bc_computer_fairness --port P [--rooms N] [--level L] [--kaboom] "
                   "[--turns N] [--warmup-ms MS] [--victim-level L]\n");
      return 2;
    }
  }
  if (port == 0) return 2;
  try {
    report("no attack (s):", answers(port, "127.0.0.2", victim_level, turns, 120s));
    std::vector<std::unique_ptr<WsClient>> attack;
    for (int r = 0; r < rooms; ++r) {
      auto c = std::make_unique<WsClient>(port, "/ws", true, "", "127.0.0.1");
      c->expect("welcome");
      json create = {{"type", "create"},
                     {"variant", kaboom ? "kaboom" : "bomb"},
                     {"seat", "spectator"},
                     {"name", "Attack"},
                     {"opponent", {{"ai", level}, {"ai2", level}}}};
      if (kaboom) create["options"] = {{"width", 4}, {"height", 4}, {"connect", 4}, {"bombs", 2}};
      c->send(create);
      c->expect("joined");
      attack.push_back(std::move(c));
    }
    std::printf("%d %s rooms at level %d, computer against computer, from 127.0.0.1\n", rooms,
                kaboom ? "kaboom 4x4/4/2" : "bomb", level);
    std::this_thread::sleep_for(std::chrono::milliseconds(warmup_ms));
    report("under attack (s):", answers(port, "127.0.0.2", victim_level, turns, 120s));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bc_computer_fairness: %s\n", e.what());
    return 1;
  }
  return 0;
}

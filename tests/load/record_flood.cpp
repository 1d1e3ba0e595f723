// bc_record_flood: the expensive-record attack of issue 13.1, on 127.0.0.1 only. From one address:
// a classic game of two kings shuffling with the no-progress rule off, for --turns turns (each side
// re-takes its seat with its token on a fresh connection every 15 actions, past the per-connection
// rate limit); then --unread requests for every position of it on connections that never read.
// Meanwhile a player at 127.0.0.2 plays a game elsewhere and times each move. Prints the record's
// size and build time, each move's round trip and the server's RSS (--pid). Bounded: every wait
// times out.
//
//   bc_record_flood --port P --pid PID [--turns 1000] [--unread 24] [--hold-ms 3000]
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
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

long rss_kib(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

json action_to(const json& state, int x, int y) {
  for (const auto& a : state["legal"]) {
    if (a["to"] == json::array({x, y})) return a;
  }
  throw std::runtime_error("no legal action to the shuffle's square: " + state.dump());
}

struct Side {
  std::unique_ptr<WsClient> c;
  std::string seat, token;
  int sent = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::uint16_t port = 0;
  int pid = 0, turns = 1000, unread_n = 24, hold_ms = 3000;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string_view a = argv[i];
    const int v = std::atoi(argv[i + 1]);
    if (a == "--port")
      port = static_cast<std::uint16_t>(v);
    else if (a == "--pid")
      pid = v;
    else if (a == "--turns")
      turns = v;
    else if (a == "--unread")
      unread_n = v;
    else if (a == "--hold-ms")
      hold_ms = v;
  }
  if (port == 0) {
    std::fprintf(stderr, "usage: bc_record_flood --port P --pid PID [--turns N] [--unread N]\n");
    return 2;
  }
  const json position = {{"pieces",
                          {{{"at", {1, 1}}, {"side", "black"}, {"rank", "king"}},
                           {{"at", {6, 4}}, {"side", "white"}, {"rank", "king"}}}},
                         {"turn", "black"}};
  Side black{std::make_unique<WsClient>(port), "black", ""};
  black.c->expect("welcome");
  black.c->send({{"type", "create"},
                 {"variant", "classic"},
                 {"seat", "black"},
                 {"name", "A"},
                 {"options", {{"draw_turns", 0}}},
                 {"position", position}});
  json j = black.c->expect("joined");
  const std::string room = j["room"];
  black.token = j["token"];
  Side white{std::make_unique<WsClient>(port), "white", ""};
  white.c->expect("welcome");
  white.c->send({{"type", "join"}, {"room", room}, {"seat", "white"}, {"name", "B"}});
  white.token = white.c->expect("joined")["token"];
  auto rejoin = [&](Side& s) {
    s.c = std::make_unique<WsClient>(port);
    s.c->expect("welcome");
    s.c->send({{"type", "join"}, {"room", room}, {"seat", s.seat}, {"token", s.token}});
    s.c->expect("joined");
    s.sent = 0;
  };
  json st;
  const auto game_start = Clock::now();
  int played = 0;
  for (int v = 0; v < turns; ++v) {
    Side& me = v % 2 == 0 ? black : white;
    if (me.sent >= 15 || v < 2) rejoin(me);
    do {
      st = me.c->expect("state", 5s);
    } while (st["version"] != v);
    if (st["status"] != "playing") break;
    const int phase = (v / 2) % 2;
    const json act = v % 2 == 0 ? (phase == 0 ? action_to(st, 2, 2) : action_to(st, 1, 1))
                                : (phase == 0 ? action_to(st, 7, 5) : action_to(st, 6, 4));
    me.c->send({{"type", "act"}, {"action", act}, {"version", v}});
    ++me.sent;
    ++played;
  }
  const double game_s = std::chrono::duration<double>(Clock::now() - game_start).count();
  std::this_thread::sleep_for(200ms);
  const long rss_before = rss_kib(pid);

  // One reader: the record's size and how long it takes.
  const auto t0 = Clock::now();
  auto one = bc::test::http_get(port, "/api/games/" + room + "/positions");
  const double one_s = std::chrono::duration<double>(Clock::now() - t0).count();

  // The unread requests.
  std::vector<int> fds;
  for (int i = 0; i < unread_n; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(0x7f000001);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) continue;
    const std::string req = "GET /api/games/" + room + "/positions HTTP/1.1\r\nHost: t\r\n\r\n";
    (void)!::send(fd, req.data(), req.size(), 0);
    fds.push_back(fd);
  }
  // A player elsewhere (another address) plays while they are held.
  WsClient c(port, "/ws", true, "", "127.0.0.2");
  c.expect("welcome");
  c.send({{"type", "create"}, {"variant", "bomb"}, {"seat", "fire"}, {"name", "C"}});
  const std::string other = c.expect("joined")["room"];
  WsClient d(port, "/ws", true, "", "127.0.0.2");
  d.expect("welcome");
  d.send({{"type", "join"}, {"room", other}, {"seat", "water"}, {"name", "D"}});
  d.expect("joined");
  std::vector<double> moves;
  long rss_peak = rss_kib(pid);
  json o;
  do {
    o = c.expect("state", 5s);
  } while (o["status"] != "playing");
  const auto hold_end = Clock::now() + std::chrono::milliseconds(hold_ms);
  for (int v = 0; Clock::now() < hold_end && o["status"] == "playing"; ++v) {
    const auto sent = Clock::now();
    (o["turn"] == "fire" ? c : d)
        .send({{"type", "act"}, {"action", o["legal"][0]}, {"version", v}});
    do {
      o = c.expect("state", 10s);
    } while (o["version"] != v + 1);
    moves.push_back(std::chrono::duration<double>(Clock::now() - sent).count() * 1000);
    rss_peak = std::max(rss_peak, rss_kib(pid));
    std::this_thread::sleep_for(50ms);
  }
  for (int fd : fds) ::close(fd);
  std::sort(moves.begin(), moves.end());
  const double med = moves.empty() ? 0 : moves[moves.size() / 2];
  const double mx = moves.empty() ? 0 : moves.back();
  std::printf(
      "{\"turns\":%d,\"game_s\":%.1f,\"record_status\":%d,\"record_bytes\":%zu,\"record_s\":%.3f,"
      "\"unread\":%zu,\"other_moves\":%zu,\"move_ms_median\":%.1f,\"move_ms_max\":%.1f,"
      "\"rss_kib_before\":%ld,\"rss_kib_peak\":%ld}\n",
      played, game_s, one.status, one.body.size(), one_s, fds.size(), moves.size(), med, mx,
      rss_before, rss_peak);
  return 0;
}

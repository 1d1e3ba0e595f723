// bc_flood: what two players of a room receive while one address floods it (issue 13.3). On
// 127.0.0.1 only: the flooder is 127.0.0.1, the fast player 127.0.0.2, the slow player 127.0.0.3
// (it reads nothing during the attack, through a small receive window, then catches up). Bounded
// by --seconds; every wait times out. Prints one line of figures (or --json).
//
//   bc_flood --port P --mode chat|join [--seconds 5] [--connections 100] [--server-pid PID]
//
// chat: the flooder keeps --connections spectators in the room and sends chat round-robin as fast
//       as the server reads, opening a new spectator for each one the server closes (a fresh
//       per-connection budget each time).
// join: the flooder joins as a spectator on a fresh connection and closes it, again and again.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
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

// utime + stime of a process, in seconds; -1 if unknown.
double cpu_seconds(int pid) {
  if (pid <= 0) return -1;
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(stat.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// A spectator of `room` from the flooder's address, or null if the server refused it.
std::unique_ptr<WsClient> spectator(std::uint16_t port, const std::string& room,
                                    std::atomic<long>& refused) {
  try {
    auto c = std::make_unique<WsClient>(port, "/ws", true, "", "127.0.0.1");
    c->expect("welcome", 2s);
    c->send({{"type", "join"}, {"room", room}, {"seat", "spectator"}, {"name", "flood"}});
    for (int i = 0; i < 10; ++i) {
      auto m = c->recv(2s);
      if (!m) break;
      if ((*m)["type"] == "joined") return c;
      if ((*m)["type"] == "error") break;
    }
  } catch (const std::exception&) {
  }
  ++refused;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint16_t port = 0;
  std::string mode = "chat";
  double seconds = 5;
  int connections = 100;
  int server_pid = 0;
  bool as_json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--port")
      port = static_cast<std::uint16_t>(std::atoi(next().c_str()));
    else if (a == "--mode")
      mode = next();
    else if (a == "--seconds")
      seconds = std::atof(next().c_str());
    else if (a == "--connections")
      connections = std::atoi(next().c_str());
    else if (a == "--server-pid")
      server_pid = std::atoi(next().c_str());
    else if (a == "--json")
      as_json = true;
    else {
      std::fprintf(stderr,
                   "usage: bc_flood --port P --mode chat|join [--seconds S] "
                   "[--connections N] [--server-pid PID] [--json]\n");
      return 2;
    }
  }
  if (port == 0 || (mode != "chat" && mode != "join")) return 2;

  // The room: the fast player (x) and the slow one (o), each from its own address.
  WsClient fast(port, "/ws", true, "", "127.0.0.2");
  fast.expect("welcome");
  fast.send({{"type", "create"}, {"variant", "kaboom"}, {"seat", "x"}, {"name", "Fast"}});
  const std::string room = fast.expect("joined")["room"];
  WsClient slow(port, "/ws?compact=1", false, "", "127.0.0.3");
  slow.send({{"type", "join"}, {"room", room}, {"seat", "o"}, {"name", "Slow"}});
  fast.drain(300ms);

  std::atomic<bool> stop{false};
  std::atomic<long> sent{0}, refused{0}, closed{0}, reopened{0};
  std::thread flooder([&] {
    if (mode == "chat") {
      std::vector<std::unique_ptr<WsClient>> crowd;
      for (int i = 0; i < connections && !stop; ++i)
        crowd.push_back(spectator(port, room, refused));
      // A place the server refused is tried again a second later, not at once (that would
      // spend the flood on handshakes).
      std::vector<Clock::time_point> retry(crowd.size(), Clock::now() + 1s);
      while (!stop) {
        for (std::size_t i = 0; i < crowd.size() && !stop; ++i) {
          auto& c = crowd[i];
          if (c && c->closed()) {
            ++closed;
            c.reset();
            retry[i] = Clock::now();
          }
          if (!c) {
            if (Clock::now() < retry[i]) continue;
            c = spectator(port, room, refused);  // a fresh connection, a fresh budget
            if (!c) {
              retry[i] = Clock::now() + 1s;
              continue;
            }
            ++reopened;
          }
          c->send({{"type", "chat"}, {"text", "flood flood flood flood flood"}});
          ++sent;
        }
      }
    } else {
      while (!stop) {
        auto c = spectator(port, room, refused);
        ++sent;
      }
    }
  });

  // The fast player counts what it receives during the attack.
  const double cpu0 = cpu_seconds(server_pid);
  const auto t0 = Clock::now();
  long messages = 0, bytes = 0, chats = 0, states = 0;
  auto fast_until = t0;  // its last message (a dropped player gets nothing more)
  while (Clock::now() - t0 < std::chrono::duration<double>(seconds)) {
    auto m = fast.recv(100ms);
    if (!m) continue;
    fast_until = Clock::now();
    ++messages;
    bytes += static_cast<long>(m->dump().size());
    chats += (*m)["type"] == "chat";
    states += (*m)["type"] == "state" || (*m)["type"] == "delta";
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  const double cpu1 = cpu_seconds(server_pid);
  stop = true;
  flooder.join();

  // Is each player still there? It reads what is waiting, then a `sync` must get the room's state.
  const auto still_there = [&room](WsClient& c, std::chrono::milliseconds catch_up) {
    c.drain(catch_up);
    c.send({{"type", "sync"}});
    try {
      return !c.closed() && c.expect("state", 3s)["room"] == room;
    } catch (const std::exception&) {
      return false;
    }
  };
  slow.start_reading();  // the slow player reads from now on
  const bool slow_ok = still_there(slow, 1500ms);
  const bool fast_ok = still_there(fast, 200ms);
  const double cpu = cpu0 >= 0 && cpu1 >= 0 ? 100.0 * (cpu1 - cpu0) / elapsed : -1;
  // Rates over the time the fast player was there to receive (all of it, unless it was dropped).
  const double window =
      fast_ok ? elapsed : std::max(0.1, std::chrono::duration<double>(fast_until - t0).count());
  if (as_json) {
    std::printf(
        "{\"mode\":\"%s\",\"seconds\":%.2f,\"flood_sent\":%ld,\"flood_refused\":%ld,"
        "\"flood_closed\":%ld,\"flood_reopened\":%ld,\"player_messages_per_s\":%.1f,"
        "\"player_bytes_per_s\":%.0f,\"player_chats\":%ld,\"player_states\":%ld,"
        "\"slow_player_connected\":%s,\"fast_player_connected\":%s,\"server_cpu_percent\":%.0f,"
        "\"fast_player_window_s\":%.2f}\n",
        mode.c_str(), elapsed, sent.load(), refused.load(), closed.load(), reopened.load(),
        static_cast<double>(messages) / window, static_cast<double>(bytes) / window, chats, states,
        slow_ok ? "true" : "false", fast_ok ? "true" : "false", cpu, window);
  } else {
    std::printf(
        "%s flood, %.1f s: flooder sent %ld (refused %ld, closed %ld, reopened %ld); "
        "fast player got %.0f msg/s, %.0f B/s (%ld chats, %ld states); slow player %s; "
        "fast player %s (rates over its %.1f s); server CPU %.0f%%\n",
        mode.c_str(), elapsed, sent.load(), refused.load(), closed.load(), reopened.load(),
        static_cast<double>(messages) / window, static_cast<double>(bytes) / window, chats, states,
        slow_ok ? "connected" : "DROPPED", fast_ok ? "connected" : "DROPPED", window, cpu);
  }
  return slow_ok && fast_ok ? 0 : 1;
}

// Three `bombcheckers serve --cluster` nodes behind the HAProxy the project ships
// (docker/haproxy.cfg, tests/support/haproxy.hpp), on one private PostgreSQL and one Redis: games
// of every variant with their players and spectators spread over the nodes by the proxy, one node
// killed with SIGKILL mid-game, and then every client that lost its game reconnects through the
// proxy, takes its seat back with its token, and every game is played to its end with no
// acknowledged action lost. What each client saw over the failover is printed. Only 127.0.0.1;
// every wait is bounded.
#include "../support/haproxy.hpp"

#include <algorithm>
#include <map>
#include <random>

#include "nodes.hpp"

namespace bc::test {
namespace {

// A gauge or counter of a node's /metrics ("name" or "name{labels}"); -1 when absent.
double metric(std::uint16_t port, const std::string& name) {
  const std::string body = http_get(port, "/metrics").body;
  const auto at = body.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stod(body.substr(at + name.size() + 2));
}

// One connection of a game, and what it saw from the kill on.
struct Conn {
  int table = 0;
  std::string who;                  // "player 0", "player 1", "spectator"
  std::string node;                 // where the proxy put it (welcome's `node`)
  bool lost_game = false;           // its node died, or its room's owner did
  std::vector<std::string> seen{};  // message types (notices and errors with their code)
  double closed_ms = -1;            // from the kill
  std::optional<int> close_code{};
  double back_ms = -1;  // its `joined` on a new connection, from the kill
};

std::string summary(std::vector<double> v) {
  if (v.empty()) return "none";
  std::sort(v.begin(), v.end());
  char buf[96];
  std::snprintf(buf, sizeof buf, "%zu, min %.0f ms, median %.0f ms, max %.0f ms", v.size(), v[0],
                v[v.size() / 2], v.back());
  return buf;
}

TEST(ClusterBehindHaproxy, ANodeKilledMidGameEveryGameFinishesWithNothingLostAndEverySeatBack) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  // The nodes take the client's address from the proxy's X-Forwarded-For; every client of this
  // test is 127.0.0.1 anyway: no per-address limits on joins and creates.
  const std::vector<std::string> open = {"--trusted-proxy",           "127.0.0.1",
                                         "--max-joins-per-address",   "0",
                                         "--max-creates-per-address", "0"};
  std::map<std::string, Server> nodes;
  for (const char* id : {"a", "b", "c"}) nodes.emplace(id, node(dir, url, redis, id, open));
  BC_NEED_HAPROXY(
      proxy, (std::array<std::uint16_t, 3>{nodes["a"].port, nodes["b"].port, nodes["c"].port}));
  ASSERT_TRUE(proxy.wait_up(3, 10s)) << proxy.log();
  const std::uint16_t port = proxy.port();

  // Nine games, their players and a spectator each, all through the proxy (leastconn).
  const std::array<const char*, 4> variants = {"bomb", "classic", "triple_king", "kaboom"};
  std::mt19937_64 rng(17);
  std::vector<Table> tables(9);
  std::vector<std::unique_ptr<WsClient>> watchers(tables.size());
  std::vector<Conn> seats;
  std::vector<std::unique_ptr<WsClient>> idle;  // people on the room list, joining nothing
  for (std::size_t i = 0; i < tables.size(); ++i) {
    // Arrivals are not in threes: so that the proxy sends the rooms' creators to every node.
    for (std::size_t k = 0; k < i % 3; ++k) {
      idle.push_back(std::make_unique<WsClient>(port));
      idle.back()->expect("welcome");
    }
    tables[i].variant = variants[i % variants.size()];
    if (i % 3 == 0) tables[i].create_extra = {{"clock", {{"base", 600}, {"increment", 5}}}};
    std::array<std::string, 2> where;
    open_table(port, tables[i], &where);
    if (HasFatalFailure()) return;
    watchers[i] = std::make_unique<WsClient>(port);
    const std::string wnode = watchers[i]->expect("welcome").value("node", "");
    watchers[i]->send({{"type", "join"}, {"room", tables[i].room}});
    watchers[i]->expect("joined");
    for (int p = 0; p < 2; ++p)
      seats.push_back(
          {.table = static_cast<int>(i), .who = "player " + std::to_string(p), .node = where[p]});
    seats.push_back({.table = static_cast<int>(i), .who = "spectator", .node = wnode});
  }
  std::map<std::string, int> per_node;
  for (const auto& s : seats) ++per_node[s.node];
  for (const char* id : {"a", "b", "c"}) {
    EXPECT_GT(per_node[id], 0) << "the proxy spreads the connections over every node";
  }

  // A few actions in every game (paced: each connection may send 20 messages a second).
  auto play_round = [&](std::vector<Table*> ts) {
    for (auto* t : ts) {
      if (t->last["status"] == "finished") continue;
      play(*t, rng);
      if (HasFatalFailure()) return;
    }
    std::this_thread::sleep_for(30ms);
  };
  std::vector<Table*> all;
  for (auto& t : tables) all.push_back(&t);
  for (int r = 0; r < 4 && !HasFatalFailure(); ++r) play_round(all);
  if (HasFatalFailure()) return;

  // Which node owns which room (its lease in Redis); the victim owns the most.
  server::Redis probe("127.0.0.1", redis.port(), 500ms);
  std::vector<std::string> owner(tables.size());
  std::map<std::string, int> owned;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    auto r = probe.command({"GET", "bc:owner:" + tables[i].room});
    ASSERT_TRUE(r && !r->nil()) << "every room has a lease";
    owner[i] = r->str;
    ++owned[owner[i]];
    EXPECT_TRUE(listed(port, tables[i].room)) << "the room list through the proxy is the cluster's";
  }
  std::string victim = "a";
  for (const auto& [id, n] : owned)
    if (n > owned[victim]) victim = id;
  std::printf("connections per node: a %d, b %d, c %d; rooms per node: a %d, b %d, c %d\n",
              per_node["a"], per_node["b"], per_node["c"], owned["a"], owned["b"], owned["c"]);
  EXPECT_GE(owned.size(), 2u) << "rooms are made on more than one node";

  // The games that lose something: an unacknowledged action in each, sent just before the kill
  // (kept whole or lost whole).
  std::vector<bool> hit(tables.size(), false);
  for (auto& s : seats) {
    s.lost_game = s.node == victim || owner[s.table] == victim;
    if (s.lost_game) hit[s.table] = true;
  }
  for (std::size_t i = 0; i < tables.size(); ++i) {
    Table& t = tables[i];
    if (!hit[i] || t.last["status"] == "finished") continue;
    json action = t.last["legal"][rng() % t.last["legal"].size()];
    t.clients[mover(t)]->send(
        {{"type", "act"}, {"version", t.last["version"]}, {"action", action}});
    t.pending = action;
  }
  auto conn = [&](const Conn& s) -> WsClient& {
    return s.who == "spectator" ? *watchers[s.table] : *tables[s.table].clients[s.who.back() - '0'];
  };
  const auto killed = Clock::now();
  nodes[victim].proc->signal(SIGKILL);
  EXPECT_EQ(nodes[victim].proc->wait(10s), 128 + SIGKILL);

  // What every connection sees: those that lost their game are closed (at once on the dead node;
  // with room_moving and 1012 on a live node, when it notices); the others see nothing. A closed
  // one reconnects through the proxy at once and joins again (as the web client does): players
  // with their tokens, spectators without; a join waits for the dead node's leases to expire. A
  // new connection closed before its `joined` tries again.
  std::vector<std::unique_ptr<WsClient>> again(seats.size());
  int bad_gateway = 0;
  auto rejoin = [&](std::size_t k) {
    const Conn& s = seats[k];
    // Until its health check (every 500 ms) takes the dead node out, the proxy may still send a
    // new connection there and answer 502: the client tries again a moment later, as the web
    // client does. (Told to reconnect at once, the clients of the dead node's rooms now get there
    // before the check does.)
    for (int attempt = 1;; ++attempt) {
      try {
        again[k] = std::make_unique<WsClient>(port);
        break;
      } catch (const std::exception& e) {
        if (attempt == 50) throw;
        ++bad_gateway;
        std::this_thread::sleep_for(100ms);
      }
    }
    EXPECT_NE(again[k]->expect("welcome").value("node", ""), victim);
    json msg = {{"type", "join"}, {"room", tables[s.table].room}};
    if (s.who != "spectator") msg["token"] = tables[s.table].tokens[s.who.back() - '0'];
    again[k]->send(msg);
  };
  auto all_back = [&] {
    for (const auto& s : seats)
      if (s.lost_game && s.back_ms < 0) return false;
    return true;
  };
  while (!all_back() && ms_since(killed) < 25000) {
    for (std::size_t k = 0; k < seats.size(); ++k) {
      Conn& s = seats[k];
      if (s.closed_ms < 0) {  // the connection it had
        WsClient& c = conn(s);
        while (auto m = c.recv(1ms)) {
          const std::string type = (*m)["type"];
          if (type == "notice" || type == "error")
            s.seen.push_back(type + " " + m->value("code", ""));
          else if (s.seen.empty() || s.seen.back() != type)
            s.seen.push_back(type);
        }
        if (c.closed()) {
          s.closed_ms = ms_since(killed);
          s.close_code = c.wait_closed(0ms);
          rejoin(k);
        }
      } else if (s.back_ms < 0) {  // its new one
        while (auto m = again[k]->recv(1ms)) {
          const std::string type = (*m)["type"];
          if (type != "joined") {
            s.seen.push_back("then " + type + " " + m->value("code", ""));
            continue;
          }
          s.back_ms = ms_since(killed);
          if (s.who != "spectator") {
            EXPECT_EQ((*m)["seat"], tables[s.table].seats[s.who.back() - '0']) << "its seat";
          }
          break;
        }
        if (s.back_ms < 0 && again[k]->closed()) {
          s.seen.push_back("closed " + std::to_string(again[k]->wait_closed(0ms).value_or(0)) +
                           ", reconnects");
          rejoin(k);
        }
      }
    }
  }
  ASSERT_TRUE(all_back()) << "every client whose game was lost is back in it within 25 s";
  EXPECT_TRUE(proxy.wait_up(2, 5s)) << "the proxy's health checks take the dead node out";
  for (std::size_t k = 0; k < seats.size(); ++k)
    if (again[k] && seats[k].who == "spectator") watchers[seats[k].table] = std::move(again[k]);
  again.clear();
  // Every game that lost something is as its players last saw it (plus perhaps the one action
  // on its way), and the store has exactly its acknowledged actions.
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (!hit[i]) continue;
    resume_and_check(port, tables[i]);
    if (HasFatalFailure()) return;
  }

  // The dead node's rooms now run on the others.
  double owned_after = 0;
  for (const auto& [id, n] : nodes)
    if (id != victim) owned_after += metric(n.port, "bc_cluster_rooms_owned");
  EXPECT_EQ(owned_after, static_cast<double>(tables.size()));

  // What the clients saw, for docs/CLUSTER.md.
  std::vector<double> dead_closed, dead_back, moved_closed, moved_back;
  int untouched = 0;
  for (const auto& s : seats) {
    std::string seen;
    for (const auto& m : s.seen) seen += (seen.empty() ? "" : ", ") + m;
    if (!s.lost_game) {
      ++untouched;
      EXPECT_LT(s.closed_ms, 0) << "a game on a live node goes on undisturbed";
      continue;
    }
    const bool on_dead = s.node == victim;
    (on_dead ? dead_closed : moved_closed).push_back(s.closed_ms);
    (on_dead ? dead_back : moved_back).push_back(s.back_ms);
    std::printf(
        "  game %d %-9s on %s, room on %s: closed after %5.0f ms (code %d), back after "
        "%5.0f ms; saw: %s\n",
        s.table, s.who.c_str(), s.node.c_str(), owner[s.table].c_str(), s.closed_ms,
        s.close_code.value_or(0), s.back_ms, seen.empty() ? "nothing" : seen.c_str());
    if (!on_dead) {
      EXPECT_NE(std::find(s.seen.begin(), s.seen.end(), "notice room_moving"), s.seen.end())
          << "a relayed connection is told its room moves";
      EXPECT_EQ(s.close_code.value_or(0), 1012);
    }
  }
  std::printf("kill -9 of node %s (lease 5000 ms; HAProxy checks every 500 ms, 2 failures):\n",
              victim.c_str());
  std::printf("  connections on the dead node: closed %s; back in their game %s\n",
              summary(dead_closed).c_str(), summary(dead_back).c_str());
  std::printf("  connections on live nodes to its rooms: closed %s; back %s\n",
              summary(moved_closed).c_str(), summary(moved_back).c_str());
  std::printf("  connections untouched: %d; handshakes the proxy answered 502 (retried): %d\n",
              untouched, bad_gateway);
  for (double b : dead_back) EXPECT_LT(b, 12000);
  for (double b : moved_back) EXPECT_LT(b, 14000);

  // Every game is played to its end: on the nodes left, with the same room list everywhere.
  const auto p0 = Clock::now();
  int actions = 0;
  for (int r = 0; r < 150; ++r) {
    std::vector<Table*> live;
    for (auto& t : tables)
      if (t.last["status"] != "finished") live.push_back(&t);
    if (live.empty()) break;
    play_round(live);
    actions += static_cast<int>(live.size());
    if (HasFatalFailure()) return;
  }
  for (auto& t : tables) {
    if (t.last["status"] == "finished") continue;
    t.clients[0]->send({{"type", "resign"}});
    t.last = t.clients[1]->expect("state");
    while (t.last["status"] != "finished") t.last = t.clients[1]->expect("state");
  }
  std::printf("then %d actions to the games' ends through the proxy: %.1f ms each\n", actions,
              ms_since(p0) / std::max(actions, 1));
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Table& t = tables[i];
    SCOPED_TRACE("game " + std::to_string(i) + " (" + t.variant + ")");
    EXPECT_EQ(t.last["status"], "finished");
    auto rec = json::parse(http_get(port, "/api/games/" + t.room).body);
    EXPECT_EQ(rec["actions"].size(), t.acked.size()) << "the store has every acknowledged action";
    json last;  // and the spectator saw the end
    while (auto m = watchers[i]->recv(last.is_null() ? 2s : 300ms))
      if ((*m)["type"] == "state") last = *m;
    EXPECT_EQ(last.value("version", -1), t.last["version"]);
    EXPECT_EQ(last["board"], t.last["board"]);
  }
  const std::string log = proxy.log();
  EXPECT_NE(log.find("is DOWN"), std::string::npos) << log;
  for (auto& [id, n] : nodes)
    if (id != victim) stop_cleanly({&n});
}

}  // namespace
}  // namespace bc::test

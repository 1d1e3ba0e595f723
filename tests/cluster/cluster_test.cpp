// Real `bombcheckers serve --cluster` nodes on one private PostgreSQL (tests/support/postgres.hpp)
// and one private Redis (tests/support/redis.hpp): a game whose players and spectators are on
// different nodes (the relay), the owner killed with SIGKILL mid-game (the clients take the room
// to another node with their tokens, nothing acknowledged lost, the takeover time printed), a
// SIGTERM handover, and the cluster-wide room list. Only 127.0.0.1; every wait is bounded.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "nodes.hpp"

namespace bc::test {
namespace {

using namespace std::chrono_literals;

TEST(ClusterNodes, PlayersAndSpectatorsOnThreeNodesSeeTheSameGame) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a"), b = node(dir, url, redis, "b"),
       c = node(dir, url, redis, "c");
  std::mt19937_64 rng(11);
  Table t;
  t.variant = "bomb";
  // Ann creates on a (which owns the room), Bob joins on b: relayed to a.
  t.clients[0] = std::make_unique<WsClient>(a.port);
  t.clients[0]->expect("welcome");
  t.clients[0]->send(
      {{"type", "create"}, {"variant", "bomb"}, {"seat", "random"}, {"name", "Ann"}});
  json j = t.clients[0]->expect("joined");
  t.room = j["room"];
  t.tokens[0] = j["token"];
  t.seats[0] = j["seat"];
  t.clients[0]->expect("state");
  const auto t0 = Clock::now();
  json jb = join(t.clients[1], b.port, t.room, {{"seat", "any"}, {"name", "Bob"}});
  std::printf("a relayed join (node b to the owner a): %.1f ms\n", ms_since(t0));
  t.tokens[1] = jb["token"];
  t.seats[1] = jb["seat"];
  t.last = t.clients[1]->expect("state");
  t.clients[0]->expect("state");
  // Spectators on c: one with full states, one with compact ones (deltas, computed on the owner).
  std::unique_ptr<WsClient> watcher, compact;
  join(watcher, c.port, t.room);
  join(compact, c.port, t.room, json::object(), "/ws?compact=1");
  watcher->drain(300ms);
  compact->drain(300ms);
  // c reads the record of a game in play on a: from the store, never from a stale cache.
  EXPECT_TRUE(json::parse(http_get(c.port, "/api/games/" + t.room).body)["actions"].empty());
  const auto p0 = Clock::now();
  const int moves = 30;
  for (int i = 0; i < moves && t.last["status"] != "finished"; ++i) {
    play(t, rng);  // both players see the same state after every action
    if (HasFatalFailure()) return;
  }
  std::printf("%d actions between nodes a and b: %.1f ms each on average\n", moves,
              ms_since(p0) / moves);
  json last_full = json::object(), last_delta = json::object();
  for (;;) {
    auto m = watcher->recv(1s);
    if (!m) break;
    if ((*m)["type"] == "state") last_full = *m;
    if (last_full.value("version", -1) == t.last["version"]) break;
  }
  int deltas = 0;
  for (;;) {
    auto m = compact->recv(1s);
    if (!m) break;
    if ((*m)["type"] == "delta") {
      ++deltas;
      last_delta = *m;
    }
    if (last_delta.contains("set") && last_delta["set"].value("version", -1) == t.last["version"])
      break;
  }
  EXPECT_EQ(last_full["version"], t.last["version"]);
  EXPECT_EQ(last_full["board"], t.last["board"]) << "the spectator on c sees the players' board";
  EXPECT_GT(deltas, 0) << "compact states go through the relay as deltas";
  EXPECT_EQ(last_delta["set"]["version"], t.last["version"]);
  // The room list is the cluster's: every node lists the room a runs.
  EXPECT_TRUE(listed(a.port, t.room));
  EXPECT_TRUE(listed(b.port, t.room));
  EXPECT_TRUE(listed(c.port, t.room));
  auto health = http_get(c.port, "/healthz");
  for (int i = 0; i < 40 && health.body.find("\"nodes\":3") == std::string::npos; ++i) {
    std::this_thread::sleep_for(100ms);  // c counts the nodes at its first renewal, after 1.5 s
    health = http_get(c.port, "/healthz");
  }
  EXPECT_EQ(health.status, 200);
  EXPECT_NE(health.body.find("\"node\":\"c\""), std::string::npos) << health.body;
  EXPECT_NE(health.body.find("\"nodes\":3"), std::string::npos) << health.body;
  auto metrics = http_get(a.port, "/metrics");
  EXPECT_NE(metrics.body.find("bc_cluster_relayed_messages_total"), std::string::npos);
  // The game record, from the shared store, on a node that does not run the room.
  auto rec = json::parse(http_get(c.port, "/api/games/" + t.room).body);
  EXPECT_EQ(rec["actions"].size(), t.acked.size());
  // Bob leaves on b: a hears it (his seat shows him gone).
  t.clients[1].reset();
  bool gone = false;
  for (int i = 0; i < 20 && !gone; ++i) {
    auto m = t.clients[0]->recv(500ms);
    if (m && (*m)["type"] == "presence") gone = true;
    if (m && (*m)["type"] == "state" &&
        !(*m)["players"][t.seats[1].c_str()].value("connected", true))
      gone = true;
  }
  EXPECT_TRUE(gone) << "a relayed disconnect reaches the owner";
  stop_cleanly({&a, &b, &c});
}

TEST(ClusterNodes, TheOwnerKilledMidGameItsRoomsGoOnOnAnotherNodeWithNothingLost) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a"), b = node(dir, url, redis, "b");
  std::mt19937_64 rng(5);
  Table t;
  t.variant = "bomb";
  t.create_extra = {{"clock", {{"base", 300}, {"increment", 3}}}};
  // Ann on a, the owner; Bob and a spectator on b, relayed to a.
  open_table(a.port, t, nullptr, b.port);
  if (HasFatalFailure()) return;
  std::unique_ptr<WsClient> watcher;
  join(watcher, b.port, t.room);
  for (int i = 0; i < 8; ++i) {
    std::this_thread::sleep_for(50ms);
    play(t, rng);
    if (HasFatalFailure()) return;
  }
  const json left = t.last["clock"]["left"];
  const std::string running = t.last["clock"]["running"];
  // One more action sent and not waited for: the kill may keep it (whole) or lose it (whole).
  json action = t.last["legal"][rng() % t.last["legal"].size()];
  t.clients[mover(t)]->send({{"type", "act"}, {"version", t.last["version"]}, {"action", action}});
  t.pending = action;
  // BC_KILL_LATE=1: the kill after the action's commit (kept whole) rather than before it.
  if (std::getenv("BC_KILL_LATE")) std::this_thread::sleep_for(200ms);
  const auto killed = Clock::now();
  a.proc->signal(SIGKILL);
  EXPECT_EQ(a.proc->wait(10s), 128 + SIGKILL);
  t.clients[0].reset();
  // b notices a's heartbeat is gone and tells its relayed spectator to reconnect (1012).
  json notice;
  for (;;) {
    auto m = watcher->recv(10s);
    ASSERT_TRUE(m) << "the relayed spectator is told within the lease's time";
    if ((*m)["type"] == "notice") {
      notice = *m;
      break;
    }
  }
  EXPECT_EQ(notice["code"], "room_moving");
  EXPECT_EQ(watcher->wait_closed(5s), 1012);
  const double told = ms_since(killed);
  bool bob_told = false;  // the relayed player too (after what was on its way)
  while (auto m = t.clients[1]->recv(2s)) {
    if ((*m)["type"] == "notice" && (*m)["code"] == "room_moving") bob_told = true;
  }
  EXPECT_TRUE(bob_told);
  EXPECT_EQ(t.clients[1]->wait_closed(2s), 1012);
  t.clients[1].reset();
  // A client reconnects to b at once (as the web client does) and waits for the takeover.
  std::unique_ptr<WsClient> back;
  json j = join(back, b.port, t.room, json::object(), "/ws", 10s);
  const double takeover = ms_since(killed);
  std::printf(
      "kill -9 of the owner: relayed spectator told after %.0f ms; room running on the "
      "other node %.0f ms after the kill (lease 5000 ms)\n",
      told, takeover);
  EXPECT_LT(takeover, 7000);
  // The players come back on b with their tokens: every acknowledged action is there.
  resume_and_check(b.port, t);
  if (HasFatalFailure()) return;
  const json& c = t.last["clock"];
  if (c.is_object() && c["running"] == running && t.acked.size() == 8) {
    // The outage (about the lease's time) is charged to no one.
    EXPECT_GE(c["left"][running].get<std::int64_t>(), left[running].get<std::int64_t>() - 1500);
    std::printf(
        "the unacknowledged action was lost whole; the side to move lost %lld ms over the "
        "outage\n",
        static_cast<long long>(left[running].get<std::int64_t>() -
                               c["left"][running].get<std::int64_t>()));
  } else {
    std::printf(
        "the unacknowledged action was kept whole (the clock check needs the other case)\n");
  }
  // And the game goes on there (paced under each connection's 20 messages a second), and ends.
  for (int i = 0; i < 40 && t.last["status"] != "finished"; ++i) {
    std::this_thread::sleep_for(30ms);
    play(t, rng);
    if (HasFatalFailure()) return;
  }
  if (t.last["status"] != "finished") {
    t.clients[0]->send({{"type", "resign"}});
    json s0 = t.clients[1]->expect("state");
    while (s0["status"] != "finished") s0 = t.clients[1]->expect("state");
    t.last = s0;
  }
  EXPECT_EQ(t.last["status"], "finished");
  auto rec = json::parse(http_get(b.port, "/api/games/" + t.room).body);
  EXPECT_EQ(rec["actions"].size(), t.acked.size());
  stop_cleanly({&b});
}

// docs/PLAYERS.md: a player signed in on one node takes a rated room's seat on another; its
// player (from its node's session cookie) goes with the relayed join, never from the frame.
TEST(ClusterNodes, ASignedInPlayerTakesARatedSeatThroughTheRelay) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a"), b = node(dir, url, redis, "b");
  auto sign_up = [](std::uint16_t port, const std::string& name) {
    HttpClient c(port);
    auto r = c.request("POST", "/api/signup", kWait, {{"Content-Type", "application/json"}},
                       json{{"name", name}, {"password", "password1"}}.dump());
    EXPECT_EQ(r.status, 200) << r.body;
    const std::string cookie = r.header("set-cookie");
    return cookie.substr(0, cookie.find(';'));
  };
  const std::string ann = sign_up(a.port, "Ann");
  const std::string bob = sign_up(b.port, "Bob");  // one store: the name is the cluster's
  WsClient creator(a.port, "/ws", true, "", "", {{"Cookie", ann}});
  creator.expect("welcome");
  creator.send({{"type", "create"},
                {"variant", "bomb"},
                {"rated", true},
                {"clock", {{"base", 300}, {"increment", 3}}},
                {"seat", "fire"}});
  const std::string room = creator.expect("joined")["room"];
  // Without a player, b's client only watches; with one, it plays.
  std::unique_ptr<WsClient> anonymous;
  EXPECT_EQ(join(anonymous, b.port, room, {{"seat", "any"}})["seat"], "spectator");
  WsClient joiner(b.port, "/ws", true, "", "", {{"Cookie", bob}});
  joiner.expect("welcome");
  joiner.send({{"type", "join"}, {"room", room}, {"seat", "any"}, {"name", "x"}});
  EXPECT_EQ(joiner.expect("joined")["seat"], "water");
  json s = joiner.expect("state");
  EXPECT_EQ(s["players"]["water"]["account"], "Bob");
  EXPECT_EQ(s["players"]["water"]["rating"], 1500);
  EXPECT_EQ(s["players"]["fire"]["account"], "Ann");
  anonymous.reset();
  stop_cleanly({&a, &b});
}

TEST(ClusterNodes, ARoomsLeaseIsTakenBeforeItsCreatorHearsJoinedSoNoJoinElsewhereCanTakeIt) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a", {"--max-creates-per-address", "0"}),
       b = node(dir, url, redis, "b");
  server::Redis probe("127.0.0.1", redis.port(), 500ms);
  for (int i = 0; i < 20; ++i) {
    auto ann = std::make_unique<WsClient>(a.port);
    ann->expect("welcome");
    ann->send({{"type", "create"}, {"variant", "kaboom"}, {"seat", "random"}, {"name", "Ann"}});
    const std::string room = ann->expect("joined")["room"];
    auto owner = probe.command({"GET", "bc:owner:" + room});
    ASSERT_TRUE(owner);
    EXPECT_EQ(owner->str, "a") << "the lease is a's when its creator hears of the room";
    // A join on b at once is relayed to a: the room never moves.
    std::unique_ptr<WsClient> bob;
    join(bob, b.port, room, {{"seat", "any"}, {"name", "Bob"}});
    for (const auto& m : ann->drain(100ms)) EXPECT_NE(m["type"], "notice") << m.dump();
    EXPECT_FALSE(ann->closed());
  }
  stop_cleanly({&a, &b});
}

TEST(ClusterNodes, SigtermHandsTheRoomsOverAtOnce) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a"), b = node(dir, url, redis, "b");
  std::mt19937_64 rng(9);
  Table t;
  t.variant = "classic";
  open_table(a.port, t);
  if (HasFatalFailure()) return;
  for (int i = 0; i < 6; ++i) {
    play(t, rng);
    if (HasFatalFailure()) return;
  }
  const auto stopped = Clock::now();
  a.proc->signal(SIGTERM);
  // The players are told (server_restarting, 1001) and reconnect at once, to b.
  EXPECT_EQ(t.clients[0]->wait_closed(5s), 1001);
  std::unique_ptr<WsClient> back;
  join(back, b.port, t.room, json::object(), "/ws", 10s);
  const double took = ms_since(stopped);
  EXPECT_EQ(a.proc->wait(10s), 0) << a.proc->stderr_text();
  for (auto& cl : t.clients) cl.reset();
  std::printf("SIGTERM of the owner: room running on the other node %.0f ms after the signal\n",
              took);
  EXPECT_LT(took, 3000) << "a clean stop releases its leases: no waiting for them to expire";
  resume_and_check(b.port, t);
  stop_cleanly({&b});
}

// Waits for a room_moving notice on `c`; the time it took, or -1 if none came within `limit`.
double told_to_move(WsClient& c, std::chrono::milliseconds limit) {
  const auto t0 = Clock::now();
  while (Clock::now() - t0 < limit) {
    auto m = c.recv(limit);
    if (!m) break;
    if ((*m)["type"] == "notice" && (*m)["code"] == "room_moving") return ms_since(t0);
  }
  return -1;
}

TEST(ClusterNodes, ARelayedJoinToANodeJustKilledIsToldToReconnectAtOnceNotAfterTheLease) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a"), b = node(dir, url, redis, "b");
  Table t;
  t.variant = "classic";
  open_table(a.port, t);
  if (HasFatalFailure()) return;
  a.proc->signal(SIGKILL);
  EXPECT_EQ(a.proc->wait(10s), 128 + SIGKILL);
  for (auto& cl : t.clients) cl.reset();
  std::this_thread::sleep_for(200ms);  // Redis has seen a's subscription go with its socket
  // a's lease and heartbeat live on for 5 s: b relays the join to a, where nobody listens.
  auto c = std::make_unique<WsClient>(b.port);
  c->expect("welcome");
  c->send({{"type", "join"}, {"room", t.room}});
  const double took = told_to_move(*c, 10s);
  ASSERT_GE(took, 0) << "the join has an answer";
  EXPECT_EQ(c->wait_closed(5s), 1012);
  std::printf("a join relayed to a node just killed: told to reconnect after %.0f ms\n", took);
  EXPECT_LT(took, 2500) << "told when nobody heard the join, not when the 5 s lease ran out";
  // The client comes back and, once the lease is out, plays on b.
  std::unique_ptr<WsClient> back;
  for (int i = 0; i < 20; ++i) {
    back = std::make_unique<WsClient>(b.port);
    back->expect("welcome");
    back->send({{"type", "join"}, {"room", t.room}, {"token", t.tokens[0]}});
    auto m = back->recv(10s);
    if (m && (*m)["type"] == "joined") break;
    back.reset();
    std::this_thread::sleep_for(300ms);
  }
  ASSERT_TRUE(back) << "the room runs on b after the lease";
  stop_cleanly({&b});
}

TEST(ClusterNodes, ANodeStoppedWhileARelayedJoinWaitsForItsAnswerExitsCleanly) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a"), b = node(dir, url, redis, "b");
  Table t;
  t.variant = "classic";
  open_table(a.port, t);
  if (HasFatalFailure()) return;
  // a hangs, still subscribed: the join b relays to it is heard and not answered.
  a.proc->signal(SIGSTOP);
  auto c = std::make_unique<WsClient>(b.port);
  c->expect("welcome");
  c->send({{"type", "join"}, {"room", t.room}});
  EXPECT_FALSE(c->recv(300ms)) << "no answer while a hangs";
  // The waiting session holds itself; its server stopping lets it go (under ASan: no leak).
  b.proc->signal(SIGTERM);
  EXPECT_EQ(c->wait_closed(5s), 1001);
  EXPECT_EQ(b.proc->wait(10s), 0) << b.proc->stderr_text();
  a.proc->signal(SIGCONT);
  for (auto& cl : t.clients) cl.reset();
  stop_cleanly({&a});
}

TEST(ClusterNodes, ARelayedSpectatorIsToldWhenItsRoomsNodeRestartsJustAfterItJoined) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a"), b = node(dir, url, redis, "b");
  Table t;
  t.variant = "classic";
  open_table(a.port, t);
  if (HasFatalFailure()) return;
  // b has seen a's heartbeat (its node count, and a tick of its own), but relays nothing to a.
  bool ticked = false;
  for (int i = 0; i < 40 && !ticked; ++i) {
    const std::string m = http_get(b.port, "/metrics").body;
    ticked = m.find("bc_cluster_nodes 2") != std::string::npos &&
             m.find("bc_cluster_renew_seconds 0\n") == std::string::npos;
    if (!ticked) std::this_thread::sleep_for(100ms);
  }
  ASSERT_TRUE(ticked);
  std::unique_ptr<WsClient> watcher;
  join(watcher, b.port, t.room);
  // a dies and is back within the lease, likely before b's next tick first reads its heartbeat
  // as a node it relays to: b must still notice the new run and let the spectator go.
  a.proc->signal(SIGKILL);
  EXPECT_EQ(a.proc->wait(10s), 128 + SIGKILL);
  a = node(dir, url, redis, "a");
  const double took = told_to_move(*watcher, 10s);
  EXPECT_GE(took, 0) << "the spectator is told, not left waiting for states that never come";
  std::printf("a node restarted just after a spectator's join: told after %.0f ms\n", took);
  for (auto& cl : t.clients) cl.reset();
  watcher.reset();
  stop_cleanly({&a, &b});
}

TEST(ClusterNodes, ADeadNodesRoomsAreTakenOverEvenIfNobodyJoinsThem) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a"), b = node(dir, url, redis, "b");
  std::mt19937_64 rng(21);
  Table t;
  t.variant = "classic";
  t.create_extra = {{"clock", {{"base", 60}, {"increment", 0}}}};
  open_table(a.port, t);
  if (HasFatalFailure()) return;
  for (int i = 0; i < 4; ++i) {
    play(t, rng);
    if (HasFatalFailure()) return;
  }
  ASSERT_TRUE(listed(b.port, t.room));
  const auto killed = Clock::now();
  a.proc->signal(SIGKILL);
  EXPECT_EQ(a.proc->wait(10s), 128 + SIGKILL);
  for (auto& cl : t.clients) cl.reset();
  // Nobody comes back: b takes the room over by itself (its clock runs again there), and lists it.
  bool back = false;
  std::string body;
  while (!back && Clock::now() - killed < 20s) {
    std::this_thread::sleep_for(250ms);
    body = http_get(b.port, "/metrics").body;
    back = body.find("bc_cluster_rooms_owned 1") != std::string::npos;
  }
  ASSERT_TRUE(back) << body;
  std::printf("a dead node's room nobody joined: running again on b %.0f ms after the kill\n",
              ms_since(killed));
  EXPECT_TRUE(listed(b.port, t.room));
  resume_and_check(b.port, t);
  stop_cleanly({&b});
}

TEST(ClusterNodes, ANodeThatLosesRedisStopsServingAndReportsUnhealthyUntilItIsBack) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  auto a = node(dir, url, redis, "a");
  std::mt19937_64 rng(3);
  Table t;
  t.variant = "bomb";
  open_table(a.port, t);
  if (HasFatalFailure()) return;
  for (int i = 0; i < 4; ++i) {
    play(t, rng);
    if (HasFatalFailure()) return;
  }
  const auto lost = Clock::now();
  redis.stop(SIGKILL);
  // Its leases cannot be renewed: before they could run out, the room stops here (so that no
  // second node can ever serve it alongside), and its players are told to reconnect.
  json notice;
  for (;;) {
    auto m = t.clients[0]->recv(8s);
    ASSERT_TRUE(m) << "the players are told within the lease's time";
    if ((*m)["type"] == "notice") {
      notice = *m;
      break;
    }
  }
  EXPECT_EQ(notice["code"], "room_moving");
  const double stopped = ms_since(lost);
  std::printf("Redis gone: the node stopped serving its room after %.0f ms (lease 5000 ms)\n",
              stopped);
  EXPECT_LT(stopped, 5000);
  EXPECT_EQ(t.clients[0]->wait_closed(5s), 1012);
  auto health = http_get(a.port, "/healthz");
  EXPECT_EQ(health.status, 503) << "a proxy's health check takes it out";
  EXPECT_NE(health.body.find("redis_unreachable"), std::string::npos) << health.body;
  std::unique_ptr<WsClient> early = std::make_unique<WsClient>(a.port);
  early->expect("welcome");
  early->send({{"type", "join"}, {"room", t.room}});
  EXPECT_EQ(early->expect("error")["code"], "server_error") << "no rooms taken without Redis";
  EXPECT_EQ(early->wait_closed(5s), 1012) << "so that the client tries again by itself";
  for (auto& cl : t.clients) cl.reset();
  // Redis comes back (empty): the node is healthy again, and the players' joins take the room
  // from the store with every acknowledged action.
  ASSERT_TRUE(redis.restart()) << redis.why();
  const auto until = Clock::now() + 5s;
  while (Clock::now() < until && http_get(a.port, "/healthz").status != 200)
    std::this_thread::sleep_for(100ms);
  EXPECT_EQ(http_get(a.port, "/healthz").status, 200);
  resume_and_check(a.port, t);
  keep_playing(t, rng, 4);
  stop_cleanly({&a});
}

// HAProxy's X-Forwarded-For on a node that trusts it: the owner counts a relayed client by the
// address the proxy named (the relay carries it), not by the proxy's.
TEST(ClusterNodes, RelayedClientsBehindATrustedProxyAreCountedByTheirOwnAddressOnTheOwner) {
  BC_NEED_POSTGRES(pg);
  BC_NEED_REDIS(redis);
  TempDir dir;
  const std::string url = pg->new_database();
  const std::vector<std::string> flags = {"--trusted-proxy", "127.0.0.1",
                                          "--max-spectators-per-address", "1"};
  auto a = node(dir, url, redis, "a", flags), b = node(dir, url, redis, "b", flags);
  WsClient ann(a.port);
  ann.expect("welcome");
  ann.send({{"type", "create"}, {"variant", "bomb"}, {"seat", "fire"}, {"name", "Ann"}});
  const std::string room = ann.expect("joined")["room"];
  // Spectators on b, relayed to the owner a: one per client address.
  auto watch = [&](const std::string& client) {
    auto c = std::make_unique<WsClient>(b.port, "/ws", true, "", "",
                                        Headers{{"X-Forwarded-For", client}});
    c->expect("welcome");
    c->send({{"type", "join"}, {"room", room}, {"seat", "spectator"}});
    return c;
  };
  auto first = watch("203.0.113.1");
  EXPECT_EQ(first->expect("joined")["seat"], "spectator");
  auto second = watch("203.0.113.2");
  EXPECT_EQ(second->expect("joined")["seat"], "spectator");
  auto again = watch("203.0.113.1");
  EXPECT_EQ(again->expect_error(), "too_many_spectators");
  stop_cleanly({&a, &b});
}

TEST(ClusterNodes, TheFlagsAreCheckedAndAnUnreachableRedisStopsTheStart) {
  Process no_store({"serve", "--cluster", "redis://127.0.0.1:6379"});
  EXPECT_EQ(no_store.wait(10s), 2);
  EXPECT_NE(no_store.stderr_text().find("--store"), std::string::npos);
  Process bad({"serve", "--cluster", "http://x", "--store", "postgresql://h/db"});
  EXPECT_EQ(bad.wait(10s), 2);
  Process lone({"serve", "--node-id", "a"});
  EXPECT_EQ(lone.wait(10s), 2);
  BC_NEED_POSTGRES(pg);
  Process down({"serve", "--host", "127.0.0.1", "--port", "0", "--store", pg->new_database(),
                "--cluster", "redis://127.0.0.1:1", "--log-level", "warn"});
  EXPECT_EQ(down.wait(20s), 1);
  EXPECT_NE(down.stderr_text().find("cannot reach Redis"), std::string::npos) << down.stderr_text();
}

TEST(ClusterNodes, ARedisPasswordComesFromTheUrlOrAFileAndIsNeverLogged) {
  BC_NEED_POSTGRES(pg);
  RedisServer redis("pw-from-file");
  if (!redis.ok()) GTEST_SKIP() << redis.why();
  const std::string with_wrong = "redis://:wrong-in-url@127.0.0.1:" + std::to_string(redis.port());
  Process refused({"serve", "--host", "127.0.0.1", "--port", "0", "--store", pg->new_database(),
                   "--cluster", with_wrong, "--log-level", "info"});
  EXPECT_EQ(refused.wait(20s), 1);
  EXPECT_NE(refused.stderr_text().find("refused the login"), std::string::npos)
      << refused.stderr_text();
  EXPECT_EQ(refused.stderr_text().find("wrong-in-url"), std::string::npos) << "the log says ***";
  // The file's password wins over the URL's, and the node starts.
  const auto file =
      std::filesystem::temp_directory_path() / ("bc-redis-pw-" + std::to_string(::getpid()));
  std::ofstream(file) << "pw-from-file\n";
  Process node({"serve", "--host", "127.0.0.1", "--port", "0", "--store", pg->new_database(),
                "--cluster", with_wrong, "--redis-password-file", file.string(), "--log-level",
                "info"});
  EXPECT_NE(node.read_line_starting("listening on", 20s), "") << "the node started";
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace bc::test

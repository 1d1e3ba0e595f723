// The real binary's games for the kill tests (kill_test.cpp, kill_pg_test.cpp): a server started
// and read for its port, tables of two players over real WebSockets, played, and checked after a
// restart against what their players last saw. Only 127.0.0.1; every wait is bounded.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "../support/process.hpp"
#include "server/room/persist.hpp"
#include "server/wire/stored.hpp"
#include "tests/server/test_client.hpp"

namespace bc::test {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() /
           ("bc-kill-test-" + std::to_string(getpid()) + "-" + std::to_string(++n));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

inline const std::string kListening = "listening on http://127.0.0.1:";

struct Server {
  std::unique_ptr<Process> proc;
  std::uint16_t port = 0;
};

inline Server start(const fs::path& data, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"serve",
                                   "--host",
                                   "127.0.0.1",
                                   "--port",
                                   "0",
                                   "--data-dir",
                                   data.string(),
                                   "--log-level",
                                   "warn",
                                   "--threads",
                                   "2",
                                   "--web-root",
                                   fs::temp_directory_path().string()};
  for (auto& e : extra) args.push_back(e);
  Server s;
  s.proc = std::make_unique<Process>(args);
  const std::string line = s.proc->read_line_starting(kListening, std::chrono::seconds(20));
  if (line.empty()) throw std::runtime_error("no 'listening on' line: " + s.proc->stderr_text());
  s.port = static_cast<std::uint16_t>(std::stoi(line.substr(kListening.size())));
  return s;
}

// One room and its two players, with what they last saw.
struct Table {
  std::string variant;
  json create_extra = json::object();
  std::string room;
  std::array<std::string, 2> tokens;  // by client: 0 the creator, 1 the joiner
  std::array<std::string, 2> seats;   // the side each client holds
  std::array<std::unique_ptr<WsClient>, 2> clients;
  json last;                    // the last state both players received
  std::vector<json> acked;      // the actions of the current game whose state arrived
  std::optional<json> pending;  // an act sent whose state was not (yet) seen
  int game = 1;
};

inline json wait_state(WsClient& c, std::int64_t version) {
  for (;;) {
    json s = c.expect("state", std::chrono::seconds(10));
    if (s["version"] == version) return s;
  }
}

// `nodes`: where each player's connection landed (welcome's `node`, under serve --cluster);
// `join_port`: the joiner's server, if not the creator's (another node of a cluster).
inline void open_table(std::uint16_t port, Table& t, std::array<std::string, 2>* nodes = nullptr,
                       std::uint16_t join_port = 0) {
  t.clients[0] = std::make_unique<WsClient>(port);
  json w0 = t.clients[0]->expect("welcome");
  json create = {{"type", "create"}, {"variant", t.variant}, {"seat", "random"}, {"name", "Ann"}};
  create.update(t.create_extra);
  t.clients[0]->send(create);
  json j = t.clients[0]->expect("joined");
  t.room = j["room"];
  t.tokens[0] = j["token"];
  t.seats[0] = j["seat"];
  t.clients[0]->expect("state");
  t.clients[1] = std::make_unique<WsClient>(join_port ? join_port : port);
  json w1 = t.clients[1]->expect("welcome");
  if (nodes) *nodes = {w0.value("node", ""), w1.value("node", "")};
  t.clients[1]->send({{"type", "join"}, {"room", t.room}, {"seat", "any"}, {"name", "Bob"}});
  json j2 = t.clients[1]->expect("joined");
  t.tokens[1] = j2["token"];
  t.seats[1] = j2["seat"];
  t.last = t.clients[1]->expect("state");
  t.clients[0]->expect("state");
}

// The client whose side is to move.
inline int mover(const Table& t) {
  return t.last["turn"] == t.seats[0] ? 0 : 1;
}

// Plays one action and waits for both players to see it.
inline void play(Table& t, std::mt19937_64& rng) {
  const auto& legal = t.last["legal"];
  ASSERT_FALSE(legal.empty());
  json action = legal[rng() % legal.size()];
  const std::int64_t v = t.last["version"];
  t.clients[mover(t)]->send({{"type", "act"}, {"version", v}, {"action", action}});
  json s0 = wait_state(*t.clients[0], v + 1);
  json s1 = wait_state(*t.clients[1], v + 1);
  EXPECT_EQ(s0, s1);
  t.last = s1;
  t.acked.push_back(action);
}

// How the unacknowledged actions came out of the kills: kept whole, or not there at all.
inline int g_pending_kept = 0;
inline int g_pending_lost = 0;

// After a restart: both players come back with their tokens and must see the room as they left it.
inline void resume_and_check(std::uint16_t port, Table& t) {
  SCOPED_TRACE("room " + t.room + " (" + t.variant + ")");
  for (int i = 0; i < 2; ++i) {
    t.clients[i] = std::make_unique<WsClient>(port);
    t.clients[i]->expect("welcome");
    t.clients[i]->send({{"type", "join"}, {"room", t.room}, {"token", t.tokens[i]}});
    json j = t.clients[i]->expect("joined");
    EXPECT_EQ(j["seat"], t.seats[i]) << "the token takes back the same seat";
  }
  json s = t.clients[1]->expect("state");
  for (;;) {  // the state that shows both players back
    auto more = t.clients[1]->recv(std::chrono::milliseconds(300));
    if (!more) break;
    if ((*more)["type"] == "state") s = *more;
  }
  t.clients[0]->drain(std::chrono::milliseconds(50));
  const std::int64_t acked = t.last["version"];
  const std::int64_t v = s["version"];
  EXPECT_EQ(s["game"], t.game);
  // The record on the server: exactly the acknowledged actions, plus perhaps the pending one.
  auto rec = json::parse(http_get(port, "/api/games/" + t.room).body);
  std::vector<json> actions;
  for (const auto& a : rec["actions"]) actions.push_back(a["action"]);
  if (t.pending && v == acked + 1) {
    auto expected = t.acked;
    expected.push_back(*t.pending);
    EXPECT_EQ(actions, expected) << "the one unacknowledged action, whole";
    ++g_pending_kept;
    // And its state is what a replay of the record gives, independently of the server.
    auto parsed = server::parse_record_json(rec.dump());
    ASSERT_TRUE(std::holds_alternative<server::GameRecord>(parsed));
    auto r = server::restore_room(t.room, std::get<server::GameRecord>(parsed), server::Limits{});
    ASSERT_TRUE(r.room);
    json mine = json::parse(r.room->state_text());
    EXPECT_EQ(s["board"], mine["board"]);
    EXPECT_EQ(s["legal"], mine["legal"]);
    t.acked = expected;
  } else {
    if (t.pending) ++g_pending_lost;
    EXPECT_EQ(v, acked) << "an acknowledged action is never lost, and nothing else appears";
    EXPECT_EQ(actions, t.acked);
    EXPECT_EQ(s["board"], t.last["board"]);
    EXPECT_EQ(s["legal"], t.last["legal"]);
    EXPECT_EQ(s["turn"], t.last["turn"]);
    EXPECT_EQ(s["mid_turn"], t.last["mid_turn"]);
    EXPECT_EQ(s["last"], t.last["last"]);
    EXPECT_EQ(s["result"], t.last["result"]);
  }
  EXPECT_EQ(s["players"][t.seats[0].c_str()]["name"], "Ann");
  EXPECT_EQ(s["players"][t.seats[1].c_str()]["name"], "Bob");
  t.last = s;
  t.pending.reset();
}

// Keeps a table going: a finished game becomes a rematch (sides swap).
inline void keep_playing(Table& t, std::mt19937_64& rng, int actions) {
  for (int i = 0; i < actions; ++i) {
    if (t.last["status"] == "finished") {
      for (int c = 0; c < 2; ++c) t.clients[c]->send({{"type", "rematch"}});
      for (int c = 0; c < 2; ++c) {
        json j = t.clients[c]->expect("joined");
        t.seats[c] = j["seat"];
      }
      ++t.game;
      t.last = wait_state(*t.clients[0], 0);
      for (;;) {
        json s = t.clients[1]->expect("state");
        if (s["game"] == t.game) break;
      }
      t.acked.clear();
      continue;
    }
    play(t, rng);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace bc::test

// The real binary with a data directory: SIGKILL at many points of several games, restart on the
// same directory, resume with the tokens, and compare every room with what its players last saw.
// Also damaged databases and data directories that cannot be used. Only 127.0.0.1; every wait is
// bounded.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "tables.hpp"

namespace bc::test {
namespace {

TEST(KillNine, EveryRoomComesBackAsItsPlayersLastSawIt) {
  TempDir dir;
  std::mt19937_64 rng(42);
  std::vector<Table> tables(4);
  tables[0].variant = "bomb";
  tables[1].variant = "classic";
  tables[2].variant = "kaboom";
  tables[2].create_extra = {{"options", {{"width", 5}, {"height", 4}, {"connect", 3}}}};
  tables[3].variant = "triple_king";
  tables[3].create_extra = {{"position",
                             {{"pieces",
                               {{{"at", {1, 1}}, {"side", "black"}, {"rank", "king"}},
                                {{"at", {2, 2}}, {"side", "white"}},
                                {{"at", {4, 4}}, {"side", "white"}},
                                {{"at", {6, 6}}, {"side", "white"}},
                                {{"at", {7, 1}}, {"side", "white"}}}},
                              {"turn", "black"}}}};
  auto srv = start(dir.path);
  for (auto& t : tables) {
    open_table(srv.port, t);
    if (HasFatalFailure()) return;
  }
  // Kill points, one per round: after acknowledged actions; right after an act is sent; after
  // one player saw the new state but perhaps not the other; with a rematch under way.
  for (int round = 0; round < 8; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    for (auto& t : tables) {
      keep_playing(t, rng, 2 + static_cast<int>(rng() % 6));
      if (HasFatalFailure()) return;
    }
    const int kind = round % 4;
    for (auto& t : tables) {
      if (kind == 0 || t.last["status"] == "finished") continue;
      const auto& legal = t.last["legal"];
      json action = legal[rng() % legal.size()];
      t.clients[mover(t)]->send(
          {{"type", "act"}, {"version", t.last["version"]}, {"action", action}});
      t.pending = action;
      if (kind == 2) {
        // One player has the new state (so the action is durable); the other may not.
        json s = wait_state(*t.clients[0], t.last["version"].get<std::int64_t>() + 1);
        t.last = s;
        t.acked.push_back(action);
        t.pending.reset();
      }
      if (kind == 3) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3000));
    }
    srv.proc->signal(SIGKILL);
    EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 128 + SIGKILL);
    for (auto& t : tables) {
      for (auto& c : t.clients) c.reset();
    }
    srv = start(dir.path);
    for (auto& t : tables) {
      resume_and_check(srv.port, t);
      if (HasFatalFailure()) return;
    }
  }
  std::printf("unacknowledged actions at the kills: %d kept whole, %d not stored\n", g_pending_kept,
              g_pending_lost);
  EXPECT_GT(g_pending_kept + g_pending_lost, 8);
  // A clean stop keeps everything too.
  srv.proc->signal(SIGTERM);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0) << srv.proc->stderr_text();
  for (auto& t : tables) {
    for (auto& c : t.clients) c.reset();
  }
  srv = start(dir.path);
  for (auto& t : tables) resume_and_check(srv.port, t);
  // Finished games of a rematch series stay readable, in JSON and as PDN.
  for (auto& t : tables) {
    for (int g = 1; g <= t.game; ++g) {
      auto r = http_get(srv.port, "/api/games/" + t.room + "?game=" + std::to_string(g));
      EXPECT_EQ(r.status, 200) << r.body;
      EXPECT_EQ(json::parse(r.body)["game"], g);
      auto p = http_get(srv.port, "/api/games/" + t.room + ".pdn?game=" + std::to_string(g));
      EXPECT_EQ(p.status, 200);
      EXPECT_NE(p.body.find(t.variant == "kaboom" ? "Kaboom record" : "[Event"), std::string::npos)
          << p.body;
      auto pos =
          http_get(srv.port, "/api/games/" + t.room + "/positions?game=" + std::to_string(g));
      ASSERT_EQ(pos.status, 200) << pos.body;
      json positions = json::parse(pos.body);
      EXPECT_EQ(positions["game"], g);
      const auto& last = positions["positions"].back();
      EXPECT_EQ(last["version"], json::parse(r.body)["version"]);
    }
  }
  srv.proc->signal(SIGTERM);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0);
  // The replay command agrees: every game of every room replays.
  for (auto& t : tables) {
    Process check({"replay", t.room, "--data-dir", dir.path.string()});
    EXPECT_EQ(check.wait(std::chrono::seconds(30)), 0) << check.all_stdout() << check.stderr_text();
  }
}

TEST(KillNine, AOneScreenRoomComesBackWithBothSeatsForItsOneToken) {
  TempDir dir;
  std::mt19937_64 rng(5);
  auto srv = start(dir.path);
  auto c = std::make_unique<WsClient>(srv.port);
  c->expect("welcome");
  c->send({{"type", "create"},
           {"variant", "classic"},
           {"seat", "both"},
           {"name", "Ann"},
           {"names", {{"black", "Ann"}, {"white", "Bob"}}}});
  json j = c->expect("joined");
  ASSERT_EQ(j["one_screen"], true) << j.dump();
  const std::string room = j["room"];
  const std::string token = j["token"];
  json last = c->expect("state");
  ASSERT_EQ(last["status"], "playing");
  auto play = [&](int n) {
    for (int i = 0; i < n && last["status"] == "playing"; ++i) {
      const auto& legal = last["legal"];
      const std::int64_t v = last["version"];
      c->send({{"type", "act"}, {"version", v}, {"action", legal[rng() % legal.size()]}});
      last = wait_state(*c, v + 1);
    }
  };
  play(9);  // both sides, from the one connection
  const json before = last;
  srv.proc->signal(SIGKILL);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 128 + SIGKILL);
  c.reset();
  srv = start(dir.path);

  // A stranger can only watch; the token brings back both seats.
  WsClient stranger(srv.port);
  stranger.expect("welcome");
  stranger.send({{"type", "join"}, {"room", room}, {"seat", "any"}, {"name", "Eve"}});
  EXPECT_EQ(stranger.expect("joined")["seat"], "spectator");
  c = std::make_unique<WsClient>(srv.port);
  c->expect("welcome");
  c->send({{"type", "join"}, {"room", room}, {"seat", "any"}, {"token", token}});
  j = c->expect("joined");
  EXPECT_EQ(j["one_screen"], true);
  last = c->expect("state");
  EXPECT_EQ(last["version"], before["version"]);
  EXPECT_EQ(last["board"], before["board"]);
  EXPECT_EQ(last["one_screen"], true);
  EXPECT_EQ(last["players"]["black"]["name"], "Ann");
  EXPECT_EQ(last["players"]["white"]["name"], "Bob");
  EXPECT_EQ(last["players"]["black"]["connected"], true);
  EXPECT_EQ(last["players"]["white"]["connected"], true);
  // Both sides still from the one connection (a whole game would pass the per-connection message
  // rate: the room tests play those), then the side to move resigns.
  play(6);
  EXPECT_EQ(last["version"], before["version"].get<std::int64_t>() + 6);
  const std::string resigning = last["turn"];
  c->send({{"type", "resign"}});
  last = c->expect("state");
  EXPECT_EQ(last["status"], "finished");
  EXPECT_NE(last["result"]["winner"], resigning);
  auto rec = json::parse(http_get(srv.port, "/api/games/" + room).body);
  EXPECT_EQ(rec["one_screen"], true);
  EXPECT_NE(http_get(srv.port, "/api/games/" + room + ".pdn").body.find("[Mode \"one screen\"]"),
            std::string::npos);
  auto rooms = json::parse(http_get(srv.port, "/api/rooms").body);
  ASSERT_EQ(rooms.size(), 1u);
  EXPECT_EQ(rooms[0]["one_screen"], true);
  srv.proc->signal(SIGTERM);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0);
}

// ---------------------------------------------------------------------------------------------

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A data directory with a few games in it, cleanly stopped.
void make_games(const fs::path& dir) {
  auto srv = start(dir);
  std::mt19937_64 rng(1);
  for (const char* v : {"bomb", "classic"}) {
    Table t;
    t.variant = v;
    open_table(srv.port, t);
    keep_playing(t, rng, 10);
  }
  srv.proc->signal(SIGTERM);
  ASSERT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0);
}

void expect_refused(const fs::path& dir, const std::string& what, const std::string& fragment) {
  const fs::path db = dir / "bombcheckers.db";
  const std::string before = fs::exists(db) ? read_file(db) : std::string();
  Process p({"serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", dir.string(),
             "--log-level", "warn"});
  const int code = p.wait(std::chrono::seconds(20));
  EXPECT_NE(code, 0) << what;
  EXPECT_NE(code, -1) << what << ": it did not exit";
  EXPECT_NE(p.stderr_text().find(fragment), std::string::npos) << what << ": " << p.stderr_text();
  EXPECT_TRUE(p.all_stdout().find("listening") == std::string::npos) << what;
  if (!before.empty()) {
    EXPECT_EQ(read_file(db), before) << what << ": the file is left alone";
  }
}

TEST(KillNine, AClockedGameComesBackWithTheTimesOfItsLastActionAndTheOutageChargedToNoOne) {
  using namespace std::chrono_literals;
  TempDir dir;
  std::mt19937_64 rng(7);
  Table t;
  t.variant = "bomb";
  t.create_extra = {{"clock", {{"base", 300}, {"increment", 3}}}};
  auto srv = start(dir.path);
  open_table(srv.port, t);
  if (HasFatalFailure()) return;
  // Six actions, each after 150 ms of thought: the clocks run once both first turns are made.
  for (int i = 0; i < 6; ++i) {
    std::this_thread::sleep_for(150ms);
    play(t, rng);
    if (HasFatalFailure()) return;
  }
  ASSERT_TRUE(t.last["clock"].is_object()) << t.last.dump();
  const json left = t.last["clock"]["left"];
  const std::string running = t.last["clock"]["running"];
  const std::string waiting = running == "fire" ? "water" : "fire";
  EXPECT_LT(
      left[t.seats[0].c_str()].get<std::int64_t>() + left[t.seats[1].c_str()].get<std::int64_t>(),
      600'000 + 6 * 3'000)
      << "some time was charged before the kill";
  // The side to move thinks 1.5 s, the server is killed, and stays down for 2 s.
  std::this_thread::sleep_for(1500ms);
  srv.proc->signal(SIGKILL);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 128 + SIGKILL);
  for (auto& c : t.clients) c.reset();
  std::this_thread::sleep_for(2s);
  const auto restarted = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  const auto restart_steady = std::chrono::steady_clock::now();
  srv = start(dir.path);
  resume_and_check(srv.port, t);
  const auto since_restart = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - restart_steady)
                                 .count();
  const json& c = t.last["clock"];
  ASSERT_TRUE(c.is_object()) << t.last.dump();
  EXPECT_EQ(c["running"], running) << "the same side is to move";
  EXPECT_EQ(c["left"][waiting], left[waiting]) << "the side not to move keeps its time exactly";
  const std::int64_t now_left = c["left"][running];
  EXPECT_LE(now_left, left[running].get<std::int64_t>());
  // Neither the 1.5 s thought before the kill nor the 2 s outage were charged: at most the time
  // since the restart was.
  EXPECT_GE(now_left, left[running].get<std::int64_t>() - since_restart);
  EXPECT_GE(c["at"].get<std::int64_t>(), restarted);
  srv.proc->signal(SIGTERM);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0);
}

TEST(DamagedStore, CorruptAndTruncatedDatabasesStopTheServerWithAClearMessage) {
  TempDir good;
  make_games(good.path);
  const std::string original = read_file(good.path / "bombcheckers.db");
  ASSERT_GT(original.size(), 8192u);
  {
    TempDir d;  // a damaged header
    std::string bytes = original;
    for (std::size_t i = 0; i < 100; ++i) bytes[i] = static_cast<char>(0xA5 ^ i);
    std::ofstream(d.path / "bombcheckers.db", std::ios::binary) << bytes;
    expect_refused(d.path, "corrupt header", "bombcheckers.db");
  }
  {
    TempDir d;  // damaged pages in the middle
    std::string bytes = original;
    for (std::size_t i = 4096; i < bytes.size(); i += 7) bytes[i] = static_cast<char>(i * 131);
    std::ofstream(d.path / "bombcheckers.db", std::ios::binary) << bytes;
    expect_refused(d.path, "corrupt pages", "bombcheckers.db");
  }
  {
    TempDir d;  // truncated
    std::ofstream(d.path / "bombcheckers.db", std::ios::binary)
        << original.substr(0, original.size() / 2 + 100);
    expect_refused(d.path, "truncated", "bombcheckers.db");
  }
  {
    TempDir d;  // not a database at all
    std::ofstream(d.path / "bombcheckers.db", std::ios::binary) << "hello, this is not SQLite\n";
    expect_refused(d.path, "not a database", "bombcheckers.db");
  }
  {
    TempDir d;  // a data directory that cannot be made: its parent is a file
    std::ofstream(d.path / "file") << "x";
    expect_refused(d.path / "file" / "data", "unusable data dir", "data directory");
  }
  // The undamaged copy still serves.
  auto srv = start(good.path);
  EXPECT_EQ(json::parse(http_get(srv.port, "/api/rooms").body).size(), 2u);
  srv.proc->signal(SIGTERM);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0);
}

TEST(Memory, TheMemoryStoreKeepsNothingOnDisk) {
  TempDir d;
  auto srv = start(d.path / "data", {"--memory"});
  Table t;
  t.variant = "bomb";
  open_table(srv.port, t);
  std::mt19937_64 rng(3);
  keep_playing(t, rng, 3);
  srv.proc->signal(SIGTERM);
  EXPECT_EQ(srv.proc->wait(std::chrono::seconds(10)), 0);
  EXPECT_FALSE(fs::exists(d.path / "data" / "bombcheckers.db"));
}

}  // namespace
}  // namespace bc::test

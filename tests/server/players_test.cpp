// Players over real sockets (docs/PLAYERS.md): the HTTP account paths as a browser and an
// attacker use them, the session cookie on the WebSocket, a pool's pairing into a rated game
// whose end moves both ratings, the profiles and the leaderboard.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "running_server.hpp"
#include "test_client.hpp"

namespace bc::test {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;
using server::ServerConfig;

class PlayersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { spdlog::set_level(spdlog::level::warn); }
  void SetUp() override { start(true); }
  void TearDown() override { running_.stop(); }
  void start(bool accounts) {
    ServerConfig cfg = loopback_config();
    cfg.accounts = accounts;
    cfg.password_cost = server::PasswordCost::Minimal;
    cfg.pool_wave = 200ms;
    auto err = running_.start(std::move(cfg));
    ASSERT_FALSE(err) << *err;
    port_ = running_.port();
  }
  HttpResponse post(const std::string& path, const std::string& body, Headers headers = {},
                    const std::string& address = "") {
    HttpClient c(port_, address);
    headers.emplace_back("Content-Type", "application/json");
    return c.request("POST", path, kWait, headers, body);
  }
  HttpResponse get(const std::string& path, Headers headers = {}) {
    HttpClient c(port_);
    return c.request("GET", path, kWait, headers);
  }
  static std::string secret_of(const HttpResponse& r) {
    const std::string c = r.header("set-cookie");
    const auto eq = c.find('=');
    return c.substr(eq + 1, c.find(';') - eq - 1);
  }
  static Headers cookie(const std::string& secret) { return {{"Cookie", "bc_session=" + secret}}; }
  // A new account; its session's secret.
  std::string sign_up(const std::string& name, const std::string& address = "") {
    auto r =
        post("/api/signup", json{{"name", name}, {"password", "password1"}}.dump(), {}, address);
    EXPECT_EQ(r.status, 200) << r.body;
    return secret_of(r);
  }
  std::unique_ptr<WsClient> connect_as(const std::string& secret) {
    auto c = std::make_unique<WsClient>(port_, "/ws", true, "", "", cookie(secret));
    c->expect("welcome");
    return c;
  }

  RunningServer running_;
  std::uint16_t port_ = 0;
};

TEST_F(PlayersTest, AGuestsSessionCookieIsHttpOnlyAndItsSignUpKeepsThePlayer) {
  auto g = post("/api/guest", "");
  ASSERT_EQ(g.status, 200) << g.body;
  const std::string set = g.header("set-cookie");
  EXPECT_NE(set.find("HttpOnly"), std::string::npos);
  EXPECT_NE(set.find("SameSite=Lax"), std::string::npos);
  EXPECT_EQ(g.header("cache-control"), "no-store");
  const std::string guest = secret_of(g);
  const std::string id = json::parse(g.body)["player"]["id"];
  auto s = post("/api/signup", R"({"name":"Ann","password":"password1"})", cookie(guest));
  ASSERT_EQ(s.status, 200) << s.body;
  EXPECT_EQ(json::parse(s.body)["player"]["id"], id);
  EXPECT_NE(secret_of(s), guest);
  EXPECT_TRUE(json::parse(get("/api/me", cookie(guest)).body)["player"].is_null());
  EXPECT_EQ(json::parse(get("/api/me", cookie(secret_of(s))).body)["player"]["name"], "Ann");
}

TEST_F(PlayersTest, AChangeFromAnotherSitesPageIsRefused) {
  auto r = post("/api/login", R"({"name":"Ann","password":"password1"})",
                {{"Origin", "http://evil.example"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(json::parse(r.body)["error"], "bad_origin");
  EXPECT_EQ(post("/api/guest", "", {{"Sec-Fetch-Site", "cross-site"}}).status, 403);
  // The server's own page passes.
  EXPECT_EQ(post("/api/guest", "", {{"Origin", "http://127.0.0.1"}}).status, 200);
  // Reads and changes keep to their methods.
  EXPECT_EQ(get("/api/login").status, 405);
  EXPECT_EQ(post("/api/me", "").status, 405);
}

TEST_F(PlayersTest, WrongPasswordsAndUnknownNamesLookAlikeAndAreLimited) {
  sign_up("Ann");
  auto wrong = post("/api/login", R"({"name":"Ann","password":"password2"})");
  auto unknown = post("/api/login", R"({"name":"Nobody","password":"password2"})");
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.body, unknown.body);
  EXPECT_TRUE(wrong.header("set-cookie").empty());
  // One name from many addresses.
  int refused_at = -1;
  for (int i = 0; i < 12 && refused_at < 0; ++i) {
    auto r = post("/api/login", R"({"name":"Ann","password":"guess"})", {},
                  "127.0.0." + std::to_string(10 + i));
    if (r.status == 429) {
      refused_at = i;
      EXPECT_FALSE(r.header("retry-after").empty());
    }
  }
  EXPECT_GE(refused_at, 8);  // ten tries of the name in all (two above)
  // The right password too waits now: the limit does not tell a right guess apart.
  EXPECT_EQ(post("/api/login", R"({"name":"Ann","password":"password1"})", {}, "127.0.0.40").status,
            429);
}

TEST_F(PlayersTest, OversizedAndMalformedBodiesAreRefused) {
  EXPECT_EQ(post("/api/signup", std::string(5000, 'x')).status, 413);
  EXPECT_EQ(post("/api/signup", "{").status, 400);
  auto r =
      post("/api/signup", json{{"name", std::string(21, 'a')}, {"password", "password1"}}.dump());
  EXPECT_EQ(json::parse(r.body)["error"], "bad_name");
}

TEST_F(PlayersTest, SignOutEverywhereEndsEverySession) {
  const std::string one = sign_up("Ann");
  auto two = post("/api/login", R"({"name":"Ann","password":"password1"})");
  ASSERT_EQ(two.status, 200);
  auto list = json::parse(get("/api/sessions", cookie(secret_of(two))).body);
  EXPECT_EQ(list["sessions"].size(), 2u);
  auto out = post("/api/logout-all", "", cookie(one));
  EXPECT_EQ(out.status, 200);
  EXPECT_NE(out.header("set-cookie").find("Max-Age=0"), std::string::npos);
  EXPECT_TRUE(json::parse(get("/api/me", cookie(secret_of(two))).body)["player"].is_null());
}

TEST_F(PlayersTest, ARatedCreateNeedsACookiesPlayer) {
  const json rated = {{"type", "create"},
                      {"variant", "bomb"},
                      {"rated", true},
                      {"clock", {{"base", 180}, {"increment", 2}}},
                      {"name", "Ann"}};
  auto anonymous = std::make_unique<WsClient>(port_);
  anonymous->expect("welcome");
  anonymous->send(rated);
  EXPECT_EQ(anonymous->expect_error(), "sign_in_required");
  anonymous->send({{"type", "pool"}, {"pool", "bomb-3+2"}});
  EXPECT_EQ(anonymous->expect_error(), "sign_in_required");
  // Another site's page gets a socket but not the visitor's player.
  const std::string ann = sign_up("Ann");
  WsClient elsewhere(port_, "/ws", true, "", "",
                     {{"Cookie", "bc_session=" + ann}, {"Origin", "http://evil.example"}});
  elsewhere.expect("welcome");
  elsewhere.send(rated);
  EXPECT_EQ(elsewhere.expect_error(), "sign_in_required");
  auto own = connect_as(ann);
  own->send(rated);
  EXPECT_EQ(own->expect("joined")["seat"].is_string(), true);
  json s = own->expect("state");
  const std::string side = s["players"]["fire"].is_null() ? "water" : "fire";
  EXPECT_EQ(s["players"][side]["account"], "Ann");
  EXPECT_EQ(s["players"][side]["rating"], 1500);
}

TEST_F(PlayersTest, APoolPairsTwoPlayersIntoARatedGameThatMovesTheirRatings) {
  auto welcome = std::make_unique<WsClient>(port_);
  json w = welcome->expect("welcome");
  ASSERT_TRUE(w["players"]["accounts"].get<bool>());
  EXPECT_EQ(w["players"]["pools"][0]["id"], "bomb-3+2");

  auto ann = connect_as(sign_up("Ann"));
  auto bob = connect_as(sign_up("Bob", "127.0.0.2"));
  ann->send({{"type", "pool"}, {"pool", "bomb-3+2"}, {"id", 1}});
  json in = ann->expect("pool");
  EXPECT_EQ(in["pool"], "bomb-3+2");
  EXPECT_EQ(in["id"], 1);
  bob->send({{"type", "pool"}, {"pool", "bomb-3+2"}});
  bob->expect("pool");
  // Within a wave: one makes the room, the other is sent to it.
  json pa = ann->expect("paired", 5s);
  json pb = bob->expect("paired", 5s);
  EXPECT_EQ(pa["room"], pb["room"]);
  EXPECT_NE(pa["join"], pb["join"]);
  const std::string room = pa["room"];
  WsClient& joiner = pa["join"].get<bool>() ? *ann : *bob;
  joiner.send({{"type", "join"}, {"room", room}, {"seat", "any"}, {"name", "x"}});
  joiner.expect("joined");
  // Each plays a turn, then fire resigns.
  json s;
  for (int i = 0; i < 40; ++i) {
    s = joiner.expect("state");
    if (s["status"] == "playing" && s["version"] == 0) break;
  }
  ASSERT_EQ(s["status"], "playing") << s;
  EXPECT_TRUE(s["players"]["fire"].contains("rating"));
  auto mover_of = [&](const json& st) -> WsClient& {
    const std::string turn = st["turn"];
    const std::string joined_side =
        st["players"]["fire"]["account"] == (pa["join"].get<bool>() ? "Ann" : "Bob") ? "fire"
                                                                                     : "water";
    return turn == joined_side ? joiner : (&joiner == ann.get() ? *bob : *ann);
  };
  for (int turn = 0; turn < 2; ++turn) {
    WsClient& m = mover_of(s);
    m.send({{"type", "act"}, {"action", s["legal"][0]}, {"version", s["version"]}});
    for (int i = 0; i < 40; ++i) {
      json next = joiner.expect("state");
      if (next["version"] != s["version"] && !next["mid_turn"].get<bool>()) {
        s = next;
        break;
      }
      if (next["mid_turn"].get<bool>()) {
        s = next;
        mover_of(s).send({{"type", "act"}, {"action", s["legal"][0]}, {"version", s["version"]}});
      }
    }
  }
  mover_of(s).send({{"type", "resign"}});
  json end;
  for (int i = 0; i < 40; ++i) {
    end = joiner.expect("state");
    if (end["status"] == "finished") break;
  }
  ASSERT_EQ(end["status"], "finished");
  const int fire_diff = end["players"]["fire"]["rating_diff"];
  const int water_diff = end["players"]["water"]["rating_diff"];
  EXPECT_NE(fire_diff, 0);
  EXPECT_EQ(fire_diff, -water_diff);  // equal ratings and deviations: a mirror

  // The profiles list it; the leaderboard shows both, apart as provisional.
  for (const char* name : {"Ann", "Bob"}) {
    json p = json::parse(get(std::string("/api/players/") + name).body);
    ASSERT_EQ(p["games"].size(), 1u) << p;
    EXPECT_EQ(p["games"][0]["room"], room);
    EXPECT_EQ(p["ratings"][0]["perf"], "bomb:blitz");
    EXPECT_EQ(p["ratings"][0]["games"], 1);
  }
  json board = json::parse(get("/api/leaderboard?perf=bomb:blitz").body);
  EXPECT_EQ(board["provisional"].size(), 2u) << board;
}

TEST_F(PlayersTest, WithoutAccountsTheServerIsAsBefore) {
  running_.stop();
  start(false);
  EXPECT_EQ(json::parse(get("/api/me").body)["accounts"], false);
  EXPECT_EQ(post("/api/signup", R"({"name":"Ann","password":"password1"})").status, 404);
  auto c = std::make_unique<WsClient>(port_);
  json w = c->expect("welcome");
  EXPECT_FALSE(w.contains("players"));
  c->send({{"type", "pool"}, {"pool", "bomb-3+2"}});
  EXPECT_EQ(c->expect_error(), "unknown_pool");
}

}  // namespace
}  // namespace bc::test

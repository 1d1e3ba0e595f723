// The bot API over real sockets (docs/BOTS.md): tokens and bot accounts, the event and game
// streams (chunked NDJSON, keep-alive lines, resuming after a reconnect), moves in record notation
// and the refusals of bad ones, challenges from a person's page answered by a bot, and games
// against the computer played to their end.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <random>

#include "running_server.hpp"
#include "server/bots/turn_text.hpp"
#include "server/players/tokens.hpp"
#include "test_client.hpp"

namespace bc::test {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;
using server::ServerConfig;

// One streamed response: its status, then its lines as they come (chunked transfer decoded).
class LineStreamClient {
 public:
  LineStreamClient(std::uint16_t port, const std::string& path, const std::string& token) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return;
    const std::string req = "GET " + path +
                            " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token +
                            "\r\n\r\n";
    if (::send(fd_, req.data(), req.size(), MSG_NOSIGNAL) < 0) return;
    // The head.
    while (raw_.find("\r\n\r\n") == std::string::npos) {
      if (!fill(kWait)) return;
    }
    const auto end = raw_.find("\r\n\r\n");
    head_ = raw_.substr(0, end);
    raw_.erase(0, end + 4);
    status_ = std::atoi(head_.c_str() + 9);
    chunked_ = head_.find("Transfer-Encoding: chunked") != std::string::npos;
  }
  ~LineStreamClient() { close(); }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int status() const { return status_; }
  const std::string& head() const { return head_; }

  // The next line ("" is a keep-alive), or none by the deadline.
  std::optional<std::string> line(std::chrono::milliseconds timeout = kWait) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      decode();
      if (auto nl = body_.find('\n'); nl != std::string::npos) {
        std::string l = body_.substr(0, nl);
        body_.erase(0, nl + 1);
        return l;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left <= 0ms || !fill(left)) return std::nullopt;
    }
  }
  // The next JSON line, keep-alives skipped.
  std::optional<json> next(std::chrono::milliseconds timeout = kWait) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      auto l = line(std::max(left, 1ms));
      if (!l) return std::nullopt;
      if (!l->empty()) return json::parse(*l);
    }
  }
  // The next JSON line of `type`, others skipped.
  json expect(const std::string& type, std::chrono::milliseconds timeout = kWait) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      auto j = next(std::max(left, 1ms));
      if (!j) {
        ADD_FAILURE() << "no " << type << " line in time";
        return json();
      }
      if ((*j)["type"] == type) return *j;
    }
  }

 private:
  bool fill(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
    char buf[4096];
    const auto n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return false;
    raw_.append(buf, static_cast<std::size_t>(n));
    return true;
  }
  void decode() {
    if (!chunked_) {
      body_ += raw_;
      raw_.clear();
      return;
    }
    for (;;) {
      const auto crlf = raw_.find("\r\n");
      if (crlf == std::string::npos) return;
      const std::size_t size = std::stoul(raw_.substr(0, crlf), nullptr, 16);
      if (raw_.size() < crlf + 2 + size + 2) return;
      body_ += raw_.substr(crlf + 2, size);
      raw_.erase(0, crlf + 2 + size + 2);
    }
  }
  int fd_ = -1;
  int status_ = 0;
  bool chunked_ = false;
  std::string head_, raw_, body_;
};

class BotsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { spdlog::set_level(spdlog::level::warn); }
  void SetUp() override {
    ServerConfig cfg = loopback_config();
    cfg.password_cost = server::PasswordCost::Minimal;
    cfg.stream_keepalive = 300ms;
    auto err = running_.start(std::move(cfg));
    ASSERT_FALSE(err) << *err;
    port_ = running_.port();
  }
  void TearDown() override { running_.stop(); }

  HttpResponse call(const std::string& method, const std::string& path, Headers headers = {},
                    const std::string& body = "") {
    HttpClient c(port_);
    if (!body.empty()) headers.emplace_back("Content-Type", "application/json");
    return c.request(method, path, kWait, headers, body);
  }
  static Headers bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }
  static Headers cookie(const std::string& secret) { return {{"Cookie", "bc_session=" + secret}}; }
  std::string sign_up(const std::string& name) {
    auto r =
        call("POST", "/api/signup", {}, json{{"name", name}, {"password", "password1"}}.dump());
    EXPECT_EQ(r.status, 200) << r.body;
    const std::string c = r.header("set-cookie");
    const auto eq = c.find('=');
    return c.substr(eq + 1, c.find(';') - eq - 1);
  }
  // A new bot account, made as docs/BOTS.md says a fresh account makes itself one: its token.
  std::string make_bot(const std::string& name) {
    const std::string session = sign_up(name);
    auto t = call("POST", "/api/tokens", cookie(session), R"({"label":"test"})");
    EXPECT_EQ(t.status, 200) << t.body;
    const std::string token = json::parse(t.body)["token"];
    auto u = call("POST", "/api/bot/account/upgrade", bearer(token));
    EXPECT_EQ(u.status, 200) << u.body;
    return token;
  }
  json post_json(const std::string& path, const std::string& token, const json& body = nullptr) {
    auto r = call("POST", path, bearer(token), body.is_null() ? "" : body.dump());
    auto j = json::parse(r.body, nullptr, false);
    j["status"] = r.status;
    return j;
  }
  // Plays the bot's side to the end: the first legal turn each time, and after `resign_after`
  // turns (the computer thinks 0.4 s a turn at least) it resigns. The last gameState.
  json play_out(LineStreamClient& game, const std::string& id, const std::string& token,
                int resign_after = 20) {
    json st = game.expect("gameFull")["state"];
    int turns = 0;
    for (int i = 0; i < 400 && st["status"] == "started"; ++i) {
      if (!st["legal"].empty() && ++turns > resign_after) {
        EXPECT_EQ(post_json("/api/bot/game/" + id + "/resign", token)["status"], 200);
      } else if (!st["legal"].empty()) {
        const std::string move = st["legal"][0];
        EXPECT_EQ(post_json("/api/bot/game/" + id + "/move/" + escape(move), token)["status"], 200)
            << move;
      }
      st = game.expect("gameState", 20s);
    }
    return st;
  }
  static std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') {
        out += c;
      } else {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
        out += buf;
      }
    }
    return out;
  }

  RunningServer running_;
  std::uint16_t port_ = 0;
};

TEST_F(BotsTest, ATokenIsShownOnceListedByItsIdAndStopsWorkingOnceRevoked) {
  const std::string session = sign_up("Ann");
  auto made = call("POST", "/api/tokens", cookie(session), R"({"label":"my bot"})");
  ASSERT_EQ(made.status, 200) << made.body;
  const json t = json::parse(made.body);
  const std::string token = t["token"];
  EXPECT_EQ(token.rfind("bcb_", 0), 0U);
  EXPECT_EQ(token.size(), 36U);
  auto list = call("GET", "/api/tokens", cookie(session));
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.body.find(token), std::string::npos) << "the list never shows a secret";
  EXPECT_EQ(json::parse(list.body)["tokens"][0]["label"], "my bot");
  auto me = call("GET", "/api/account", bearer(token));
  EXPECT_EQ(json::parse(me.body),
            (json{{"id", json::parse(me.body)["id"]}, {"name", "Ann"}, {"bot", false}}));
  Headers elsewhere = cookie(session);
  elsewhere.emplace_back("Origin", "http://elsewhere.example");
  auto revoked = call("POST", "/api/tokens/" + t["id"].get<std::string>() + "/revoke", elsewhere);
  EXPECT_EQ(revoked.status, 403) << "a page's POST needs this server's origin";
  revoked = call("POST", "/api/tokens/" + t["id"].get<std::string>() + "/revoke", bearer(token));
  EXPECT_EQ(revoked.status, 200) << revoked.body;
  auto after = call("GET", "/api/account", bearer(token));
  EXPECT_EQ(after.status, 401);
  EXPECT_EQ(json::parse(after.body)["error"], "bad_token");
  EXPECT_EQ(call("GET", "/api/account", bearer("bcb_0123")).status, 401);
  EXPECT_EQ(call("GET", "/api/account", {{"Authorization", "Basic abc"}}).status, 401);
}

TEST_F(BotsTest, AFreshAccountBecomesABotForGoodAndNoLongerSignsInWithAPassword) {
  const std::string token = make_bot("Robo");
  auto me = call("GET", "/api/account", bearer(token));
  EXPECT_TRUE(json::parse(me.body)["bot"]);
  EXPECT_EQ(post_json("/api/bot/account/upgrade", token)["error"], "already_bot");
  auto login = call("POST", "/api/login", {}, R"({"name":"Robo","password":"password1"})");
  EXPECT_EQ(login.status, 401) << login.body;
  // A person's token may not use a bot's requests.
  const std::string person = sign_up("Bea");
  auto t = call("POST", "/api/tokens", cookie(person), "{}");
  const std::string person_token = json::parse(t.body)["token"];
  LineStreamClient events(port_, "/api/stream/event", person_token);
  EXPECT_EQ(events.status(), 403);
}

// Every variant: tests/bots/sample_bot_test.sh, with the sample bot. Here one of each family.
TEST_F(BotsTest, ABotPlaysKaboomAndCheckersAgainstTheComputerToTheEndOverItsStreams) {
  const std::string token = make_bot("Robo");
  LineStreamClient events(port_, "/api/stream/event", token);
  ASSERT_EQ(events.status(), 200);
  EXPECT_NE(events.head().find("application/x-ndjson"), std::string::npos);
  for (const char* variant : {"kaboom", "classic"}) {
    SCOPED_TRACE(variant);
    json ask{{"level", 1}, {"variant", variant}, {"color", "first"}};
    if (std::string(variant) == "kaboom")
      ask["options"] = {{"width", 4}, {"height", 4}, {"connect", 3}};
    auto started = post_json("/api/challenge/ai", token, ask);
    ASSERT_EQ(started["status"], 200) << started.dump();
    const std::string id = started["game"]["id"];
    EXPECT_EQ(started["game"]["side"], "first");
    EXPECT_EQ(events.expect("gameStart")["game"]["id"], id);
    LineStreamClient game(port_, "/api/bot/game/stream/" + id, token);
    ASSERT_EQ(game.status(), 200);
    const json last = play_out(game, id, token);
    EXPECT_EQ(last["status"], "over");
    ASSERT_FALSE(last["result"].is_null());
    if (last["result"]["reason"] == "resign") {
      EXPECT_EQ(last["result"]["winner"], "second");
    }
    const json finish = events.expect("gameFinish", 20s);
    EXPECT_EQ(finish["game"]["id"], id);
    EXPECT_EQ(finish["game"]["result"], last["result"]);
  }
}

TEST_F(BotsTest, AnIllegalMoveIsRefusedWithTheLegalTurnsAndChangesNothing) {
  const std::string token = make_bot("Robo");
  auto started = post_json("/api/challenge/ai", token,
                           {{"level", 1}, {"variant", "bomb"}, {"color", "first"}});
  const std::string id = started["game"]["id"];
  LineStreamClient game(port_, "/api/bot/game/stream/" + id, token);
  const json full = game.expect("gameFull");
  EXPECT_EQ(full["initial"].get<std::string>().substr(0, 2), "B:");
  EXPECT_EQ(full["state"]["version"], 0);
  for (const char* bad : {"11-16x", "12-8", "drop%203", "%20", "%FF%FE", "9x18x27"}) {
    auto r = post_json("/api/bot/game/" + id + "/move/" + bad, token);
    EXPECT_EQ(r["status"], 400) << bad << " " << r.dump();
    EXPECT_EQ(r["error"], "illegal_move") << bad;
    EXPECT_EQ(r["legal"], full["state"]["legal"]) << bad;
  }
  // The same turn in analyse's square names is read too.
  const std::string first = full["state"]["legal"][0];
  EXPECT_EQ(post_json("/api/bot/game/" + id + "/move/" + first, token)["status"], 200);
  const json after = game.expect("gameState");
  EXPECT_EQ(after["version"], 1) << "the refused moves changed nothing";
  EXPECT_EQ(after["moves"], json::array({first}));
  // Not the bot's turn (the computer's, until it answers), or the game's over: 409.
  auto again = post_json("/api/bot/game/" + id + "/move/" + first, token);
  EXPECT_TRUE(again["status"] == 409 || again["status"] == 400) << again.dump();
  EXPECT_EQ(post_json("/api/bot/game/NOPE42/move/11-15", token)["status"], 404);
}

TEST_F(BotsTest, APersonChallengesABotWhichAcceptsAndThePersonsSeatIsKeptForThem) {
  const std::string token = make_bot("Robo");
  LineStreamClient events(port_, "/api/stream/event", token);
  const std::string ann = sign_up("Ann");
  const Headers page = {
      {"Cookie", "bc_session=" + ann}, {"Origin", "http://127.0.0.1"}, {"Host", "127.0.0.1"}};
  HttpClient hc(port_);
  Headers with_type = page;
  with_type.emplace_back("Content-Type", "application/json");
  auto made = hc.request("POST", "/api/challenge/robo", kWait, with_type,
                         R"({"variant":"kaboom","options":{"width":4,"height":4,"connect":3},)"
                         R"("clock":{"base":60,"increment":1},"rated":true,"color":"first"})");
  ASSERT_EQ(made.status, 200) << made.body;
  const json c = json::parse(made.body)["challenge"];
  EXPECT_EQ(c["status"], "created");
  EXPECT_EQ(c["dest"]["bot"], true);
  const json seen = events.expect("challenge");
  EXPECT_EQ(seen["challenge"]["id"], c["id"]);
  // A challenge to a person, and one from a bot to a bot without the host's leave, are refused.
  auto to_person =
      hc.request("POST", "/api/challenge/Ann", kWait, with_type, R"({"variant":"bomb"})");
  EXPECT_EQ(to_person.status, 400);
  EXPECT_EQ(json::parse(to_person.body)["error"], "not_a_bot");
  const std::string other = make_bot("Other");
  EXPECT_EQ(post_json("/api/challenge/robo", other, {{"variant", "bomb"}})["error"],
            "bots_challenge_off");

  const std::string cid = c["id"];
  auto accepted = post_json("/api/challenge/" + cid + "/accept", token);
  ASSERT_EQ(accepted["status"], 200) << accepted.dump();
  const std::string room = accepted["game"]["id"];
  EXPECT_EQ(accepted["game"]["side"], "second");
  EXPECT_EQ(events.expect("gameStart")["game"]["id"], room);
  auto polled = hc.request("GET", "/api/challenge/" + cid, kWait, page);
  EXPECT_EQ(json::parse(polled.body)["challenge"]["room"], room);
  EXPECT_EQ(json::parse(polled.body)["challenge"]["status"], "accepted");

  // Someone else signed in cannot take the seat kept for Ann.
  const std::string bob = sign_up("Bob");
  WsClient bob_ws(port_, "/ws", true, "", "", cookie(bob));
  bob_ws.expect("welcome");
  bob_ws.send({{"type", "join"}, {"room", room}, {"seat", "x"}});
  EXPECT_EQ(bob_ws.expect("error")["code"], "seat_taken");
  WsClient ann_ws(port_, "/ws", true, "", "", cookie(ann));
  ann_ws.expect("welcome");
  ann_ws.send({{"type", "join"}, {"room", room}, {"seat", "any"}});
  const json joined = ann_ws.expect("joined");
  EXPECT_EQ(joined["seat"], "x");
  json state = ann_ws.expect("state");
  EXPECT_EQ(state["players"]["o"]["bot"], true) << state["players"].dump();

  // Ann plays column 0 each turn, the bot its first legal turn, to the end.
  LineStreamClient game(port_, "/api/bot/game/stream/" + room, token);
  json st = game.expect("gameFull")["state"];
  for (int i = 0; i < 40 && st["status"] == "started"; ++i) {
    if (st["turn"] == "first") {
      json legal = state["legal"];
      ann_ws.send({{"type", "act"}, {"action", legal[0]}, {"version", state["version"]}});
    } else {
      const std::string move = st["legal"][0];
      EXPECT_EQ(post_json("/api/bot/game/" + room + "/move/" + escape(move), token)["status"], 200);
    }
    st = game.expect("gameState");
    do {
      state = ann_ws.expect("state");
    } while (state["version"] != st["version"]);
  }
  EXPECT_EQ(st["status"], "over");
  // A rated game: both profiles list it.
  for (const char* who : {"Ann", "Robo"}) {
    json profile;
    for (int i = 0; i < 50; ++i) {
      profile = json::parse(call("GET", std::string("/api/players/") + who).body);
      if (!profile["games"].empty()) break;
      std::this_thread::sleep_for(50ms);
    }
    ASSERT_FALSE(profile["games"].empty()) << who;
    EXPECT_EQ(profile["games"][0]["room"], room) << who;
  }
}

TEST_F(BotsTest, AGameStreamOpenedAgainResumesFromTheCurrentStateAndQuietStreamsKeepAlive) {
  const std::string token = make_bot("Robo");
  auto started = post_json("/api/challenge/ai", token,
                           {{"level", 1}, {"variant", "classic"}, {"color", "first"}});
  const std::string id = started["game"]["id"];
  std::vector<std::string> played;
  {
    LineStreamClient game(port_, "/api/bot/game/stream/" + id, token);
    json st = game.expect("gameFull")["state"];
    for (int turns = 0; turns < 3;) {
      if (!st["legal"].empty()) {
        const std::string move = st["legal"][0];
        ASSERT_EQ(post_json("/api/bot/game/" + id + "/move/" + move, token)["status"], 200);
        ++turns;
      }
      st = game.expect("gameState", 20s);
    }
    played = st["moves"].get<std::vector<std::string>>();
  }  // the stream drops
  LineStreamClient again(port_, "/api/bot/game/stream/" + id, token);
  const json full = again.expect("gameFull");
  const auto moves = full["state"]["moves"].get<std::vector<std::string>>();
  ASSERT_GE(moves.size(), played.size());
  EXPECT_TRUE(std::equal(played.begin(), played.end(), moves.begin()));
  // Nothing happens while the bot thinks: empty lines every 300 ms.
  int empty = 0;
  for (int i = 0; i < 6 && empty < 2; ++i) {
    auto l = again.line(2s);
    ASSERT_TRUE(l);
    if (l->empty()) ++empty;
  }
  EXPECT_EQ(empty, 2);
}

TEST(BotTurnText, TurnsAreWrittenAsTheRecordsAndReadInEveryDocumentedSpelling) {
  auto g = std::get<Game>(Game::create(VariantId::Kaboom, Options{}));
  for (const char* text : {"drop 3", "DROP   3", "3", "d"}) {
    auto t = server::read_turn(g, text);
    ASSERT_TRUE(std::holds_alternative<Turn>(t)) << text;
    EXPECT_EQ(server::turn_text(VariantId::Kaboom, std::get<Turn>(t)), "drop 3") << text;
  }
  auto b = server::read_turn(g, "3 bomb");
  ASSERT_TRUE(std::holds_alternative<Turn>(b));
  EXPECT_EQ(server::turn_text(VariantId::Kaboom, std::get<Turn>(b)), "drop bomb 3");
  EXPECT_TRUE(std::holds_alternative<std::string>(server::read_turn(g, "drop 99")));
  auto c = std::get<Game>(Game::create(VariantId::Classic, Options{}));
  const auto legal = server::legal_turn_texts(c);
  EXPECT_EQ(legal.size(), 7U);
  EXPECT_NE(std::find(legal.begin(), legal.end(), "11-15"), legal.end());
  for (const std::string& text : legal) {
    auto t = server::read_turn(c, text);
    ASSERT_TRUE(std::holds_alternative<Turn>(t)) << text;
    EXPECT_EQ(server::turn_text(VariantId::Classic, std::get<Turn>(t)), text);
  }
}

TEST(BotTokens, OnlyAWellFormedBearerHeaderNamesAToken) {
  EXPECT_EQ(server::bearer_secret("Bearer bcb_0123456789abcdef0123456789abcdef"),
            "bcb_0123456789abcdef0123456789abcdef");
  EXPECT_EQ(server::bearer_secret("bearer  bcb_0123456789abcdef0123456789abcdef "),
            "bcb_0123456789abcdef0123456789abcdef");
  EXPECT_EQ(server::bearer_secret("Bearer bcb_0123456789ABCDEF0123456789abcdef"), "");
  EXPECT_EQ(server::bearer_secret("Bearer 0123456789abcdef0123456789abcdef"), "");
  EXPECT_EQ(server::bearer_secret("Basic bcb_0123456789abcdef0123456789abcdef"), "");
  EXPECT_EQ(server::bearer_secret(""), "");
}

}  // namespace
}  // namespace bc::test

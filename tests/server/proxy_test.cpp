// serve --trusted-proxy on a real server on 127.0.0.1: the test clients play a reverse proxy on
// 127.0.0.1 that adds X-Forwarded-For, and an untrusted client on 127.0.0.2 that forges it.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <filesystem>
#include <thread>

#include "../support/process.hpp"
#include "running_server.hpp"
#include "server/net/server.hpp"
#include "test_client.hpp"

namespace bc::test {
namespace {

using server::Limits;
using server::Server;
using server::ServerConfig;

Headers forwarded_for(const std::string& list) {
  return {{"X-Forwarded-For", list}};
}

class TrustedProxyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { spdlog::set_level(spdlog::level::warn); }
  void TearDown() override { stop(); }

  // A server that trusts `proxies` (none: the flag not given), one connection per address.
  void start(std::string_view proxies, Limits limits = one_connection()) {
    ServerConfig cfg = loopback_config();
    cfg.limits = limits;
    std::string error;
    auto trusted = server::TrustedProxies::parse(proxies, error);
    ASSERT_TRUE(trusted) << error;
    cfg.trusted_proxies = *trusted;
    auto err = running_.start(std::move(cfg));
    ASSERT_FALSE(err) << *err;
    port_ = running_.port();
  }
  void stop() { running_.stop(); }
  static Limits one_connection() {
    Limits l;
    l.max_connections_per_address = 1;
    return l;
  }

  // A welcomed WebSocket from `from` with these headers; throws if it is refused.
  std::unique_ptr<WsClient> open(const Headers& headers, const std::string& from = "127.0.0.1") {
    auto c = std::make_unique<WsClient>(port_, "/ws", true, "", from, headers);
    c->expect("welcome");
    return c;
  }
  // Why a WebSocket from `from` with these headers was refused, or "" if it was welcomed.
  std::string refusal(const Headers& headers, const std::string& from = "127.0.0.1") {
    try {
      open(headers, from);
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  std::string metrics() { return http_get(port_, "/metrics", "GET", "127.0.0.9").body; }

  RunningServer running_;
  std::uint16_t port_ = 0;
};

TEST_F(TrustedProxyTest, ForwardedClientsOfOneProxyEachHaveTheirOwnConnectionLimit) {
  start("127.0.0.1");
  auto a = open(forwarded_for("203.0.113.1"));
  auto b = open(forwarded_for("203.0.113.2"));
  auto c = open(forwarded_for("2001:db8::3"));
  EXPECT_NE(metrics().find("bc_forwarded_requests_total 3\n"), std::string::npos) << metrics();
}

TEST_F(TrustedProxyTest, AForwardedClientOverItsLimitIsRefusedWith429UntilOneCloses) {
  start("127.0.0.1");
  auto a = open(forwarded_for("203.0.113.1"));
  const auto why = refusal(forwarded_for("203.0.113.1"));
  EXPECT_NE(why.find("(HTTP 429)"), std::string::npos) << why;
  EXPECT_NE(refusal(forwarded_for("198.51.100.1, ::ffff:203.0.113.1")).find("(HTTP 429)"),
            std::string::npos)
      << "the same client, written another way";
  EXPECT_NE(metrics().find("bc_address_refused_total 2\n"), std::string::npos) << metrics();
  a->close();
  bool admitted = false;  // the closed connection gives its client's place back
  for (int i = 0; i < 50 && !admitted; ++i) {
    admitted = refusal(forwarded_for("203.0.113.1")).empty();
    if (!admitted) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(admitted);
}

TEST_F(TrustedProxyTest, IPv6ClientsOfOneSlash64AreOneClient) {
  // One /64 is what one home or one cloud machine gets: counted by the address, it was 2^64
  // clients, each with a full budget.
  start("127.0.0.1");
  auto a = open(forwarded_for("2001:db8:1:2::1"));
  EXPECT_NE(refusal(forwarded_for("2001:db8:1:2::2")).find("(HTTP 429)"), std::string::npos);
  EXPECT_NE(refusal(forwarded_for("[2001:db8:1:2:ffff::9]:4711")).find("(HTTP 429)"),
            std::string::npos);
  auto other = open(forwarded_for("2001:db8:1:3::1"));  // the next /64 is someone else
  EXPECT_NE(metrics().find("bc_address_refused_total 2\n"), std::string::npos) << metrics();
}

TEST_F(TrustedProxyTest, ApiRequestsOfOneSlash64DrawOnOneBudget) {
  Limits l;
  l.api_rate_per_second = 0.01;
  l.api_burst = 2;
  start("127.0.0.1", l);
  HttpClient proxy(port_);
  for (int i = 1; i <= 2; ++i) {
    const auto h = forwarded_for("2001:db8:7:7::" + std::to_string(i));
    EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, h).status, 200);
  }
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, forwarded_for("2001:db8:7:7::3")).status,
            429);
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, forwarded_for("2001:db8:7:8::1")).status,
            200);
}

TEST_F(TrustedProxyTest, SeveralForwardedForHeadersAreOneListReadFromTheRight) {
  start("127.0.0.1");
  auto c = open({{"X-Forwarded-For", "198.51.100.9"},
                 {"X-Forwarded-For", "203.0.113.4, 127.0.0.1"},
                 {"X-Forwarded-For", "127.0.0.1"}});
  EXPECT_NE(refusal(forwarded_for("203.0.113.4")).find("(HTTP 429)"), std::string::npos)
      << "the client is the rightmost untrusted entry of the last headers";
  EXPECT_EQ(refusal(forwarded_for("198.51.100.9")), "");
}

TEST_F(TrustedProxyTest, ATrustedPeerWithoutTheHeaderIsCountedAsItself) {
  start("127.0.0.1");
  auto proxy_itself = open({});
  EXPECT_NE(refusal({}).find("(HTTP 429)"), std::string::npos);
  EXPECT_NE(refusal(forwarded_for("not an address")).find("(HTTP 429)"), std::string::npos)
      << "a header that cannot be read is no header";
  auto client = open(forwarded_for("203.0.113.1"));
  EXPECT_NE(metrics().find("bc_forwarded_requests_total 1\n"), std::string::npos) << metrics();
}

TEST_F(TrustedProxyTest, WithoutTheFlagTheHeaderIsIgnored) {
  start("");
  auto a = open(forwarded_for("203.0.113.1"));
  // The second connection from 127.0.0.1 is closed at accept, whatever it says it forwards.
  EXPECT_THROW(open(forwarded_for("203.0.113.2")), std::runtime_error);
  EXPECT_NE(metrics().find("bc_forwarded_requests_total 0\n"), std::string::npos) << metrics();
}

TEST_F(TrustedProxyTest, AForgedHeaderFromAnUntrustedPeerChangesNothing) {
  start("127.0.0.1");
  // 127.0.0.2 is not a trusted proxy: counted as itself, its header ignored...
  auto forger = open(forwarded_for("203.0.113.1"), "127.0.0.2");
  EXPECT_THROW(open(forwarded_for("203.0.113.2"), "127.0.0.2"), std::runtime_error);
  // ...and the address it named has its whole budget behind the real proxy.
  auto real = open(forwarded_for("203.0.113.1"));
  EXPECT_NE(metrics().find("bc_forwarded_requests_total 1\n"), std::string::npos) << metrics();
}

TEST_F(TrustedProxyTest, ApiRequestsOnOneProxyConnectionAreLimitedPerForwardedClient) {
  Limits l;
  l.api_rate_per_second = 0.01;
  l.api_burst = 2;
  start("127.0.0.1", l);
  HttpClient proxy(port_);  // one keep-alive connection carries both clients' requests
  const auto a = forwarded_for("203.0.113.1"), b = forwarded_for("203.0.113.2");
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, a).status, 200);
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, a).status, 200);
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, a).status, 429);
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, b).status, 200);
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, b).status, 200);
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, b).status, 429);
  EXPECT_EQ(proxy.request("GET", "/api/rooms", kWait, {}).status, 200) << "the proxy's own";
}

TEST_F(TrustedProxyTest, RoomsSeeTheForwardedClientsAddress) {
  Limits l;
  l.spectators_per_room_per_address = 1;
  start("10.0.0.0/8, 127.0.0.1", l);
  auto host = open(forwarded_for("203.0.113.1"));
  host->send({{"type", "create"}, {"variant", "bomb"}, {"seat", "fire"}});
  const std::string room = host->expect("joined")["room"];
  const json watch = {{"type", "join"}, {"room", room}, {"seat", "spectator"}};
  // Two clients behind a chain of two trusted proxies, and a second connection of the first.
  auto s1 = open(forwarded_for("198.51.100.1, 10.1.1.1"));
  s1->send(watch);
  EXPECT_EQ(s1->expect("joined")["seat"], "spectator");
  auto s2 = open(forwarded_for("198.51.100.2, 10.1.1.1"));
  s2->send(watch);
  EXPECT_EQ(s2->expect("joined")["seat"], "spectator");
  auto again = open(forwarded_for("198.51.100.1"));
  again->send(watch);
  EXPECT_EQ(again->expect_error(), "too_many_spectators");
}

// ---------------------------------------------------------------------------------------------
// The flag and its environment twin on the real binary.

const std::string kListening = "listening on http://127.0.0.1:";

TEST(TrustedProxyBinary, TheFlagAndItsVariableTrustTheListedProxies) {
  for (const bool by_env : {false, true}) {
    std::vector<std::string> args{
        "serve", "--host", "127.0.0.1", "--port", "0", "--memory", "--max-connections-per-address",
        "1"};
    std::vector<std::string> env;
    if (by_env) {
      env.push_back("BOMBCHECKERS_TRUSTED_PROXY=10.0.0.0/8,127.0.0.1");
    } else {
      args.insert(args.end(), {"--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "127.0.0.1"});
    }
    Process p(args, env);
    const std::string line = p.read_line_starting(kListening, 20s);
    ASSERT_FALSE(line.empty()) << p.stderr_text();
    const auto port = static_cast<std::uint16_t>(std::stoi(line.substr(kListening.size())));
    {
      WsClient a(port, "/ws", true, "", "", forwarded_for("203.0.113.1"));
      a.expect("welcome");
      WsClient b(port, "/ws", true, "", "", forwarded_for("203.0.113.2"));
      b.expect("welcome");
    }
    p.signal(SIGTERM);
    EXPECT_EQ(p.wait(10s), 0);
    const std::string log = p.stderr_text();
    EXPECT_NE(log.find("X-Forwarded-For of connections from 10.0.0.0/8, 127.0.0.1"),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("connected from 203.0.113.2 via 127.0.0.1"), std::string::npos) << log;
  }
}

TEST(TrustedProxyBinary, BadEntriesExitWith2AndNameTheEntry) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> env;
    std::string bad;  // the entry the message names
  };
  const std::vector<Case> cases = {
      {{"serve", "--trusted-proxy", "haproxy.internal"}, {}, "haproxy.internal"},
      {{"serve", "--trusted-proxy", "10.0.0.0/33"}, {}, "10.0.0.0/33"},
      {{"serve", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "fd00::/129"},
       {},
       "fd00::/129"},
      {{"serve"}, {"BOMBCHECKERS_TRUSTED_PROXY=127.0.0.1,10.0.0.0/x"}, "10.0.0.0/x"},
  };
  for (const auto& c : cases) {
    Process p(c.args, c.env);
    EXPECT_EQ(p.wait(10s), 2) << c.bad;
    const std::string err = p.stderr_text();
    EXPECT_EQ(err.rfind("serve: ", 0), 0u) << err;
    EXPECT_NE(err.find(c.bad + ": "), std::string::npos) << c.bad << ": " << err;
  }
  Process help({"serve", "--help"});
  EXPECT_EQ(help.wait(10s), 0);
  EXPECT_NE(help.all_stdout().find("--trusted-proxy LIST"), std::string::npos);
  EXPECT_NE(help.all_stdout().find("env BOMBCHECKERS_TRUSTED_PROXY"), std::string::npos);
}

}  // namespace
}  // namespace bc::test

// Issue 7 on a real server on 127.0.0.1: --allowed-origin at the WebSocket handshake, GET
// /api/server, GET /api/qr, the server_restarting notice at shutdown, and the /metrics series for
// dashboards.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <thread>

#include "running_server.hpp"
#include "server/net/server.hpp"
#include "test_client.hpp"

namespace bc::test {
namespace {

using server::Server;
using server::ServerConfig;

class Issue7Test : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { spdlog::set_level(spdlog::level::warn); }
  void TearDown() override { stop(); }

  void start(std::vector<std::string> origins = {}) {
    ServerConfig cfg = loopback_config();
    cfg.allowed_origins = std::move(origins);
    auto err = running_.start(std::move(cfg));
    ASSERT_FALSE(err) << *err;
    port_ = running_.port();
  }
  void stop() { running_.stop(); }
  // Opens /ws with an Origin header; "" if the handshake succeeded, else the error text.
  std::string handshake(const std::string& origin) {
    try {
      WsClient c(port_, "/ws", true, origin);
      c.expect("welcome");
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  RunningServer running_;
  std::uint16_t port_ = 0;
};

TEST_F(Issue7Test, AnyOriginIsAllowedByDefault) {
  start();
  EXPECT_EQ(handshake(""), "");
  EXPECT_EQ(handshake("https://elsewhere.example"), "");
  EXPECT_EQ(handshake("null"), "");
}

TEST_F(Issue7Test, OriginsOutsideTheListAreRefusedWith403) {
  start({"https://games.example", "http://192.168.1.20:8080"});
  EXPECT_EQ(handshake(""), "") << "no Origin: not a browser, allowed";
  EXPECT_EQ(handshake("https://games.example"), "");
  EXPECT_EQ(handshake("HTTPS://Games.Example"), "") << "origins compare case-insensitively";
  EXPECT_EQ(handshake("http://192.168.1.20:8080"), "");
  EXPECT_EQ(handshake("http://127.0.0.1:" + std::to_string(port_)), "") << "the server's own Host";
  for (const std::string bad : {"https://evil.example", "http://games.example",
                                "https://games.example:444", "null", "http://127.0.0.1:1"}) {
    const auto e = handshake(bad);
    EXPECT_NE(e.find("(HTTP 403)"), std::string::npos) << bad << ": " << e;
  }
  const auto m = http_get(port_, "/metrics").body;
  EXPECT_NE(m.find("bc_origin_refused_total 5\n"), std::string::npos) << m;
  // The refused upgrades left the server as it was.
  WsClient c(port_, "/ws", true, "https://games.example");
  c.expect("welcome");
  c.send({{"type", "create"}, {"variant", "bomb"}});
  c.expect("joined");
}

TEST_F(Issue7Test, ServerInfoListsLanUrls) {
  start();
  auto r = http_get(port_, "/api/server");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), "application/json");
  auto j = json::parse(r.body);
  EXPECT_EQ(j["server"], "bombcheckers");
  EXPECT_TRUE(j["version"].is_string());
  ASSERT_TRUE(j["lan_urls"].is_array());
  EXPECT_TRUE(j["lan_urls"].empty()) << "a loopback listener has no LAN address: " << r.body;
}

TEST_F(Issue7Test, QrEndpointAnswersSvg) {
  start();
  auto r = http_get(port_, "/api/qr?text=http%3A%2F%2F192.168.1.20%3A8080%2Fr%2FK7QF2M");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "image/svg+xml");
  EXPECT_EQ(r.body.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << r.body;
  EXPECT_NE(r.body.find("viewBox=\"0 0 37 37\""), std::string::npos)
      << "33 bytes: version 3 + 2 x 4 quiet";
  EXPECT_EQ(http_get(port_, "/api/qr").status, 400);
  EXPECT_EQ(http_get(port_, "/api/qr?text=").status, 400);
  EXPECT_EQ(http_get(port_, "/api/qr?text=%zz").status, 400);
  EXPECT_EQ(http_get(port_, "/api/qr?text=" + std::string(256, 'a')).status, 200);
  EXPECT_EQ(http_get(port_, "/api/qr?text=" + std::string(257, 'a')).status, 400);
}

TEST_F(Issue7Test, MetricsCoverHttpClassesAndTheProcess) {
  start();
  http_get(port_, "/healthz");
  http_get(port_, "/api/nothing");
  const auto m = http_get(port_, "/metrics").body;
  for (const char* s :
       {"bc_http_responses_total{class=\"2xx\"} ", "bc_http_responses_total{class=\"4xx\"} 1\n",
        "process_resident_memory_bytes ", "process_open_fds ", "process_cpu_seconds_total ",
        "process_start_time_seconds ", "bc_build_info{version=\"", "bc_shutdown_notices_total "}) {
    EXPECT_NE(m.find(s), std::string::npos) << s;
  }
}

TEST_F(Issue7Test, ShutdownSendsServerRestartingBeforeTheClose) {
  start();
  WsClient a(port_);
  a.expect("welcome");
  a.send({{"type", "create"}, {"variant", "bomb"}, {"seat", "fire"}});
  auto joined = a.expect("joined");
  WsClient b(port_);
  b.expect("welcome");
  a.drain();
  std::thread stopper([this] { running_.server().stop(); });
  auto n = a.expect("notice");
  EXPECT_EQ(n["code"], "server_restarting");
  EXPECT_TRUE(n["message"].is_string());
  EXPECT_EQ(a.wait_closed(), 1001);
  EXPECT_EQ(b.expect("notice")["code"], "server_restarting");
  EXPECT_EQ(b.wait_closed(), 1001);
  stopper.join();
  running_.stop();
}

}  // namespace
}  // namespace bc::test

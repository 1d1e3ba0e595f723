// serve --tls-cert/--tls-key in-process: HTTPS and WSS on the one port, plain HTTP redirected to
// https:// (except /healthz and /metrics), a failed handshake counted, the 1001 shutdown over TLS.
// The certificate is made at test time (tls_client.hpp); everything runs on 127.0.0.1.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "running_server.hpp"
#include "server/net/lan.hpp"
#include "server/net/server.hpp"
#include "tls_client.hpp"

namespace bc::test {
namespace {

namespace fs = std::filesystem;
using server::Server;
using server::ServerConfig;

const std::string kIndex = "<!doctype html><title>bombcheckers tls test</title>";

class TlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    spdlog::set_level(spdlog::level::warn);
    cert_ = new TestCertificate();
    std::ofstream(cert_->dir / "index.html") << kIndex;
  }
  static void TearDownTestSuite() {
    delete cert_;
    cert_ = nullptr;
  }

  void SetUp() override {
    ServerConfig cfg = loopback_config();
    cfg.web_root = cert_->dir;
    cfg.tls_cert = cert_->cert;
    cfg.tls_key = cert_->key;
    auto err = running_.start(std::move(cfg));
    ASSERT_FALSE(err) << *err;
    port_ = running_.port();
  }

  void TearDown() override { running_.stop(); }

  std::unique_ptr<WssClient> connect() {
    auto c = std::make_unique<WssClient>(port_);
    c->expect("welcome");
    return c;
  }

  static json state_at(WssClient& c, std::int64_t version) {
    for (int i = 0; i < 50; ++i) {
      json s = c.expect("state");
      if (s["version"] == version) return s;
    }
    throw std::runtime_error("no state at version " + std::to_string(version));
  }

  static TestCertificate* cert_;
  RunningServer running_;
  std::uint16_t port_ = 0;
};

TestCertificate* TlsTest::cert_ = nullptr;

TEST_F(TlsTest, HttpsHealthzAndPage) {
  auto h = https_get(port_, "/healthz");
  EXPECT_EQ(h.status, 200);
  EXPECT_EQ(json::parse(h.body)["status"], "ok") << h.body;
  auto page = https_get(port_, "/r/ABCDEF");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.body, kIndex);
}

TEST_F(TlsTest, WssGameBothPlayersSeeVersion1) {
  auto a = connect();
  a->send({{"type", "create"}, {"variant", "bomb"}, {"seat", "fire"}, {"name", "Ann"}});
  const std::string room = a->expect("joined")["room"];
  auto b = connect();
  b->send({{"type", "join"}, {"room", room}, {"seat", "water"}, {"name", "Bob"}});
  EXPECT_EQ(b->expect("joined")["seat"], "water");
  json st = a->expect("state");
  while (st["status"] != "playing") st = a->expect("state");
  ASSERT_EQ(st["version"], 0);
  ASSERT_FALSE(st["legal"].empty());
  WssClient& mover = st["turn"] == "fire" ? *a : *b;
  mover.send({{"type", "act"}, {"action", st["legal"][0]}, {"version", 0}});
  const json sa = state_at(*a, 1);
  const json sb = state_at(*b, 1);
  EXPECT_EQ(sa, sb);
  EXPECT_NE(sa["turn"], st["turn"]);
}

TEST_F(TlsTest, PlainHttpIsRedirectedToHttpsButHealthAndMetricsAnswer) {
  auto r = http_get(port_, "/r/ABCDEF?x=1");
  EXPECT_EQ(r.status, 308);
  EXPECT_EQ(r.header("location"),
            "https://127.0.0.1/r/ABCDEF?x=1");  // http_get sends Host: 127.0.0.1
  EXPECT_EQ(r.header("connection"), "close");
  EXPECT_EQ(http_get(port_, "/", "HEAD").status, 308);
  EXPECT_EQ(http_get(port_, "/healthz").status, 200);
  auto m = http_get(port_, "/metrics");
  EXPECT_EQ(m.status, 200);
  EXPECT_NE(m.body.find("bc_tls_handshake_failures_total 0\n"), std::string::npos) << m.body;
  // A plain WebSocket gets the redirect, not a game.
  try {
    WsClient c(port_);
    ADD_FAILURE() << "a plain WebSocket was accepted on the TLS port";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("HTTP 308"), std::string::npos) << e.what();
  }
}

TEST_F(TlsTest, FailedHandshakeIsCountedAndTheServerGoesOn) {
  const std::string err = verifying_tls_handshake_error(port_);
  EXPECT_NE(err.find("certificate verify failed"), std::string::npos) << err;
  std::string m;
  for (int i = 0; i < 100; ++i) {
    m = https_get(port_, "/metrics").body;
    if (m.find("bc_tls_handshake_failures_total 1\n") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(m.find("bc_tls_handshake_failures_total 1\n"), std::string::npos) << m;
  EXPECT_EQ(https_get(port_, "/healthz").status, 200);
}

TEST_F(TlsTest, ShutdownSendsTheNoticeAndCloses1001OverTls) {
  auto a = connect();
  a->send({{"type", "create"}, {"variant", "kaboom"}});
  a->expect("joined");
  running_.server().stop();
  json n = a->expect("notice");
  EXPECT_EQ(n["code"], "server_restarting");
  EXPECT_EQ(a->wait_closed(), 1001);
}

// A figure for the README: a fresh TLS connection (TCP + TLS 1.3 handshake) and the page, against
// the same over plain TCP on a second, plain server. Medians over 30 loads, loopback.
TEST_F(TlsTest, HandshakeAndPageLoadTime) {
  auto median_ms = [](auto load) {
    std::vector<double> ms;
    for (int i = 0; i < 30; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      load();
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  const double tls = median_ms([&] { ASSERT_EQ(https_get(port_, "/").status, 200); });

  ServerConfig cfg = loopback_config();
  cfg.web_root = cert_->dir;
  RunningServer plain;
  ASSERT_FALSE(plain.start(std::move(cfg)));
  const double clear = median_ms([&] { ASSERT_EQ(http_get(plain.port(), "/").status, 200); });
  plain.stop();
  std::printf(
      "[ figures  ] page load on a fresh connection, median of 30: https %.2f ms, http %.2f ms\n",
      tls, clear);
  RecordProperty("https_page_ms", std::to_string(tls));
  RecordProperty("http_page_ms", std::to_string(clear));
  EXPECT_LT(tls, 1000.0);
}

TEST(TlsLan, LanUrlsUseHttpsWithTls) {
  EXPECT_EQ(server::lan_urls("10.1.2.3", 8443, true),
            std::vector<std::string>{"https://10.1.2.3:8443/"});
  EXPECT_EQ(server::lan_urls("10.1.2.3", 8080), std::vector<std::string>{"http://10.1.2.3:8080/"});
  EXPECT_EQ(server::lan_urls("fd00::5", 8443, true),
            std::vector<std::string>{"https://[fd00::5]:8443/"});
}

// The in-process refusals (the binary's are in binary_test.cpp): each names the problem.
TEST(TlsConfig, StartRefusesWhatItCannotUse) {
  TestCertificate c;
  std::ofstream(c.dir / "garbage.pem") << "not a certificate\n";
  struct Case {
    fs::path cert, key;
    std::string says;
  };
  const std::vector<Case> cases = {
      {c.cert, c.dir / "missing.pem",
       "cannot read the TLS private key " + (c.dir / "missing.pem").string()},
      {c.dir / "missing.pem", c.key, "cannot read the TLS certificate"},
      {c.cert, c.other_key, "does not match the certificate"},
      {c.dir / "garbage.pem", c.key, "is not a PEM certificate"},
      {c.cert, c.dir / "garbage.pem", "is not an unencrypted PEM private key"},
      {c.cert, "", "TLS needs both"},
      {c.dir, c.key, "is a directory"},
  };
  for (const auto& k : cases) {
    ServerConfig cfg = loopback_config();
    cfg.tls_cert = k.cert;
    cfg.tls_key = k.key;
    Server s(cfg);
    auto err = s.start();
    ASSERT_TRUE(err) << k.says;
    EXPECT_NE(err->find(k.says), std::string::npos) << *err;
    EXPECT_EQ(err->find('\n'), std::string::npos) << *err;
  }
}

}  // namespace
}  // namespace bc::test

// The fixture of the `analyse` socket tests (analysis_test.cpp, watchers_test.cpp): a server on
// 127.0.0.1 with the per-address limits off, and clients that create, join and ask.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <string>

#include "running_server.hpp"
#include "server/net/server.hpp"
#include "test_client.hpp"

namespace bc::test {

using namespace bc::server;
using namespace std::chrono_literals;

class AnalysisTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { spdlog::set_level(spdlog::level::warn); }
  void SetUp() override {
    limits_.address_rate_per_second = 0;
    limits_.creates_per_address_per_minute = 0;
    limits_.analyses_per_address_per_minute = 0;
    start();
  }
  void TearDown() override {
    stop();
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }

  void start() {
    ServerConfig cfg = loopback_config();
    cfg.limits = limits_;
    cfg.memory = dir_.empty();
    if (!dir_.empty()) cfg.data_dir = dir_;
    auto err = running_.start(std::move(cfg));
    ASSERT_FALSE(err) << *err;
    port_ = running_.port();
  }
  void stop() { running_.stop(); }

  std::unique_ptr<WsClient> connect() {
    auto c = std::make_unique<WsClient>(port_);
    c->expect("welcome");
    return c;
  }
  json create(WsClient& c, const std::string& variant, const std::string& seat,
              json extra = json::object()) {
    json msg = {{"type", "create"}, {"variant", variant}, {"seat", seat}, {"name", "Ann"}};
    msg.update(extra);
    c.send(msg);
    json j = c.expect("joined");
    c.expect("state");
    return j;
  }
  void join(WsClient& c, const std::string& room, const std::string& seat) {
    c.send({{"type", "join"}, {"room", room}, {"seat", seat}, {"name", "Bob"}});
    c.expect("joined");
    c.expect("state");
  }
  // The answer to one analyse (skipping states and the like), or the error's code as
  // {"type":"error",...}.
  static json ask(WsClient& c, json msg, std::chrono::milliseconds wait = 15s) {
    msg["type"] = "analyse";
    msg["id"] = "q";
    c.send(msg);
    const auto give_up = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < give_up) {
      auto m = c.recv(wait);
      if (!m) break;
      if ((*m)["type"] == "analysis" || (*m)["type"] == "analysis_history" ||
          (*m)["type"] == "error")
        return *m;
    }
    throw std::runtime_error("no answer to analyse");
  }

  Limits limits_;
  std::filesystem::path dir_;
  RunningServer running_;
  std::uint16_t port_ = 0;
};

}  // namespace bc::test

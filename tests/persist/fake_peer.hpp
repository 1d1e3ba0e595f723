// A socket-free room member for tests of RoomHost (persist_test, revision_test): it keeps every
// message it is sent, parsed.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "server/host/registry.hpp"

namespace bc::server::testing {

using json = nlohmann::json;

class FakePeer : public Peer {
 public:
  explicit FakePeer(MemberId id) : id_(id) {}
  MemberId member_id() const override { return id_; }
  void deliver(Texts texts, bool) override {
    std::lock_guard lock(mu);
    for (const auto& t : texts) got.push_back(json::parse(*t.text));
  }
  void join_answered(std::shared_ptr<RoomHost> r) override {
    std::lock_guard lock(mu);
    room = std::move(r);
  }
  void detached(const RoomHost*) override {}
  std::vector<json> of(const std::string& type) {
    std::lock_guard lock(mu);
    std::vector<json> out;
    for (const auto& j : got) {
      if (j["type"] == type) out.push_back(j);
    }
    return out;
  }
  std::mutex mu;
  std::vector<json> got;
  std::shared_ptr<RoomHost> room;

 private:
  MemberId id_;
};

inline ClientMessage msg(const json& j) {
  return std::get<ClientMessage>(parse_client_message(j.dump()));
}

// Runs the io_context until `done` or the time limit.
template <class F>
bool run_until(boost::asio::io_context& ioc, F done,
               std::chrono::steady_clock::duration limit = std::chrono::seconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    ioc.restart();
    ioc.poll();
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

}  // namespace bc::server::testing

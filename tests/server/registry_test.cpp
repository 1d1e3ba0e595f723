// The registry and RoomHost without sockets: a fake Peer records what a connection would be told;
// the io_context is polled by hand, and time is passed to sweep() explicitly.
#include "server/host/registry.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <thread>

#include "server/host/lobby.hpp"

namespace bc::server {
namespace {

using json = nlohmann::json;

class FakePeer : public Peer {
 public:
  explicit FakePeer(MemberId id) : id_(id) {}
  MemberId member_id() const override { return id_; }
  void deliver(Texts texts, bool request_handled) override {
    for (const auto& t : texts) got.push_back(json::parse(*t.text));
    if (request_handled) ++handled_count;
  }
  void join_answered(std::shared_ptr<RoomHost> r) override {
    room = std::move(r);
    ++answers;
  }
  void detached(const RoomHost* r) override {
    if (room.get() == r) room.reset();
    ++detaches;
  }
  std::vector<json> of(const std::string& type) const {
    std::vector<json> out;
    for (const auto& j : got) {
      if (j["type"] == type) out.push_back(j);
    }
    return out;
  }

  std::vector<json> got;
  std::shared_ptr<RoomHost> room;
  int answers = 0, handled_count = 0, detaches = 0;

 private:
  MemberId id_;
};

GameSetup bomb_setup() {
  CreateMsg c;
  c.variant = "bomb";
  return std::get<GameSetup>(resolve_create(c));
}

ClientMessage msg(const json& j) {
  return std::get<ClientMessage>(parse_client_message(j.dump()));
}

class RegistryTest : public ::testing::Test {
 protected:
  void poll() {
    ioc_.restart();
    ioc_.poll();
  }
  net::io_context ioc_;
  Limits limits_;
  Metrics metrics_;
};

TEST_F(RegistryTest, CreateFindList) {
  Registry reg(ioc_, limits_, metrics_);
  auto a = reg.create(bomb_setup());
  auto b = reg.create(bomb_setup());
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->id(), b->id());
  std::string lower = a->id();
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(reg.find(lower), a);
  EXPECT_EQ(reg.find("ZZZZZZ"), nullptr);
  EXPECT_EQ(reg.find("../x"), nullptr);
  EXPECT_EQ(reg.list().size(), 2u);
  EXPECT_EQ(reg.counts().by_status[0], 2u);
  EXPECT_EQ(metrics_.rooms_created.load(), 2u);
}

TEST_F(RegistryTest, MaxRooms) {
  limits_.max_rooms = 2;
  Registry reg(ioc_, limits_, metrics_);
  EXPECT_TRUE(reg.create(bomb_setup()));
  EXPECT_TRUE(reg.create(bomb_setup()));
  EXPECT_EQ(reg.create(bomb_setup()), nullptr);
}

TEST_F(RegistryTest, HostDeliversToMembersAndCountsRefusals) {
  Registry reg(ioc_, limits_, metrics_);
  auto host = reg.create(bomb_setup());
  auto a = std::make_shared<FakePeer>(1);
  auto b = std::make_shared<FakePeer>(2);
  host->create_seat(a, "Ann", SeatChoice{SeatKind::Side, Side::First}, {});
  poll();
  EXPECT_EQ(a->room, host);
  EXPECT_EQ(a->of("joined").size(), 1u);
  host->request(b, msg({{"type", "join"}, {"room", host->id()}, {"seat", "any"}}), Clock::now());
  poll();
  EXPECT_EQ(b->room, host);
  EXPECT_EQ(a->of("state").back()["status"], "playing");
  EXPECT_EQ(host->summary().status, RoomStatus::Playing);
  EXPECT_EQ(host->summary().seats[1]->name, "Anonymous");

  json s = a->of("state").back();
  host->request(b, msg({{"type", "act"}, {"action", s["legal"][0]}, {"version", 0}}), Clock::now());
  host->request(a, msg({{"type", "act"}, {"action", s["legal"][0]}, {"version", 0}}), Clock::now());
  poll();
  EXPECT_EQ(b->of("error").back()["code"], "not_your_turn");
  EXPECT_EQ(metrics_.refusals(ErrorCode::NotYourTurn), 1u);
  EXPECT_EQ(metrics_.actions_accepted.load(), 1u);
  EXPECT_EQ(metrics_.move_to_broadcast.count(), 1u);
  EXPECT_EQ(a->handled_count, 1);
  EXPECT_EQ(b->handled_count, 1);
  EXPECT_EQ(b->of("state").back()["version"], 1);

  std::string record;
  host->record([&](std::string r) { record = std::move(r); });
  poll();
  EXPECT_EQ(json::parse(record)["actions"].size(), 1u);

  host->disconnect(2);
  poll();
  EXPECT_EQ(a->of("state").back()["players"]["water"]["connected"], false);
}

TEST_F(RegistryTest, EveryMemberOfACrowdedRoomGetsEachMessageOnceAndInOrder) {
  // Past eight members the host finds each one's batch by an index: all must still get every
  // message once, in order, and the sender its "handled".
  limits_.spectators_update = std::chrono::milliseconds(1);
  Registry reg(ioc_, limits_, metrics_);
  auto host = reg.create(bomb_setup());
  auto a = std::make_shared<FakePeer>(1);
  host->create_seat(a, "Ann", SeatChoice{SeatKind::Side, Side::First}, {});
  poll();
  std::vector<std::shared_ptr<FakePeer>> crowd;
  for (MemberId m = 2; m < 22; ++m) {
    crowd.push_back(std::make_shared<FakePeer>(m));
    const char* seat = m == 2 ? "any" : "spectator";
    host->request(crowd.back(), msg({{"type", "join"}, {"room", host->id()}, {"seat", seat}}),
                  Clock::now());
  }
  poll();
  // The spectators' joins sent the others no state; the count follows (spectators_update).
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  poll();
  EXPECT_EQ(metrics_.spectator_updates_coalesced.load(), 19u);
  for (int i = 0; i < 3; ++i) {
    host->request(a, msg({{"type", "chat"}, {"text", "hello " + std::to_string(i)}}), Clock::now());
  }
  poll();
  for (const auto& p : crowd) {
    const auto chats = p->of("chat");
    ASSERT_EQ(chats.size(), 3u) << "member " << p->member_id();
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(chats[static_cast<std::size_t>(i)]["text"], "hello " + std::to_string(i));
    EXPECT_EQ(p->of("state").back()["spectators"], 19);
  }
  EXPECT_EQ(a->of("chat").size(), 3u);
  EXPECT_EQ(a->handled_count, 3);
}

TEST_F(RegistryTest, SweepRetiresEmptyRoomsAfterTheirTtl) {
  Registry reg(ioc_, limits_, metrics_);
  auto host = reg.create(bomb_setup());
  const auto t0 = Clock::now();
  EXPECT_EQ(reg.sweep(t0), 0u);
  EXPECT_EQ(reg.sweep(t0 + limits_.empty_room_ttl - std::chrono::seconds(5)), 0u);
  EXPECT_EQ(reg.sweep(t0 + limits_.empty_room_ttl + std::chrono::seconds(5)), 1u);
  EXPECT_EQ(reg.find(host->id()), nullptr);
  EXPECT_EQ(metrics_.rooms_retired.load(), 1u);
  // A request that still reaches the retired room is refused.
  auto late = std::make_shared<FakePeer>(9);
  poll();
  host->request(late, msg({{"type", "join"}, {"room", host->id()}}), Clock::now());
  poll();
  EXPECT_EQ(late->of("error").back()["code"], "unknown_room");
  EXPECT_EQ(late->room, nullptr);
}

TEST_F(RegistryTest, SweepKeepsOccupiedRoomsAndRetiresFinishedOnes) {
  Registry reg(ioc_, limits_, metrics_);
  auto host = reg.create(bomb_setup());
  auto a = std::make_shared<FakePeer>(1);
  auto b = std::make_shared<FakePeer>(2);
  host->create_seat(a, "Ann", SeatChoice{SeatKind::Side, Side::First}, {});
  host->request(b, msg({{"type", "join"}, {"room", host->id()}}), Clock::now());
  poll();
  const auto t0 = Clock::now();
  EXPECT_EQ(reg.sweep(t0 + std::chrono::hours(10)), 0u)
      << "a game under way with people in it stays";
  host->request(a, msg({{"type", "resign"}}), Clock::now());
  poll();
  const auto t1 = Clock::now();
  EXPECT_EQ(reg.sweep(t1 + limits_.finished_room_ttl - std::chrono::seconds(5)), 0u);
  EXPECT_EQ(reg.sweep(t1 + limits_.finished_room_ttl + std::chrono::seconds(5)), 1u);
  poll();
  EXPECT_EQ(a->of("notice").back()["code"], "room_closed");
  EXPECT_EQ(b->of("notice").back()["code"], "room_closed");
  EXPECT_EQ(a->room, nullptr);
  EXPECT_EQ(b->room, nullptr);
}

TEST_F(RegistryTest, FinishedAndEmptyGoesSooner) {
  Registry reg(ioc_, limits_, metrics_);
  auto host = reg.create(bomb_setup());
  auto a = std::make_shared<FakePeer>(1);
  auto b = std::make_shared<FakePeer>(2);
  host->create_seat(a, "Ann", SeatChoice{SeatKind::Side, Side::First}, {});
  host->request(b, msg({{"type", "join"}, {"room", host->id()}}), Clock::now());
  host->request(a, msg({{"type", "resign"}}), Clock::now());
  host->disconnect(1);
  host->disconnect(2);
  poll();
  const auto t = Clock::now();
  EXPECT_EQ(reg.sweep(t + limits_.finished_empty_room_ttl - std::chrono::seconds(5)), 0u);
  EXPECT_EQ(reg.sweep(t + limits_.finished_empty_room_ttl + std::chrono::seconds(5)), 1u);
}

// The lobby: create and join find their room through the registry; every other request goes to
// the connection's room; refusals name the request and change nothing.

class LobbyTest : public RegistryTest {
 protected:
  LobbyOutcome route(std::shared_ptr<FakePeer> peer, const json& request,
                     const std::shared_ptr<RoomHost>& current = nullptr,
                     const std::string& address = "192.0.2.7") {
    return route_request(registry_, limits_,
                         {std::move(peer), msg(request), Clock::now(), current, address});
  }
  static LobbyRefusal refusal(LobbyOutcome o) {
    EXPECT_TRUE(std::holds_alternative<LobbyRefusal>(o));
    return std::get<LobbyRefusal>(std::move(o));
  }
  Registry registry_{ioc_, limits_, metrics_};
};

TEST_F(LobbyTest, CreateMakesARoomAndTheConnectionWaitsForItsAnswer) {
  auto a = std::make_shared<FakePeer>(1);
  auto out = route(a, {{"type", "create"}, {"variant", "bomb"}, {"seat", "fire"}, {"id", 5}});
  ASSERT_TRUE(std::holds_alternative<LobbyRouted>(out));
  const auto& to = std::get<LobbyRouted>(out);
  EXPECT_TRUE(to.awaits_join);
  ASSERT_TRUE(to.room);
  EXPECT_EQ(registry_.find(to.room->id()), to.room);
  poll();
  EXPECT_EQ(a->room, to.room);
  ASSERT_EQ(a->of("joined").size(), 1u);
  EXPECT_EQ(a->of("joined")[0]["seat"], "fire");
  EXPECT_EQ(a->of("joined")[0]["id"], 5);
}

TEST_F(LobbyTest, CreateWithABadSetupIsRefusedAndMakesNoRoom) {
  auto a = std::make_shared<FakePeer>(1);
  const auto r1 = refusal(route(a, {{"type", "create"}, {"variant", "chess"}, {"id", "x"}}));
  EXPECT_EQ(r1.error.code, ErrorCode::UnknownVariant);
  EXPECT_EQ(r1.request, "create");
  EXPECT_EQ(std::get<std::string>(r1.id), "x");
  const auto r2 = refusal(route(a, {{"type", "create"}, {"variant", "bomb"}, {"seat", "black"}}));
  EXPECT_EQ(r2.error.code, ErrorCode::BadMessage) << r2.error.message;
  EXPECT_EQ(registry_.size(), 0u);
  poll();
  EXPECT_TRUE(a->got.empty());
}

TEST_F(LobbyTest, CreatePastTheAddressLimitNamesTheLimit) {
  limits_.max_rooms_per_address = 1;
  auto a = std::make_shared<FakePeer>(1);
  ASSERT_TRUE(
      std::holds_alternative<LobbyRouted>(route(a, {{"type", "create"}, {"variant", "bomb"}})));
  poll();  // the room has its creator in it now, so it cannot make way
  const auto r = refusal(route(a, {{"type", "create"}, {"variant", "bomb"}}));
  EXPECT_EQ(r.error.code, ErrorCode::TooManyRooms);
  EXPECT_NE(r.error.message.find("already has 1 rooms"), std::string::npos) << r.error.message;
  // Another address is not counted against this one.
  EXPECT_TRUE(std::holds_alternative<LobbyRouted>(
      route(a, {{"type", "create"}, {"variant", "bomb"}}, nullptr, "192.0.2.8")));
  EXPECT_EQ(registry_.size(), 2u);
}

TEST_F(LobbyTest, JoinFindsTheRoomByItsCodeAndRefusesAnUnknownOne) {
  auto a = std::make_shared<FakePeer>(1);
  auto b = std::make_shared<FakePeer>(2);
  auto made = std::get<LobbyRouted>(route(a, {{"type", "create"}, {"variant", "classic"}})).room;
  poll();
  const auto r = refusal(route(b, {{"type", "join"}, {"room", "ZZZZZZ"}}));
  EXPECT_EQ(r.error.code, ErrorCode::UnknownRoom);
  EXPECT_EQ(r.request, "join");
  EXPECT_NE(r.error.message.find("ZZZZZZ"), std::string::npos);

  auto out = route(b, {{"type", "join"}, {"room", made->id()}, {"seat", "any"}});
  ASSERT_TRUE(std::holds_alternative<LobbyRouted>(out));
  EXPECT_EQ(std::get<LobbyRouted>(out).room, made);
  EXPECT_TRUE(std::get<LobbyRouted>(out).awaits_join);
  poll();
  EXPECT_EQ(b->room, made);
  EXPECT_EQ(b->answers, 1);
  EXPECT_EQ(a->of("state").back()["status"], "playing");
}

TEST_F(LobbyTest, OtherRequestsGoToTheConnectionsRoomOrAreRefusedOutsideOne) {
  auto a = std::make_shared<FakePeer>(1);
  const auto r = refusal(route(a, {{"type", "chat"}, {"text", "hello"}}));
  EXPECT_EQ(r.error.code, ErrorCode::UnknownRoom);
  EXPECT_EQ(r.request, "chat");

  auto room = std::get<LobbyRouted>(route(a, {{"type", "create"}, {"variant", "bomb"}})).room;
  poll();
  auto out = route(a, {{"type", "chat"}, {"text", "hello"}}, room);
  ASSERT_TRUE(std::holds_alternative<LobbyRouted>(out));
  EXPECT_FALSE(std::get<LobbyRouted>(out).awaits_join);
  EXPECT_EQ(std::get<LobbyRouted>(out).room, room);
  poll();
  ASSERT_EQ(a->of("chat").size(), 1u);
  EXPECT_EQ(a->of("chat")[0]["text"], "hello");
  EXPECT_EQ(a->handled_count, 1);
}

}  // namespace
}  // namespace bc::server

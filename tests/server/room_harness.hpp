// The socket-free room harness: client messages in, messages out. It delivers a room's outgoing
// messages the way RoomHost does (a broadcast reaches every member after the change). Shared by the
// room tests (room_test.cpp, one_screen_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "server/room/room.hpp"
#include "server/wire/views.hpp"

namespace bc::server::room_harness {

using json = nlohmann::json;

constexpr MemberId A = 1, B = 2, C = 3, D = 4;

inline GameSetup setup_of(const json& create) {
  auto parsed = parse_client_message(create.dump());
  auto& msg = std::get<ClientMessage>(parsed);
  auto s = resolve_create(std::get<CreateMsg>(msg.body));
  if (auto* e = std::get_if<Error>(&s)) throw std::runtime_error(e->message);
  return std::get<GameSetup>(std::move(s));
}

class RoomTest : public ::testing::Test {
 protected:
  void make(const json& create = {{"type", "create"}, {"variant", "bomb"}}, Limits limits = {}) {
    room_ = std::make_unique<Room>(
        "K7QF2M", setup_of(create), limits,
        [this] {
          char buf[40];
          std::snprintf(buf, sizeof buf, "%032d", ++tokens_);
          return std::string(buf);
        },
        7, &time_);
  }

  // The creator (A) takes `seat`; returns its `joined`.
  json create(const std::string& seat = "fire",
              const json& create = {{"type", "create"}, {"variant", "bomb"}}) {
    make(create, limits_);
    auto choice = std::get<SeatChoice>(resolve_seat(room_->game().variant(), seat, true));
    // What the lobby adds: a one-screen room's names.
    auto parsed = parse_client_message(create.dump());
    choice.names = std::get<CreateMsg>(std::get<ClientMessage>(parsed).body).names;
    deliver(A, room_->seat_creator(A, "Ann", choice, RequestId{std::string("c1")}));
    return last_of(A, "joined");
  }

  // A fire, B water: a game being played.
  void two_players(const json& create_msg = {{"type", "create"}, {"variant", "bomb"}}) {
    create(side_name(setup_of(create_msg).variant, Side::First).data(), create_msg);
    send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}});
    clear();
  }

  Outcome send(MemberId m, const json& msg, std::string_view address = {}) {
    auto parsed = parse_client_message(msg.dump());
    if (auto* e = std::get_if<ParseError>(&parsed)) {
      Outcome o;
      o.refused = e->error.code;
      o.messages.push_back(Outgoing{
          m, std::make_shared<const std::string>(error_json(e->id, e->error, e->type)), false});
      deliver(m, o);
      return o;
    }
    Outcome o = room_->handle(m, std::get<ClientMessage>(parsed), address);
    deliver(m, o);
    return o;
  }

  // What RoomHost::dispatch does with the members' connections.
  void deliver(MemberId sender, const Outcome& o) {
    if (o.sender == Membership::Joined) members_.insert(sender);
    if (o.sender == Membership::Left) members_.erase(sender);
    for (const auto& out : o.messages) {
      json j = json::parse(*out.full());
      // Each message says what it is: a connection's congestion rules go by that, not its text.
      const std::string type = j.value("type", "");
      const MessageKind kind = type == "state"  ? MessageKind::State
                               : type == "chat" ? MessageKind::Chat
                                                : MessageKind::Other;
      EXPECT_EQ(static_cast<int>(out.kind), static_cast<int>(kind)) << *out.full();
      if (out.to) {
        inbox_[*out.to].push_back(j);
        if (out.detach) members_.erase(*out.to);
      } else {
        for (auto m : members_) inbox_[m].push_back(j);
      }
    }
  }

  std::vector<json> of(MemberId m, const std::string& type) const {
    std::vector<json> out;
    auto it = inbox_.find(m);
    if (it == inbox_.end()) return out;
    for (const auto& j : it->second) {
      if (j["type"] == type) out.push_back(j);
    }
    return out;
  }
  json last_of(MemberId m, const std::string& type) const {
    auto v = of(m, type);
    if (v.empty()) throw std::runtime_error("no " + type + " for member " + std::to_string(m));
    return v.back();
  }
  std::string error_code(MemberId m) const { return last_of(m, "error")["code"]; }
  json state() const { return json::parse(room_->state_text()); }
  void clear() { inbox_.clear(); }

  // Plays the first legal action as whoever is to move.
  Outcome play_first() {
    json s = state();
    auto a_side = room_->seat_of(A);
    MemberId mover =
        a_side && side_name(room_->game().variant(), *a_side) == s["turn"].get<std::string>() ? A
                                                                                              : B;
    return send(mover, {{"type", "act"}, {"action", s["legal"][0]}, {"version", s["version"]}});
  }

  // Plays `action` (a JSON action) for m at the current version.
  Outcome act(MemberId m, const json& action) {
    return send(m, {{"type", "act"}, {"action", action}, {"version", state()["version"]}});
  }
  // What RoomHost does once a state is out: the side to move's turn begins.
  void sent() { room_->start_clock(); }

  FakeTime time_;
  std::unique_ptr<Room> room_;
  Limits limits_;  // for create()
  int tokens_ = 0;
  std::set<MemberId> members_;
  std::map<MemberId, std::vector<json>> inbox_;
};

}  // namespace bc::server::room_harness

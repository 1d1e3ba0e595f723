// A room: one game, its two seats and its spectators. Socket-free and single-threaded: the network
// layer runs every call of one room on that room's strand, so nothing here locks. Each call returns
// the messages to send, so the whole of the room's judgement is testable without a network.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "server/limits.hpp"
#include "server/protocol.hpp"

namespace bc::server {

using MemberId = std::uint64_t;  // one per connection, unique in the server

struct Outgoing {
  std::optional<MemberId> to;               // nullopt: every member of the room
  std::shared_ptr<const std::string> text;  // serialized once, shared by every recipient
  bool detach = false;                      // after sending, `to` is no longer a member
};

enum class Membership : std::uint8_t { Unchanged, Joined, Left };

struct Outcome {
  std::vector<Outgoing> messages;
  std::optional<ErrorCode> refused;  // the request was refused (and nothing changed)
  bool action_accepted = false;      // an `act` was applied
  bool finished = false;             // the game ended with this request
  Membership sender = Membership::Unchanged;
};

// 128 random bits as 32 hex digits, from the operating system's CSPRNG.
std::string random_token();

class Room {
 public:
  using TokenSource = std::function<std::string()>;

  Room(std::string id, GameSetup setup, Limits limits = {}, TokenSource tokens = random_token,
       std::uint64_t seed = std::random_device{}());

  // The creator takes a seat (or watches) in the room just made for them.
  Outcome seat_creator(MemberId m, std::string_view name, SeatChoice seat, const RequestId& id);
  // Every request after create: join, act, resign, draws, rematch, chat, leave, sync.
  Outcome handle(MemberId m, const ClientMessage& msg);
  // The connection is gone: a player's seat stays theirs, shown as disconnected.
  Outcome disconnect(MemberId m);
  // The room is being retired: everyone gets a notice and is detached.
  Outcome close(std::string_view why);

  const std::string& id() const { return id_; }
  const Game& game() const { return game_; }
  RoomStatus status() const;
  std::int64_t version() const { return version_; }
  int game_number() const { return game_number_; }
  const std::vector<LoggedAction>& log() const { return log_; }
  std::size_t members() const { return members_.size(); }
  std::size_t connected_players() const;
  bool is_member(MemberId m) const { return members_.count(m) != 0; }
  std::optional<Side> seat_of(MemberId m) const;

  std::string state_text() const;
  std::string record_text() const;
  RoomSummary summary() const;

 private:
  struct Seat {
    std::string name;
    std::string token;
    std::optional<MemberId> conn;  // the live connection holding the seat, if any
  };
  struct Member {
    std::string name;
    std::optional<Side> side;  // nullopt: a spectator
  };

  Outcome handle_join(MemberId m, const RequestId& id, const JoinMsg& j);
  Outcome handle_act(MemberId m, const RequestId& id, const ActMsg& a);
  Outcome handle_resign(MemberId m, const RequestId& id);
  Outcome handle_offer_draw(MemberId m, const RequestId& id);
  Outcome handle_answer_draw(MemberId m, const RequestId& id, const AnswerDrawMsg& a);
  Outcome handle_rematch(MemberId m, const RequestId& id);
  Outcome handle_chat(MemberId m, const RequestId& id, const ChatMsg& c);
  Outcome handle_leave(MemberId m, const RequestId& id);

  // Seats member m on side s (a fresh token) or as a spectator; replies joined + state.
  Outcome take_seat(MemberId m, std::string name, std::optional<Side> side, const RequestId& id);
  // Drops m's membership; a seat keeps its token (free_seat: clears it too).
  void remove_member(MemberId m, bool free_seat);
  // A check that only players pass, and that the game is on: not_a_player / game_over /
  // not_started, in that order.
  std::optional<Error> check_player_in_game(MemberId m) const;
  bool seated(Side s) const { return seats_[static_cast<std::size_t>(index(s))].has_value(); }
  bool started() const { return version_ > 0 || game_number_ > 1; }
  std::string seat_label(std::optional<Side> s) const;

  Outgoing to(MemberId m, std::string text) const;
  Outgoing everyone(std::string text) const;
  Outcome refuse(MemberId m, const RequestId& id, std::string_view request, ErrorCode code,
                 std::string message) const;
  void add_ok(Outcome& o, MemberId m, const RequestId& id, std::string_view request) const;
  void add_state(Outcome& o) const;

  std::string id_;
  GameSetup setup_;
  Limits limits_;
  TokenSource tokens_;
  std::mt19937_64 rng_;

  Game game_;
  std::int64_t version_ = 0;
  int game_number_ = 1;
  int moves_ = 0;
  std::optional<LastTurn> last_;
  std::vector<LoggedAction> log_;
  std::optional<Side> draw_offer_;
  std::array<bool, 2> rematch_{false, false};

  std::array<std::optional<Seat>, 2> seats_;
  std::map<MemberId, Member> members_;
};

}  // namespace bc::server

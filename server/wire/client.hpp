// Client messages (docs/PROTOCOL.md), parsed from text into typed values but not yet checked
// against a room or the rules.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bc/core.hpp"
#include "server/game/clock.hpp"
#include "server/wire/errors.hpp"
#include "server/wire/identity.hpp"

namespace bc::server {

// How a member gets states (docs/PROTOCOL.md, "Compact states"): always in full; a delta per
// change after the first (`"compact":true` or 1); or deltas with short actions (`"compact":2`).
enum class StateForm : std::uint8_t { Full = 0, Delta = 1, ShortDelta = 2 };

// An option value as sent: an integer, a boolean, or anything else (refused as bad_options).
using OptionValue = std::variant<std::monostate, std::int64_t, bool>;

struct RawPiece {
  Square at;
  std::string side;
  std::string kind;  // "" when absent: normal
  std::string rank;  // "" when absent: man
};

struct RawPosition {
  std::vector<RawPiece> pieces;
  std::string turn;                                // "" when absent: the first side
  std::vector<std::pair<std::string, int>> bombs;  // kaboom: side name -> bombs left
  bool has_bombs = false;
};

// Extension: `"opponent":{"ai":L}` seats the computer (level L) in the seat the creator does not
// take; with `"seat":"spectator"` the computer takes both seats (`"ai2"`: the second side's level).
struct Opponent {
  int ai = 0;   // 0: none
  int ai2 = 0;  // 0: same as ai
};
inline constexpr int kComputerMinLevel = 1;
inline constexpr int kComputerMaxLevel = 8;

inline constexpr int kMaxRating = 4000;  // a `range`'s bounds: 0..4000

struct CreateMsg {
  std::string variant;
  std::optional<Opponent> opponent;
  std::vector<std::pair<std::string, OptionValue>> options;
  std::string name;
  std::string seat = "random";
  // A one-screen room's names by side name (docs/PROTOCOL.md, "One screen"); checked against the
  // variant's sides when the room is made.
  std::vector<std::pair<std::string, std::string>> names;
  std::optional<RawPosition> position;
  std::optional<std::string> position_error;  // `position` was malformed: refused as bad_position
  StateForm compact = StateForm::Full;
  std::optional<TimeControl> clock;        // none: an untimed game
  std::optional<std::string> clock_error;  // `clock` out of range: refused as bad_options
  // Not on the wire. Cluster: the id whose lease this node took before making the room (so that
  // no join on another node can take it first); empty: the registry picks one.
  std::string reserved_id;
  // Extension (docs/PLAYERS.md): a rated game, which needs a clock and two signed-in players;
  // `range`: the ratings its opponent may have (an open seek), [min, max].
  bool rated = false;
  std::optional<std::pair<int, int>> range = std::nullopt;
  std::optional<std::string> range_error = std::nullopt;  // out of bounds: refused as bad_options
  // Not on the wire: the signed-in player who sent it, from the connection's session cookie.
  std::optional<Identity> who = std::nullopt;
  // Not on the wire: a pairing's room keeps the creator's opponent's seat for this player id.
  std::string keep_for = {};
};

struct JoinMsg {
  std::string room;
  std::string seat = "any";
  std::string name;
  std::optional<std::string> token;
  StateForm compact = StateForm::Full;
  std::optional<Identity> who = std::nullopt;  // not on the wire: as CreateMsg's
};

inline constexpr std::int64_t kMaxClaimedLagMs = 60'000;
struct ActMsg {
  std::optional<Action> action;  // nullopt: a well-formed object that names no action
  std::int64_t version = 0;
  std::int64_t lag = 0;  // the client's estimate of its network lag, ms (clocked games)
};

struct ResignMsg {};
struct OfferDrawMsg {};
struct AnswerDrawMsg {
  bool accept = false;
};
struct RematchMsg {};
struct ChatMsg {
  std::string text;
};
struct LeaveMsg {};
struct SyncMsg {};  // extension: send me the current state
// extension: the server's time, for a client's clocks. Answered by the connection itself.
struct PingMsg {
  std::optional<double> t;          // the client's own time, echoed back
  std::optional<std::int64_t> lag;  // the client's estimate of its lag, ms, for `presence`
};
// extension: take back the sender's last turn, by the opponent's consent.
struct TakebackMsg {};
struct AnswerTakebackMsg {
  bool accept = false;
};
// extension: the opponent left a clocked game: win (or draw) by abandonment.
struct ClaimMsg {
  bool draw = false;
};

// extension: the values of a position and its turns (docs/PROTOCOL.md, "Analysis"). With `free`
// any position; otherwise the sender's room's game (`game`, default the current one) at `version`
// (default the last), or every version of it (`history`).
struct AnalyseMsg {
  std::optional<std::int64_t> version;
  std::optional<std::int64_t> game;
  bool history = false;
  bool moves = true;
  std::optional<CreateMsg> free;  // variant, options and position, read as create's
  // Values for watchers: the history a few turns behind a live game, from version `from` on.
  bool lagged = false;
  std::optional<std::int64_t> from = std::nullopt;
};

// extension: wait in a quick-pairing pool (docs/PLAYERS.md); none leaves the pool. Answered by the
// connection (`pool`), then `paired` when a pairing wave seats the player.
struct PoolMsg {
  std::optional<std::string> pool;
};

using MessageBody = std::variant<CreateMsg, JoinMsg, ActMsg, ResignMsg, OfferDrawMsg, AnswerDrawMsg,
                                 RematchMsg, ChatMsg, LeaveMsg, SyncMsg, PingMsg, ClaimMsg,
                                 TakebackMsg, AnswerTakebackMsg, AnalyseMsg, PoolMsg>;

struct ClientMessage {
  RequestId id;
  MessageBody body;
};

std::string_view message_type(const MessageBody& b);  // "create", "join", ...

// A refusal found while parsing: what to answer, and the request's id and type when known.
struct ParseError {
  Error error;
  RequestId id;
  std::string type;  // "" when unknown
};

// Parses one text frame. Never throws; every field access is guarded by type.
std::variant<ClientMessage, ParseError> parse_client_message(std::string_view text);
// The two ways it reads (for tests): an `act` in its common narrow form, without a JSON tree
// (nullopt: any other text), and every message through the tree.
std::optional<ClientMessage> parse_act_fast(std::string_view text);
std::variant<ClientMessage, ParseError> parse_client_message_tree(std::string_view text);

}  // namespace bc::server

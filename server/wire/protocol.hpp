// The wire protocol (docs/PROTOCOL.md): the one place where JSON meets core types. Client text is
// parsed into typed messages here, and every server message is serialized here, so nothing else in
// the server includes nlohmann/json or names a JSON field.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "bc/core.hpp"
#include "server/game/clock.hpp"

namespace bc::server {

inline constexpr int kProtocolVersion = 1;
inline constexpr std::string_view kServerName = "bombcheckers";
// The project's version, from CMake's project() (one place); "Server:" headers say the same.
inline constexpr std::string_view kServerVersion = BC_VERSION;
inline constexpr std::string_view kServerHeader = "bombcheckers/" BC_VERSION;

// ---------------------------------------------------------------------------------------------
// Errors

// How a member gets states (docs/PROTOCOL.md, "Compact states"): always in full; a delta per
// change after the first (`"compact":true` or 1); or deltas with short actions (`"compact":2`).
enum class StateForm : std::uint8_t { Full = 0, Delta = 1, ShortDelta = 2 };

enum class ErrorCode : std::uint8_t {
  BadMessage,      // not JSON, not an object, no string `type`, a field of the wrong type
  UnknownType,     // `type` names no request
  UnknownRoom,     // no such room, or the sender is in no room
  UnknownVariant,  // create: `variant` names no game
  BadOptions,      // create: an unknown option or a value out of range
  BadPosition,     // create: the custom `position` is refused
  SeatTaken,       // join: that side is someone else's
  NotAPlayer,      // a player's request from a spectator
  NotYourTurn,     // act while the other side is to move
  IllegalAction,   // act: the action is not in `legal`
  StaleVersion,    // act: `version` is not the current one
  GameOver,        // act, resign, draw requests after the game ended
  BadToken,        // join: the token takes back no seat of the room
  RateLimited,     // too many messages; this one was dropped
  TooLarge,        // a message or a chat text over its limit
  // Extensions (docs/PROTOCOL.md says when each is sent).
  NotStarted,          // resign / draw / act while a seat is still empty
  NoDrawOffer,         // answer_draw without an offer from the opponent
  GameNotOver,         // rematch while the game is still on
  ServerFull,          // create when the server holds its maximum of rooms
  ServerError,         // the server could not store an accepted request (docs/PERSISTENCE.md)
  TooManyRooms,        // create when the sender's address already holds its maximum of rooms
  TooManySpectators,   // join as spectator when the sender's address already has its spectators
                       // there
  CannotClaim,         // claim while the opponent is here, or before its grace has passed
  NoTakeback,          // takeback with no turn of the sender's to take back
  NoTakebackOffer,     // answer_takeback without a proposal from the opponent
  AnalysisNotAllowed,  // analyse of a live game between two people (or of its position)
};
inline constexpr std::size_t kErrorCodeCount =
    static_cast<std::size_t>(ErrorCode::AnalysisNotAllowed) + 1;
std::string_view error_code_name(ErrorCode c);

struct Error {
  ErrorCode code = ErrorCode::BadMessage;
  std::string message;  // plain words for a person
};

// A client's `id` (string or number), copied onto the direct reply.
using RequestId = std::variant<std::monostate, std::string, std::int64_t, std::uint64_t, double>;

// ---------------------------------------------------------------------------------------------
// Client messages, parsed but not yet checked against a room or the rules.

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
};

struct JoinMsg {
  std::string room;
  std::string seat = "any";
  std::string name;
  std::optional<std::string> token;
  StateForm compact = StateForm::Full;
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
};

using MessageBody = std::variant<CreateMsg, JoinMsg, ActMsg, ResignMsg, OfferDrawMsg, AnswerDrawMsg,
                                 RematchMsg, ChatMsg, LeaveMsg, SyncMsg, PingMsg, ClaimMsg,
                                 TakebackMsg, AnswerTakebackMsg, AnalyseMsg>;

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

// ---------------------------------------------------------------------------------------------
// Resolving a create request against core (unknown_variant -> bad_options -> bad_position).

struct GameSetup {
  VariantId variant = VariantId::Bomb;
  Options options{};
  std::optional<Position> position;  // a custom start, kept so a rematch starts from it again
  Game game;                         // the start
  std::optional<TimeControl> clock;  // none: untimed
  bool one_screen = false;           // both seats are one browser's (create's "seat":"both")
};
std::variant<GameSetup, Error> resolve_create(const CreateMsg& m);
// A new game from a setup (a rematch): same variant, options and start.
Game fresh_game(const GameSetup& s);

enum class SeatKind : std::uint8_t { Side, Random, Any, Spectator, Both };
struct SeatChoice {
  SeatKind kind = SeatKind::Any;
  Side side = Side::First;
  std::vector<std::pair<std::string, std::string>> names = {};  // Both: create's `names`, by side
};
// `create` takes a side, random, spectator or both (one screen); `join` a side, any or spectator
// ("random" is read as "any" there, so a client that mixes them up still gets a seat).
std::variant<SeatChoice, Error> resolve_seat(VariantId v, std::string_view seat, bool for_create);

// Removes control characters (C0, DEL, C1) and surrounding spaces; counts code points.
std::string clean_text(std::string_view s);
std::size_t utf8_length(std::string_view s);
// A display name: cleaned, cut to max_len code points, "Anonymous" when empty.
std::string clean_name(std::string_view s, std::size_t max_len);

// ---------------------------------------------------------------------------------------------
// Server messages

enum class RoomStatus : std::uint8_t { Waiting, Playing, Finished };
std::string_view status_name(RoomStatus s);

struct PlayerView {
  std::string name;
  bool connected = false;
  std::optional<int> ai;  // the computer's level, for a computer seat
  friend bool operator==(const PlayerView&, const PlayerView&) = default;
};

// Everything that happened in the last turn (or the turn so far, when mid-turn).
struct LastTurn {
  Side side = Side::First;
  std::vector<Action> actions;
  std::vector<Square> captured;
  std::vector<Square> exploded;
  std::vector<Square> promoted;
  bool complete = false;
  friend bool operator==(const LastTurn&, const LastTurn&) = default;
};

// A state's clocks (docs/PROTOCOL.md, "Clocks"): the times left as of `at` (the server's Unix ms
// when the state was made), whose time runs from then, and the first turns' abort deadline.
struct ClockView {
  TimeControl control;
  std::array<std::int64_t, 2> left{};
  std::optional<Side> running;
  std::int64_t at = 0;
  std::optional<std::int64_t> abort_at;  // Unix ms
  friend bool operator==(const ClockView&, const ClockView&) = default;
};

// A player whose connections are all gone, in a clocked game with a person against them: from
// `claim_at` (Unix ms) the opponent may claim the game.
struct AwayView {
  Side side = Side::First;
  std::int64_t since = 0;
  std::int64_t claim_at = 0;
  friend bool operator==(const AwayView&, const AwayView&) = default;
};

struct StateView {
  std::string_view room;
  const Game* game = nullptr;
  std::int64_t version = 0;
  RoomStatus status = RoomStatus::Waiting;
  const std::optional<LastTurn>* last = nullptr;
  std::array<std::optional<PlayerView>, 2> players;
  int spectators = 0;
  int moves = 0;        // completed turns
  int game_number = 1;  // 1, then 2 after the first rematch, ...
  std::optional<Side> draw_offer;
  std::array<bool, 2> rematch{false, false};
  bool with_legal = true;            // false for the replay's positions: nobody moves from them
  const ClockView* clock = nullptr;  // null: an untimed game (or a replayed position)
  std::optional<AwayView> away;
  std::optional<Side> takeback_offer;
  const std::vector<std::int64_t>* hints = nullptr;  // versions analysed against the computer
  bool one_screen = false;
  // The game's pieces and legal turns when already worked out (StateSnapshot); null: from `game`.
  const std::vector<Piece>* pieces = nullptr;
  const std::vector<Action>* legal = nullptr;
};

// A takeback: at `version` the game went back to the position of version `to`.
struct TakeBack {
  std::int64_t version = 0;
  std::int64_t to = 0;
  friend bool operator==(const TakeBack&, const TakeBack&) = default;
};

struct LoggedAction {
  std::int64_t version = 0;  // the version this action produced (1 for the first)
  Side side = Side::First;
  Action action;
};

struct RecordView {
  std::string_view room;
  const GameSetup* setup = nullptr;
  const Game* game = nullptr;
  RoomStatus status = RoomStatus::Waiting;
  std::int64_t version = 0;
  int game_number = 1;
  std::array<std::optional<PlayerView>, 2> players;
  const std::vector<LoggedAction>* actions = nullptr;  // the game's (a takeback's undone ones not)
  const std::vector<TakeBack>* takebacks = nullptr;
  const std::vector<std::int64_t>* hints = nullptr;  // versions analysed (hints), none: []
  int games = 1;                // games in the room so far (the last is the current one)
  std::int64_t started_ms = 0;  // Unix ms; 0: unknown
  std::int64_t ended_ms = 0;    // 0: not over (or unknown)
};

struct RoomSummary {
  std::string id;
  VariantId variant = VariantId::Bomb;
  RoomStatus status = RoomStatus::Waiting;
  std::array<std::optional<PlayerView>, 2> seats;
  int spectators = 0;
  std::int64_t version = 0;
  int game_number = 1;
  std::optional<TimeControl> clock;
  Options options{};
  bool one_screen = false;
};

struct Limits;  // server/wire/limits.hpp

// `node`: serve --cluster's node id, sent as `node` (nothing when empty).
std::string welcome_json(const Limits& limits, std::string_view node = {});
std::string joined_json(const RequestId& id, std::string_view room, std::string_view seat,
                        const std::optional<std::string>& token, bool one_screen = false);
// The non-default options in words, "" when all are defaults (docs/PROTOCOL.md, "Options in
// words").
std::string options_text(VariantId v, const Options& options);
std::string error_json(const RequestId& id, const Error& e, std::string_view request);
std::string ok_json(const RequestId& id, std::string_view request);
std::string notice_json(std::string_view code, std::string_view message);
std::string chat_json(std::string_view from, std::string_view seat, std::string_view text);
std::string presence_json(VariantId v, const std::array<PlayerView, 2>& players,
                          const std::array<std::optional<std::int64_t>, 2>& lag);
std::string takeback_offer_json(VariantId v, Side from);
std::string takeback_declined_json(VariantId v, Side from);
std::string pong_json(const RequestId& id, std::optional<double> t, std::int64_t now_unix_ms);
std::string draw_offer_json(VariantId v, Side from);
std::string draw_declined_json(VariantId v, Side from);
std::string rematch_offer_json(VariantId v, Side from);
std::string state_json(const StateView& s);
std::string record_json(const RecordView& r);
// GET /api/games/{room}/positions: {"room","game","variant","positions":[state, ...]}, the states
// (state_json texts, version 0 first) spliced in as they are.
std::string positions_json(std::string_view room, VariantId v, int game_number,
                           const std::vector<std::string>& states);
std::string rooms_json(const std::vector<RoomSummary>& rooms);

std::string room_url(std::string_view room);  // "/r/K7QF2M"

// HTTP API bodies.
struct Health {
  bool accepting = true;
  std::size_t rooms = 0;
  std::int64_t connections = 0;
  std::int64_t uptime_seconds = 0;
  // serve --cluster: this node's id, whether Redis answered its last renewal (a node without it
  // takes no rooms: unhealthy, 503), and the live nodes.
  struct Cluster {
    std::string node;
    bool redis = false;
    std::size_t nodes = 0;
  };
  std::optional<Cluster> cluster;
};
std::string health_json(const Health& h);
std::string http_error_json(std::string_view code, std::string_view message);

// ---------------------------------------------------------------------------------------------
// Persistence (docs/PERSISTENCE.md): the JSON texts kept in the store's rows, and game records
// read back from a file.

// {"variant":..,"options":{..},"position":{..}}: the create request's fields that made the room.
std::string setup_json(const GameSetup& s);
std::variant<GameSetup, Error> parse_setup_json(std::string_view text);
// {"winner":S|null,"reason":R}, or "" for no result.
std::string result_text(VariantId v, const std::optional<Result>& r);
// nullopt: malformed; otherwise the result ("" gives no result).
std::optional<std::optional<Result>> parse_result_text(VariantId v, std::string_view text);
// Player names by side: {"fire":"Ross","water":null}.
using SeatNames = std::array<std::optional<std::string>, 2>;
std::string names_json(VariantId v, const SeatNames& names);
SeatNames parse_names_json(VariantId v, std::string_view text);

// A seat as the store keeps it: the token only as its SHA-256 ("" in a record read from a file).
struct StoredSeat {
  std::string name;
  std::string token_hash;
};

// One game of a room as it was kept: by the store (persist.cpp's image_of) or in a record file
// served by /api/games/{room} (parse_record_json). Everything a room is rebuilt from by replaying
// the log through core (Room::restore); the one record type of the server.
struct GameRecord {
  explicit GameRecord(GameSetup s) : setup(std::move(s)) {}
  std::string room;  // "" when a record file does not say
  GameSetup setup;
  int game_number = 1;
  int games = 1;                                   // games in the room so far
  std::array<std::optional<StoredSeat>, 2> seats;  // by side, as of this game
  std::vector<LoggedAction> actions;               // in order (a file's: up to a malformed entry)
  std::optional<Result> result;  // the game row's result (resignations and agreed draws live here)
  std::int64_t created_ms = 0;   // 0: not known
  std::int64_t started_ms = 0;
  std::int64_t ended_ms = 0;
  std::int64_t version = -1;  // a record file's own `version` (its last action's); -1: not given
  // Clocked games: the times left after the last action (none: each side's base).
  std::optional<std::array<std::int64_t, 2>> clock_left;
  std::vector<TakeBack> takebacks;  // in version order
  std::vector<std::int64_t> hints;  // versions analysed while played against the computer
  std::optional<std::pair<std::int64_t, std::string>> malformed;  // a file's first bad entry
};
std::variant<GameRecord, std::string> parse_record_json(std::string_view text);

// Building blocks, exposed for tests.
std::string action_json(const Action& a);
std::optional<Action> parse_action_text(std::string_view json);
// A takeback as the store keeps it in an action row: {"kind":"takeback","to":N}.
std::string takeback_row_json(std::int64_t to);
std::optional<std::int64_t> parse_takeback_row(std::string_view json);
// A hint (an analysis of version N during a game against the computer) as the store keeps it: a
// row of its own at version -1 - N (versions of actions are never negative), {"kind":"hint"}.
std::string hint_row_json(std::int64_t version);
std::optional<std::int64_t> parse_hint_row(std::string_view json, std::int64_t row_version);

}  // namespace bc::server

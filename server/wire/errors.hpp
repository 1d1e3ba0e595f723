// The protocol's name and version, its error codes and a request's id (docs/PROTOCOL.md,
// "Errors"). Every server message and every refusal is written in server/wire/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace bc::server {

inline constexpr int kProtocolVersion = 1;
inline constexpr std::string_view kServerName = "bombcheckers";
// The project's version, from CMake's project() (one place); "Server:" headers say the same.
inline constexpr std::string_view kServerVersion = BC_VERSION;
inline constexpr std::string_view kServerHeader = "bombcheckers/" BC_VERSION;

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
  SignInRequired,      // a rated game, or a pool, from a connection with no player (PLAYERS.md)
  UnknownPool,         // pool: no such pool
  RatingOutOfRange,    // join: a seek's seat, from a player whose rating is outside its range
};
inline constexpr std::size_t kErrorCodeCount =
    static_cast<std::size_t>(ErrorCode::RatingOutOfRange) + 1;
std::string_view error_code_name(ErrorCode c);

struct Error {
  ErrorCode code = ErrorCode::BadMessage;
  std::string message;  // plain words for a person
};

// A client's `id` (string or number), copied onto the direct reply.
using RequestId = std::variant<std::monostate, std::string, std::int64_t, std::uint64_t, double>;

}  // namespace bc::server

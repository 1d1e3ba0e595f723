// A create request resolved against core (a game's setup), seat choices, and the cleaning of
// client text (names, chat).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "bc/core.hpp"
#include "server/game/clock.hpp"
#include "server/wire/client.hpp"
#include "server/wire/errors.hpp"

namespace bc::server {

struct GameSetup {
  VariantId variant = VariantId::Bomb;
  Options options{};
  std::optional<Position> position;  // a custom start, kept so a rematch starts from it again
  Game game;                         // the start
  std::optional<TimeControl> clock;  // none: untimed
  bool one_screen = false;           // both seats are one browser's (create's "seat":"both")
  bool rated = false;                // docs/PLAYERS.md: its result moves both players' ratings
  std::optional<std::pair<int, int>> range = std::nullopt;  // a seek: the opponent's ratings
  // A pool's pairing: the player id the creator's opponent's seat is kept for. Set by the server
  // (create's keep_for), never read from a client's create; kept with the setup across restarts.
  std::string kept_for = {};
};
std::variant<GameSetup, Error> resolve_create(const CreateMsg& m);
// A new game from a setup (a rematch): same variant, options and start.
Game fresh_game(const GameSetup& s);
// What a game is rated in: "bomb:blitz" (the variant and its clock's speed), the variant alone
// without a clock.
std::string perf_of(const GameSetup& s);

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

}  // namespace bc::server

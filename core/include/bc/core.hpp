// bombcheckers rules core: the only judge of the rules of every variant (RULES.md).
// Plain C++20 and the standard library: no I/O, JSON, threads or clocks. A Game is a value; every
// operation is const and returns a new value.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace bc {

// ---------------------------------------------------------------------------------------------
// Names and small values

enum class VariantId : std::uint8_t { Bomb, Classic, TripleKing, Kaboom };
inline constexpr std::array<VariantId, 4> kAllVariants{VariantId::Bomb, VariantId::Classic,
                                                       VariantId::TripleKing, VariantId::Kaboom};
std::string_view variant_key(VariantId v);    // "bomb", "classic", "triple_king", "kaboom"
std::string_view variant_title(VariantId v);  // "Bomb Checkers", ...
std::optional<VariantId> variant_from_key(std::string_view key);

// First is the side that moves first and starts at the bottom (fire, black, x).
enum class Side : std::uint8_t { First = 0, Second = 1 };
constexpr Side other(Side s) {
  return s == Side::First ? Side::Second : Side::First;
}
constexpr int index(Side s) {
  return static_cast<int>(s);
}
std::string_view side_name(VariantId v, Side s);  // "fire"/"water", "black"/"white", "x"/"o"
std::optional<Side> side_from_name(VariantId v, std::string_view name);

enum class Kind : std::uint8_t { Normal, Shield, Bomb };
enum class Rank : std::uint8_t { Man, King, TripleKing };
std::string_view kind_name(Kind k);  // "normal", "shield", "bomb"
std::optional<Kind> kind_from_name(std::string_view name);
std::string_view rank_name(Rank r);  // "man", "king", "triple_king"
std::optional<Rank> rank_from_name(std::string_view name);

// [x, y]: x the column from the left, y the row from the bottom (PROTOCOL.md coordinates).
struct Square {
  int x = 0;
  int y = 0;
  friend bool operator==(const Square&, const Square&) = default;
  friend auto operator<=>(const Square&, const Square&) = default;
};

// T8: the triple-king document's `(row, column)` notation, row 0 at the top.
struct RowCol {
  int row = 0;
  int column = 0;
  friend bool operator==(const RowCol&, const RowCol&) = default;
};
constexpr RowCol to_row_col(Square s) {
  return {7 - s.y, s.x};
}
constexpr Square from_row_col(RowCol rc) {
  return {rc.column, 7 - rc.row};
}

struct Piece {
  Square at;
  Side side = Side::First;
  Kind kind = Kind::Normal;
  Rank rank = Rank::Man;
  friend bool operator==(const Piece&, const Piece&) = default;
};

// ---------------------------------------------------------------------------------------------
// Actions: the hop-granularity moves of PROTOCOL.md's `legal` list.

enum class ActionKind : std::uint8_t { Step, Jump, EndTurn, Drop, Detonate };
std::string_view action_kind_name(ActionKind k);  // "step", "jump", "end_turn", "drop", "detonate"
std::optional<ActionKind> action_kind_from_name(std::string_view name);

// Fields a kind does not use stay at their defaults, so == compares actions exactly.
struct Action {
  ActionKind kind = ActionKind::EndTurn;
  Square from{};              // step, jump
  Square to{};                // step, jump
  Square at{};                // detonate
  int column = 0;             // drop
  Kind piece = Kind::Normal;  // drop: Normal or Bomb

  static Action step(Square f, Square t) { return {ActionKind::Step, f, t, {}, 0, Kind::Normal}; }
  static Action jump(Square f, Square t) { return {ActionKind::Jump, f, t, {}, 0, Kind::Normal}; }
  static Action end_turn() { return {}; }
  static Action drop(int col, Kind k) { return {ActionKind::Drop, {}, {}, {}, col, k}; }
  static Action detonate(Square a) { return {ActionKind::Detonate, {}, {}, a, 0, Kind::Normal}; }
  friend bool operator==(const Action&, const Action&) = default;
};

// What applying one action did, for the client to animate.
struct Effects {
  std::vector<Square> captured;  // removed by a jump
  std::vector<Square> exploded;  // removed by a blast (bomb: the bomb's own square included)
  std::vector<Square> promoted;  // crowned (king or triple king) on this action
  bool turn_over = false;        // the action ended the mover's turn
  friend bool operator==(const Effects&, const Effects&) = default;
};

enum class Reason : std::uint8_t {
  NoPieces,
  NoMoves,
  MutualDestruction,
  Connect,
  Resigned,
  DrawAgreed,
  DrawRule,
  BoardFull,
  TurnLimit,
  Timeout,   // S1: a player's clock ran out (server-level)
  Aborted,   // S3: the first turns were not made in time (server-level, always a draw)
  Abandoned  // S4: claimed after the opponent left (server-level)
};
std::string_view reason_name(Reason r);  // "no_pieces", ... as in PROTOCOL.md
std::optional<Reason> reason_from_name(std::string_view name);

struct Result {
  std::optional<Side> winner;  // nullopt: a draw
  Reason reason = Reason::NoMoves;
  friend bool operator==(const Result&, const Result&) = default;
};

// ---------------------------------------------------------------------------------------------
// Options per variant. Every option is an integer or a boolean with a range and a default; the
// specs let callers (the server, the CLI) validate and list options without knowing the variant.

enum class OptionType : std::uint8_t { Int, Bool };
struct OptionSpec {
  std::string_view name;
  OptionType type;
  int min;
  int max;
  int def;
  std::string_view help;
};

// RULES.md as the core plays it now. Revision 1: before 2026-11-24 (B8: a bomb stepping onto the
// far row exploded; T5b: a triple king could land past its own pieces after a capture). Revision 2:
// before 2026-11-25 (no C7 turn limit).
inline constexpr int kRulesRevision = 3;
// C7: a checkers game still on after this many turns (both sides' together) is drawn.
inline constexpr int kTurnLimit = 1000;

struct Options {
  // Not an option a player sets (no OptionSpec): the rules revision a game is played under, so a
  // stored game replays under the rules it was played by.
  int rules = kRulesRevision;
  int draw_turns = 80;  // checkers, C6: consecutive quiet turns before a draw; 0 turns it off
  int width = 7;        // kaboom X1
  int height = 6;
  int connect = 4;
  int bombs = 1;
  bool misere = false;
  bool superbomb = false;
  friend bool operator==(const Options&, const Options&) = default;
};

std::span<const OptionSpec> option_specs(VariantId v);
Options default_options(VariantId v);
// Sets one option by name; an error message (for a person) if the variant has no such option or
// the value is out of range.
std::optional<std::string> set_option(Options& o, VariantId v, std::string_view name, int value);
std::optional<int> get_option(const Options& o, VariantId v, std::string_view name);
// Checks the options as a whole (ranges and cross-field constraints).
std::optional<std::string> validate_options(const Options& o, VariantId v);

// A custom start position (PROTOCOL.md `position`).
struct Position {
  std::vector<Piece> pieces;
  Side turn = Side::First;
  std::array<int, 2> bombs{0, 0};  // kaboom: bombs left to drop, by side
};

// ---------------------------------------------------------------------------------------------
// Internal states; use Game.

struct CheckersState {
  std::array<std::uint32_t, 2> occ{};  // bitboards of the 32 playable squares, by side
  std::uint32_t kings = 0;             // rank >= King
  std::uint32_t triples = 0;           // rank == TripleKing
  std::uint32_t shields = 0;
  std::uint32_t bombs = 0;
  Side turn = Side::First;
  std::int8_t jumper = -1;        // the piece in the middle of a capture sequence, or -1
  std::uint16_t quiet_turns = 0;  // C6 counter
  std::uint16_t turns = 0;        // C7: complete turns played (saturates; not part of the hash)
  friend bool operator==(const CheckersState&, const CheckersState&) = default;
};

struct KaboomState {
  static constexpr int kMaxCells = 12 * 12;
  std::array<std::uint8_t, kMaxCells> cells{};  // 0 empty, else 1 + side + 2 * (kind == Bomb)
  std::array<std::uint8_t, 2> bombs_left{};
  Side turn = Side::First;
  friend bool operator==(const KaboomState&, const KaboomState&) = default;
};

class Game;
struct Applied;

// A complete turn: the actions that take a position to the next side's turn (hops of a
// multi-jump; in `bomb`, an `end_turn` where the mover stops early).
struct Turn {
  std::vector<Action> actions;
  friend bool operator==(const Turn&, const Turn&) = default;
};

class Game {
 public:
  // The start position of a variant; an error message if the options are invalid.
  static std::variant<Game, std::string> create(VariantId v, const Options& o);
  // A custom start position; an error message saying what is wrong if it is refused.
  static std::variant<Game, std::string> from_position(VariantId v, const Options& o,
                                                       const Position& p);

  VariantId variant() const { return variant_; }
  const Options& options() const { return options_; }
  int width() const;   // 8 for checkers
  int height() const;  // 8 for checkers
  Side turn() const;
  std::vector<Piece> pieces() const;  // sorted by (y, x)
  std::optional<Piece> piece_at(Square s) const;
  std::array<int, 2> bombs_left() const;  // kaboom: bombs left to drop; {0,0} otherwise
  bool mid_turn() const;                  // checkers: in the middle of a capture sequence
  std::optional<Square> jumper() const;   // checkers: the piece that must continue
  int quiet_turns() const;                // checkers: C6 counter
  int turns_played() const;               // checkers: complete turns played (C7)

  // Every action the side to move may take now; empty exactly when the game is over.
  std::vector<Action> legal() const;
  bool is_legal(const Action& a) const;
  // Applies one legal action; nullopt (and nothing changes) if it is not legal.
  std::optional<Applied> apply(const Action& a) const;
  // Every complete turn from here (from mid-turn: the rest of the current turn).
  std::vector<Turn> turns() const;

  const std::optional<Result>& result() const { return result_; }
  bool over() const { return result_.has_value(); }
  // Ends the game by a server-level result (resignation, agreement, time, abort, abandonment).
  // Requires !over().
  Game ended(Result r) const;
  Game resigned(Side loser) const;
  Game drawn_by_agreement() const;
  // S2: whether `s` could still win by any sequence of legal play from here. Errs towards true: it
  // is false only when a win is impossible for certain (used to draw a time forfeit).
  bool can_ever_win(Side s) const;

  std::uint64_t hash() const;
  friend bool operator==(const Game&, const Game&) = default;

  // Internal representation, for the AI and perft.
  const std::variant<CheckersState, KaboomState>& state() const { return state_; }

 private:
  Game() = default;
  void settle_result();  // computes result_ after a completed turn

  VariantId variant_ = VariantId::Bomb;
  Options options_{};
  std::variant<CheckersState, KaboomState> state_{};
  std::optional<Result> result_{};
};

struct Applied {
  Game next;
  Effects effects;
};

// Counts complete-turn leaf nodes at each depth 1..depth (K5, T7). nodes[i] is depth i+1.
std::vector<std::uint64_t> perft(const Game& g, int depth);
// The leaf count at exactly `depth`, with bulk counting at the last ply.
std::uint64_t perft_leaves(const Game& g, int depth);

}  // namespace bc

// Each variant's record (names, sides, family, options, rules), and is_checkers().
#include "bc/variants.hpp"  // IWYU pragma: export

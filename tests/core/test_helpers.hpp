// Shared helpers for the rule tests: compact piece lists, positions, printing, playing actions.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bc/core.hpp>
#include <initializer_list>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

// Printers for GoogleTest, found by argument-dependent lookup. Written here without the core's name
// functions so a failure message stays readable even if those are wrong.
namespace bc {

inline void PrintTo(const Square& s, std::ostream* os) {
  *os << '[' << s.x << ',' << s.y << ']';
}

inline void PrintTo(Side s, std::ostream* os) {
  *os << (s == Side::First ? "First" : "Second");
}

inline const char* test_kind_text(Kind k) {
  switch (k) {
    case Kind::Normal:
      return "normal";
    case Kind::Shield:
      return "shield";
    case Kind::Bomb:
      return "bomb";
  }
  return "?";
}

inline const char* test_rank_text(Rank r) {
  switch (r) {
    case Rank::Man:
      return "man";
    case Rank::King:
      return "king";
    case Rank::TripleKing:
      return "triple_king";
  }
  return "?";
}

inline const char* test_reason_text(Reason r) {
  switch (r) {
    case Reason::NoPieces:
      return "no_pieces";
    case Reason::NoMoves:
      return "no_moves";
    case Reason::MutualDestruction:
      return "mutual_destruction";
    case Reason::Connect:
      return "connect";
    case Reason::Resigned:
      return "resigned";
    case Reason::DrawAgreed:
      return "draw_agreed";
    case Reason::DrawRule:
      return "draw_rule";
    case Reason::BoardFull:
      return "board_full";
    case Reason::TurnLimit:
      return "turn_limit";
    case Reason::Timeout:
      return "timeout";
    case Reason::Aborted:
      return "aborted";
    case Reason::Abandoned:
      return "abandoned";
  }
  return "?";
}

inline void PrintTo(Kind k, std::ostream* os) {
  *os << test_kind_text(k);
}
inline void PrintTo(Rank r, std::ostream* os) {
  *os << test_rank_text(r);
}
inline void PrintTo(Reason r, std::ostream* os) {
  *os << test_reason_text(r);
}

inline void PrintTo(const Action& a, std::ostream* os) {
  switch (a.kind) {
    case ActionKind::Step:
      *os << "step";
      PrintTo(a.from, os);
      *os << "->";
      PrintTo(a.to, os);
      return;
    case ActionKind::Jump:
      *os << "jump";
      PrintTo(a.from, os);
      *os << "->";
      PrintTo(a.to, os);
      return;
    case ActionKind::EndTurn:
      *os << "end_turn";
      return;
    case ActionKind::Drop:
      *os << "drop(" << a.column << ',' << test_kind_text(a.piece) << ')';
      return;
    case ActionKind::Detonate:
      *os << "detonate";
      PrintTo(a.at, os);
      return;
  }
  *os << "action?";
}

inline void PrintTo(const Piece& p, std::ostream* os) {
  *os << '{';
  PrintTo(p.at, os);
  *os << ' ' << (p.side == Side::First ? "first" : "second") << ' ' << test_kind_text(p.kind) << ' '
      << test_rank_text(p.rank) << '}';
}

inline void PrintTo(const Result& r, std::ostream* os) {
  *os << "{winner=";
  if (r.winner) {
    PrintTo(*r.winner, os);
  } else {
    *os << "none";
  }
  *os << " reason=" << test_reason_text(r.reason) << '}';
}

inline void PrintTo(const Turn& t, std::ostream* os) {
  *os << '<';
  for (std::size_t i = 0; i < t.actions.size(); ++i) {
    if (i) *os << ", ";
    PrintTo(t.actions[i], os);
  }
  *os << '>';
}

inline void PrintTo(const Effects& e, std::ostream* os) {
  auto list = [os](const char* name, const std::vector<Square>& v) {
    *os << name << "={";
    for (const auto& s : v) PrintTo(s, os);
    *os << "} ";
  };
  list("captured", e.captured);
  list("exploded", e.exploded);
  list("promoted", e.promoted);
  *os << "turn_over=" << e.turn_over;
}

}  // namespace bc

namespace bct {

using bc::Action;
using bc::Applied;
using bc::Effects;
using bc::Game;
using bc::Kind;
using bc::Options;
using bc::Piece;
using bc::Rank;
using bc::Reason;
using bc::Result;
using bc::Side;
using bc::Square;
using bc::Turn;
using bc::VariantId;
using A = bc::Action;

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;
using ::testing::UnorderedElementsAreArray;

// Side names per variant, so a position reads like the rule book.
inline constexpr Side kFire = Side::First;
inline constexpr Side kWater = Side::Second;
inline constexpr Side kBlack = Side::First;
inline constexpr Side kWhite = Side::Second;
inline constexpr Side kX = Side::First;
inline constexpr Side kO = Side::Second;

// Compact piece makers: side first, then the square.
inline Piece man(Side s, int x, int y) {
  return Piece{{x, y}, s, Kind::Normal, Rank::Man};
}
inline Piece king(Side s, int x, int y) {
  return Piece{{x, y}, s, Kind::Normal, Rank::King};
}
inline Piece triple(Side s, int x, int y) {
  return Piece{{x, y}, s, Kind::Normal, Rank::TripleKing};
}
inline Piece shield(Side s, int x, int y) {
  return Piece{{x, y}, s, Kind::Shield, Rank::Man};
}
inline Piece shield_king(Side s, int x, int y) {
  return Piece{{x, y}, s, Kind::Shield, Rank::King};
}
inline Piece bomb(Side s, int x, int y) {
  return Piece{{x, y}, s, Kind::Bomb, Rank::Man};
}
inline Piece bomb_king(Side s, int x, int y) {
  return {{x, y}, s, Kind::Bomb, Rank::King};
}

inline std::string describe(const std::vector<Action>& actions) {
  std::ostringstream os;
  os << '{';
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (i) os << ", ";
    bc::PrintTo(actions[i], &os);
  }
  os << '}';
  return os.str();
}

inline std::string describe(const Action& a) {
  std::ostringstream os;
  bc::PrintTo(a, &os);
  return os.str();
}

// Options with some values changed by name; throws (a test failure) if the core refuses one.
inline Options opts(VariantId v, std::initializer_list<std::pair<std::string_view, int>> changes) {
  Options o = bc::default_options(v);
  for (const auto& [name, value] : changes) {
    if (auto err = bc::set_option(o, v, name, value)) {
      throw std::runtime_error("set_option(" + std::string(name) + ", " + std::to_string(value) +
                               ") refused: " + *err);
    }
  }
  return o;
}

inline Game get_game(std::variant<Game, std::string> r, const char* what) {
  if (auto* err = std::get_if<std::string>(&r)) {
    throw std::runtime_error(std::string(what) + " refused: " + *err);
  }
  return std::get<Game>(std::move(r));
}

inline Game start(VariantId v, const Options& o) {
  return get_game(Game::create(v, o), "Game::create");
}
inline Game start(VariantId v) {
  return start(v, bc::default_options(v));
}

inline Game position(VariantId v, const Options& o, std::vector<Piece> pieces, Side turn,
                     std::array<int, 2> bombs = {0, 0}) {
  bc::Position p;
  p.pieces = std::move(pieces);
  p.turn = turn;
  p.bombs = bombs;
  return get_game(Game::from_position(v, o, p), "Game::from_position");
}

inline Game position(VariantId v, std::vector<Piece> pieces, Side turn) {
  return position(v, bc::default_options(v), std::move(pieces), turn);
}

// The error of a refused position ("" if it was accepted).
inline std::string position_error(VariantId v, const Options& o, std::vector<Piece> pieces,
                                  Side turn = Side::First, std::array<int, 2> bombs = {0, 0}) {
  bc::Position p;
  p.pieces = std::move(pieces);
  p.turn = turn;
  p.bombs = bombs;
  auto r = Game::from_position(v, o, p);
  if (auto* err = std::get_if<std::string>(&r)) return err->empty() ? "<empty message>" : *err;
  return "";
}

// Kaboom board from rows of text, top row first: '.' empty, 'x'/'o' normal, 'X'/'O' bombs.
inline std::vector<Piece> kaboom_board(const std::vector<std::string_view>& rows_top_first) {
  std::vector<Piece> out;
  const int h = static_cast<int>(rows_top_first.size());
  int row = 0;
  for (std::string_view line : rows_top_first) {
    const int y = h - 1 - row;
    for (int x = 0; x < static_cast<int>(line.size()); ++x) {
      switch (line[static_cast<std::size_t>(x)]) {
        case 'x':
          out.push_back(man(kX, x, y));
          break;
        case 'o':
          out.push_back(man(kO, x, y));
          break;
        case 'X':
          out.push_back(bomb(kX, x, y));
          break;
        case 'O':
          out.push_back(bomb(kO, x, y));
          break;
        default:
          break;
      }
    }
    ++row;
  }
  return out;
}

// Applies one action that must be legal; throws (a test failure) with the legal list otherwise.
inline Applied play(const Game& g, const Action& a) {
  auto r = g.apply(a);
  if (!r) {
    throw std::runtime_error("action " + describe(a) + " refused; legal: " + describe(g.legal()));
  }
  return std::move(*r);
}

inline Game play_all(Game g, std::initializer_list<Action> actions) {
  for (const auto& a : actions) g = play(g, a).next;
  return g;
}

inline std::vector<Piece> sorted_pieces(std::vector<Piece> v) {
  std::sort(v.begin(), v.end(), [](const Piece& a, const Piece& b) {
    return std::pair(a.at.y, a.at.x) < std::pair(b.at.y, b.at.x);
  });
  return v;
}

inline bool has_piece(const Game& g, const Piece& p) {
  auto q = g.piece_at(p.at);
  return q && *q == p;
}

inline bool is_empty(const Game& g, Square s) {
  return !g.piece_at(s).has_value();
}

inline int count_side(const Game& g, Side s) {
  int n = 0;
  for (const auto& p : g.pieces()) n += p.side == s ? 1 : 0;
  return n;
}

inline Result win(Side s, Reason r) {
  return Result{s, r};
}
inline Result draw(Reason r) {
  return Result{std::nullopt, r};
}

}  // namespace bct

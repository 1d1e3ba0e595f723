#include "server/room/notation.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <string>

namespace bc::server {

namespace {

std::string date_of(std::int64_t ms) {
  if (ms <= 0) return "????.??.??";
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  return buf;
}

// PDN tag values are in double quotes: quotes and backslashes are escaped.
std::string tag(std::string_view name, std::string_view value) {
  std::string out = "[" + std::string(name) + " \"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"]\n";
}

std::string pdn_result(const std::optional<Result>& r) {
  if (!r) return "*";
  if (!r->winner) return "1/2-1/2";
  // "1-0" is a win for White (the second side), "0-1" for Black (the first side).
  return *r->winner == Side::Second ? "1-0" : "0-1";
}

std::string square_text(Square s) {
  auto n = pdn_square(s);
  return n ? std::to_string(*n) : "[" + std::to_string(s.x) + "," + std::to_string(s.y) + "]";
}

std::string piece_token(const Piece& p) {
  std::string out;
  if (p.rank == Rank::King) out += 'K';
  if (p.rank == Rank::TripleKing) out += 'T';
  out += square_text(p.at);
  if (p.kind == Kind::Shield) out += 's';
  if (p.kind == Kind::Bomb) out += 'b';
  return out;
}

// The versions analysed during the game (hints against the computer): "3 12 20".
std::string hints_text(const std::vector<std::int64_t>& hints) {
  std::string out;
  for (std::int64_t h : hints) {
    if (!out.empty()) out += ' ';
    out += std::to_string(h);
  }
  return out;
}

// PGN's TimeControl field: "-" untimed, "300+3" (seconds + increment), "1/259200" (one move per
// so many seconds: correspondence).
std::string pdn_time_control(const std::optional<TimeControl>& tc) {
  if (!tc) return "-";
  auto seconds = [](std::int64_t ms) {
    std::string s = std::to_string(ms / 1000);
    if (ms % 1000 != 0) {
      std::string frac = std::to_string(1000 + ms % 1000).substr(1);
      while (!frac.empty() && frac.back() == '0') frac.pop_back();
      s += "." + frac;
    }
    return s;
  };
  if (tc->kind == TimeControl::Kind::Correspondence) return "1/" + seconds(tc->base_ms);
  return seconds(tc->base_ms) + "+" + seconds(tc->increment_ms);
}

// A rated game's ratings by side as the game started, and their change once it was rated (lichess's
// WhiteElo / WhiteRatingDiff). Empty for a casual game.
struct RatingTags {
  std::array<std::optional<int>, 2> before;
  std::array<std::optional<int>, 2> diff;
};
RatingTags rating_tags(const Room& room) {
  RatingTags t;
  if (!room.setup().rated) return t;
  const SeatPlayers players = room.seat_players();
  for (std::size_t i = 0; i < 2; ++i) {
    if (!players[i]) continue;
    const int before = static_cast<int>(std::lround(players[i]->rating.rating));
    t.before[i] = before;
    if (players[i]->after)
      t.diff[i] = static_cast<int>(std::lround(players[i]->after->rating)) - before;
  }
  return t;
}

std::string signed_text(int n) {
  return (n > 0 ? "+" : "") + std::to_string(n);
}

std::string checkers_notation(const Room& room) {
  const GameSetup& setup = room.setup();
  const VariantId v = setup.variant;
  const Game start = fresh_game(setup);
  const SeatNames names = room.seat_names();
  std::string out;
  out += tag("Event", "bombcheckers " + std::string(variant_key(v)) + " game");
  out += tag("Site", "bombcheckers room " + room.id());
  out += tag("Date", date_of(room.started_ms()));
  out += tag("Round", std::to_string(room.game_number()));
  out += tag("Black", names[0].value_or("?"));
  out += tag("White", names[1].value_or("?"));
  const RatingTags ratings = rating_tags(room);
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string colour = i == 0 ? "Black" : "White";
    if (ratings.before[i]) out += tag(colour + "Elo", std::to_string(*ratings.before[i]));
    if (ratings.diff[i]) out += tag(colour + "RatingDiff", signed_text(*ratings.diff[i]));
  }
  out += tag("Result", pdn_result(room.game().result()));
  if (v == VariantId::Classic) out += tag("GameType", "21");
  out += tag("Variant", variant_key(v));
  out += tag("Sides", "Black=" + std::string(side_name(v, Side::First)) +
                          " White=" + std::string(side_name(v, Side::Second)));
  out += tag("TimeControl", pdn_time_control(setup.clock));
  if (room.game().result()) out += tag("Termination", reason_name(room.game().result()->reason));
  if (!room.match().hints().empty()) out += tag("Hints", hints_text(room.match().hints()));
  if (setup.one_screen) out += tag("Mode", "one screen");
  if (setup.position) {
    out += tag("SetUp", "1");
    out += tag("FEN", pdn_fen(start));
  }
  out += "\n";

  // One token per turn: a step "11-15", or the full capture path "9x18x27". A bomb turn that stops
  // early (end_turn) is just the path taken; an unfinished last turn is marked {continues}.
  std::string moves;
  const auto& log = room.log();
  Game g = start;
  int move_no = 1;
  bool first_in_pair = true;
  std::size_t i = 0;
  std::size_t column = 0;
  auto emit = [&](const std::string& text) {
    if (column > 0 && column + text.size() + 1 > 90) {
      moves += "\n";
      column = 0;
    } else if (column > 0) {
      moves += " ";
      ++column;
    }
    moves += text;
    column += text.size();
  };
  while (i < log.size()) {
    const Side side = log[i].side;
    std::string token;
    bool complete = false;
    for (; i < log.size() && log[i].side == side && !complete; ++i) {
      const Action& a = log[i].action;
      if (a.kind == ActionKind::Step) {
        token = square_text(a.from) + "-" + square_text(a.to);
      } else if (a.kind == ActionKind::Jump) {
        if (token.empty()) token = square_text(a.from);
        token += "x" + square_text(a.to);
      }
      auto applied = g.apply(a);
      if (!applied) break;  // cannot happen for a room's own log
      complete = applied->effects.turn_over || applied->next.over();
      g = std::move(applied->next);
    }
    if (side == Side::First) {
      emit(std::to_string(move_no) + ".");
      first_in_pair = false;
    } else if (first_in_pair) {
      emit(std::to_string(move_no) + "...");
    }
    emit(token.empty() ? std::string("--") : token);
    if (!complete) emit("{continues}");
    if (side == Side::Second) {
      ++move_no;
      first_in_pair = true;
    }
  }
  emit(pdn_result(room.game().result()));
  out += moves + "\n";
  return out;
}

std::string kaboom_notation(const Room& room) {
  const GameSetup& setup = room.setup();
  const VariantId v = setup.variant;
  const Game start = fresh_game(setup);
  const SeatNames names = room.seat_names();
  const Options& o = setup.options;
  std::string out;
  out += "bombcheckers Kaboom record\n";
  out += "Room: " + room.id() + "\n";
  out += "Game: " + std::to_string(room.game_number()) + "\n";
  out += "Date: " + date_of(room.started_ms()) + "\n";
  out += "x: " + names[0].value_or("?") + "\n";
  out += "o: " + names[1].value_or("?") + "\n";
  out += "Options: width " + std::to_string(o.width) + ", height " + std::to_string(o.height) +
         ", connect " + std::to_string(o.connect) + ", bombs " + std::to_string(o.bombs) +
         ", misere " + (o.misere ? "true" : "false") + ", superbomb " +
         (o.superbomb ? "true" : "false") + "\n";
  if (setup.clock) out += "Clock: " + time_control_text(*setup.clock) + "\n";
  const RatingTags ratings = rating_tags(room);
  if (ratings.before[0] || ratings.before[1]) {
    out += "Rated:";
    for (std::size_t i = 0; i < 2; ++i) {
      out += std::string(i == 0 ? " x " : ", o ") +
             (ratings.before[i] ? std::to_string(*ratings.before[i]) : "?");
      if (ratings.diff[i]) out += " " + signed_text(*ratings.diff[i]);
    }
    out += "\n";
  }
  if (!room.match().hints().empty()) out += "Hints: " + hints_text(room.match().hints()) + "\n";
  if (setup.one_screen) out += "Mode: one screen\n";
  if (setup.position) {
    out += "Start: " + std::string(side_name(v, start.turn())) + " to move, bombs x " +
           std::to_string(start.bombs_left()[0]) + " o " + std::to_string(start.bombs_left()[1]) +
           ";";
    for (const auto& p : start.pieces()) {
      out += " " + std::string(side_name(v, p.side)) + (p.kind == Kind::Bomb ? "*" : "") + "@[" +
             std::to_string(p.at.x) + "," + std::to_string(p.at.y) + "]";
    }
    out += "\n";
  } else {
    out += "Start: empty board\n";
  }
  const auto& r = room.game().result();
  out += "Result: ";
  if (!r) {
    out += "in progress\n";
  } else {
    out += (r->winner ? std::string(side_name(v, *r->winner)) + " won" : std::string("draw")) +
           " (" + std::string(reason_name(r->reason)) + ")\n";
  }
  out += "Columns count from 0 at the left, rows from 0 at the bottom.\n\n";
  for (const auto& a : room.log()) {
    out += std::to_string(a.version) + ". " + std::string(side_name(v, a.side)) + " ";
    if (a.action.kind == ActionKind::Drop) {
      out += std::string(a.action.piece == Kind::Bomb ? "drop bomb " : "drop ") +
             std::to_string(a.action.column);
    } else if (a.action.kind == ActionKind::Detonate) {
      out +=
          "detonate [" + std::to_string(a.action.at.x) + "," + std::to_string(a.action.at.y) + "]";
    } else {
      out += action_kind_name(a.action.kind);
    }
    out += "\n";
  }
  return out;
}

}  // namespace

std::optional<int> pdn_square(Square s) {
  if (s.x < 0 || s.x > 7 || s.y < 0 || s.y > 7 || (s.x + s.y) % 2 != 0) return std::nullopt;
  return 4 * s.y + (7 - s.x) / 2 + 1;
}

std::optional<Square> pdn_square_at(int n) {
  if (n < 1 || n > 32) return std::nullopt;
  const int y = (n - 1) / 4;
  const int k = (n - 1) % 4;
  // Row y holds the playable x of y's parity, numbered from the right (x = 7 or 6) leftwards.
  const int x = (y % 2 == 0) ? 6 - 2 * k : 7 - 2 * k;
  return Square{x, y};
}

std::string pdn_fen(const Game& g) {
  std::string out = g.turn() == Side::First ? "B" : "W";
  for (Side s : {Side::Second, Side::First}) {
    out += s == Side::First ? ":B" : ":W";
    std::vector<std::pair<int, std::string>> tokens;
    for (const auto& p : g.pieces()) {
      if (p.side == s) tokens.emplace_back(pdn_square(p.at).value_or(0), piece_token(p));
    }
    std::sort(tokens.begin(), tokens.end());
    for (std::size_t i = 0; i < tokens.size(); ++i) out += (i ? "," : "") + tokens[i].second;
  }
  return out;
}

std::string game_notation(const Room& room) {
  return is_checkers(room.setup().variant) ? checkers_notation(room) : kaboom_notation(room);
}

}  // namespace bc::server

#include <cstdio>

#include "bc/ai.hpp"
#include "bc/ai_notation.hpp"

namespace bc::ai {
namespace {

std::vector<std::string_view> split(std::string_view text, std::string_view seps) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t j = text.find_first_of(seps, i);
    const std::size_t end = j == std::string_view::npos ? text.size() : j;
    if (end > i) out.push_back(text.substr(i, end - i));
    i = end + 1;
  }
  return out;
}

std::vector<std::string_view> split_keep_empty(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  for (;;) {
    const std::size_t j = text.find(sep, i);
    if (j == std::string_view::npos) {
      out.push_back(text.substr(i));
      return out;
    }
    out.push_back(text.substr(i, j - i));
    i = j + 1;
  }
}

std::optional<int> parse_small_int(std::string_view s) {
  if (s.empty() || s.size() > 3) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::optional<Square> parse_square(std::string_view s) {
  if (s.size() < 2 || s[0] < 'a' || s[0] > 'l') return std::nullopt;
  const auto rank = parse_small_int(s.substr(1));
  if (!rank || *rank < 1) return std::nullopt;
  return Square{s[0] - 'a', *rank - 1};
}

std::optional<Side> parse_side(VariantId v, std::string_view s) {
  if (s == "1") return Side::First;
  if (s == "2") return Side::Second;
  return side_from_name(v, s);
}

std::string piece_token(const Piece& p) {
  std::string t;
  if (p.rank == Rank::King) t += 'K';
  if (p.rank == Rank::TripleKing) t += 'T';
  if (p.kind == Kind::Shield) t += 'S';
  if (p.kind == Kind::Bomb) t += 'B';
  return t + format_square(p.at);
}

}  // namespace

std::string format_square(Square s) {
  std::string out(1, static_cast<char>('a' + s.x));
  return out + std::to_string(s.y + 1);
}

std::variant<Game, std::string> parse_position(VariantId v, const Options& o,
                                               std::string_view text) {
  if (text == "start") {
    auto g = Game::create(v, o);
    if (auto* err = std::get_if<std::string>(&g)) return *err;
    return std::get<Game>(g);
  }
  const auto fields = split_keep_empty(text, ':');
  if (fields.size() != 3 && fields.size() != 4) {
    return "a position is <to-move>:<first pieces>:<second pieces>[:<bombs>,<bombs>]";
  }
  Position p;
  const auto turn = parse_side(v, fields[0]);
  if (!turn) return "unknown side to move '" + std::string(fields[0]) + "'";
  p.turn = *turn;
  for (int side = 0; side < 2; ++side) {
    for (std::string_view tok : split(fields[static_cast<std::size_t>(side + 1)], ", ")) {
      Piece piece;
      piece.side = side == 0 ? Side::First : Side::Second;
      std::size_t i = 0;
      for (; i < tok.size() && tok[i] >= 'A' && tok[i] <= 'Z'; ++i) {
        switch (tok[i]) {
          case 'K':
            piece.rank = Rank::King;
            break;
          case 'T':
            piece.rank = Rank::TripleKing;
            break;
          case 'S':
            piece.kind = Kind::Shield;
            break;
          case 'B':
            piece.kind = Kind::Bomb;
            break;
          default:
            return "unknown piece prefix in '" + std::string(tok) + "' (K, T, S or B)";
        }
      }
      const auto sq = parse_square(tok.substr(i));
      if (!sq) return "bad square in '" + std::string(tok) + "' (a file letter and a rank: c3)";
      piece.at = *sq;
      p.pieces.push_back(piece);
    }
  }
  if (fields.size() == 4) {
    const auto counts = split_keep_empty(fields[3], ',');
    const auto a = counts.size() == 2 ? parse_small_int(counts[0]) : std::nullopt;
    const auto b = counts.size() == 2 ? parse_small_int(counts[1]) : std::nullopt;
    if (!a || !b) return "bombs in hand are written <first>,<second>, for example 1,0";
    p.bombs = {*a, *b};
  }
  auto g = Game::from_position(v, o, p);
  if (auto* err = std::get_if<std::string>(&g)) return *err;
  return std::get<Game>(g);
}

std::string format_position(const Game& g) {
  std::string out(side_name(g.variant(), g.turn()));
  std::string lists[2];
  for (const Piece& p : g.pieces()) {
    std::string& l = lists[index(p.side)];
    if (!l.empty()) l += ',';
    l += piece_token(p);
  }
  out += ':' + lists[0] + ':' + lists[1];
  if (!is_checkers(g.variant())) {
    const auto b = g.bombs_left();
    out += ':' + std::to_string(b[0]) + ',' + std::to_string(b[1]);
  }
  return out;
}

std::string format_turn(const Turn& t) {
  std::string out;
  for (const Action& a : t.actions) {
    switch (a.kind) {
      case ActionKind::Step:
        out += format_square(a.from) + '-' + format_square(a.to);
        break;
      case ActionKind::Jump:
        if (out.empty()) out += format_square(a.from);
        out += 'x' + format_square(a.to);
        break;
      case ActionKind::EndTurn:
        if (out.empty()) out = "end";
        break;
      case ActionKind::Drop:
        if (a.piece == Kind::Bomb) out += 'B';
        out += static_cast<char>('a' + a.column);
        break;
      case ActionKind::Detonate:
        out += '*' + format_square(a.at);
        break;
    }
  }
  return out;
}

std::variant<Turn, std::string> parse_turn(const Game& before, std::string_view text) {
  if (before.over()) return std::string("the game is over");
  std::string wanted(text);
  for (Turn& t : before.turns()) {
    if (format_turn(t) == wanted) return std::move(t);
  }
  std::string legal;
  for (const Turn& t : before.turns()) legal += ' ' + format_turn(t);
  return "'" + wanted + "' is not a legal turn here; legal:" + legal;
}

std::variant<Game, std::string> play_turns(const Game& start, std::string_view text) {
  Game g = start;
  for (std::string_view tok : split(text, " ,;")) {
    auto t = parse_turn(g, tok);
    if (auto* err = std::get_if<std::string>(&t)) return *err;
    for (const Action& a : std::get<Turn>(t).actions) g = g.apply(a)->next;
  }
  return g;
}

std::string format_score(int score) {
  if (is_decisive(score)) {
    return (score > 0 ? "win in " : "loss in ") + std::to_string(turns_to_end(score));
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f", score / 100.0);
  return buf;
}

std::string board_picture(const Game& g) {
  const int w = g.width();
  const int h = g.height();
  std::vector<std::string> rows(static_cast<std::size_t>(h),
                                std::string(static_cast<std::size_t>(w), '.'));
  for (const Piece& p : g.pieces()) {
    char c = p.side == Side::First ? 'a' : 'z';
    if (is_checkers(g.variant())) {
      c = p.kind == Kind::Bomb ? 'b' : p.kind == Kind::Shield ? 's' : 'o';
      if (p.side == Side::Second)
        c = p.kind == Kind::Bomb ? 'q' : p.kind == Kind::Shield ? 'z' : 'x';
      if (p.rank != Rank::Man) c = static_cast<char>(c - 'a' + 'A');
      if (p.rank == Rank::TripleKing) c = p.side == Side::First ? '3' : '#';
    } else {
      c = p.side == Side::First ? (p.kind == Kind::Bomb ? 'X' : 'x')
                                : (p.kind == Kind::Bomb ? 'O' : 'o');
    }
    rows[static_cast<std::size_t>(p.at.y)][static_cast<std::size_t>(p.at.x)] = c;
  }
  std::string out;
  for (int y = h - 1; y >= 0; --y) {
    char label[16];
    std::snprintf(label, sizeof label, "%2d ", y + 1);
    out += label;
    for (char c : rows[static_cast<std::size_t>(y)]) {
      out += c;
      out += ' ';
    }
    out += '\n';
  }
  out += "   ";
  for (int x = 0; x < w; ++x) {
    out += static_cast<char>('a' + x);
    out += ' ';
  }
  return out + '\n';
}

}  // namespace bc::ai

// `bombcheckers puzzles`: builds or extends the puzzle collection (docs/PUZZLES.md) from random
// games: Kaboom positions on boards the exact solver finishes, and endings of the checkers
// variants played down to a few pieces by the computer, each kept only when bc/ai_puzzles.hpp
// proves it.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bc/ai.hpp"
#include "bc/ai_analysis.hpp"
#include "bc/ai_puzzles.hpp"
#include "commands.hpp"
#include "flags.hpp"
#include "server/host/puzzles.hpp"

namespace bc::app {
namespace {

using Setting = std::optional<std::string>;
using Clock = std::chrono::steady_clock;

struct Settings {
  std::filesystem::path out = "web/data/puzzles.json";
  int kaboom = 40;
  int endings = 20;
  std::uint64_t seed = 1;
  int seconds = 900;
  int step_ms = 2000;
  bool verbose = false;
};

Setting set_count(int& into, std::string_view v) {
  const auto n = parse_whole(v, 0, 10000);
  if (!n) return "wants 0..10000";
  into = static_cast<int>(*n);
  return std::nullopt;
}

const Flag<Settings> kPuzzleFlags[] = {
    {"--out", "", "FILE", "the collection to extend (default web/data/puzzles.json)",
     [](Settings& s, std::string_view v) -> Setting {
       if (v.empty()) return "wants a file";
       s.out = std::filesystem::path(v);
       return std::nullopt;
     }},
    {"--kaboom", "", "N", "new Kaboom puzzles to add (default 40)",
     [](Settings& s, std::string_view v) { return set_count(s.kaboom, v); }},
    {"--endings", "", "N", "new checkers endings to add (default 20)",
     [](Settings& s, std::string_view v) { return set_count(s.endings, v); }},
    {"--seed", "", "S", "the random games' seed (default 1)",
     [](Settings& s, std::string_view v) -> Setting {
       const auto n = parse_whole(v, 0, 1LL << 62);
       if (!n) return "wants a whole number";
       s.seed = static_cast<std::uint64_t>(*n);
       return std::nullopt;
     }},
    {"--seconds", "", "T", "the whole build's time; half each kind (default 900)",
     [](Settings& s, std::string_view v) -> Setting {
       const auto n = parse_whole(v, 1, 7 * 24 * 3600);
       if (!n) return "wants 1..604800";
       s.seconds = static_cast<int>(*n);
       return std::nullopt;
     }},
    {"--step-ms", "", "MS", "each position's analysis on a line (default 2000)",
     [](Settings& s, std::string_view v) -> Setting {
       const auto n = parse_whole(v, 50, 600000);
       if (!n) return "wants 50..600000";
       s.step_ms = static_cast<int>(*n);
       return std::nullopt;
     }},
    {"--verbose", "", "", "say why each position tried is not a puzzle",
     [](Settings& s, std::string_view) -> Setting {
       s.verbose = true;
       return std::nullopt;
     }},
};

void usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: bombcheckers puzzles [options]\n\n"
      "Builds or extends the puzzle collection: positions of random games where the side\n"
      "to move wins and each of its turns along the line is the only winning one\n"
      "(docs/PUZZLES.md). Reads the file when it exists, adds new puzzles, and prints how\n"
      "many of each kind it found and how long it took.\n\n");
  print_flags<Settings>(out, kPuzzleFlags);
}

// The Kaboom boards puzzles come from: each solved from its start within seconds (docs/SOLVED.md).
struct Board {
  int width, height, connect, bombs;
  bool misere = false;
  bool superbomb = false;
};
constexpr Board kBoards[] = {
    {4, 4, 3, 1},
    {4, 4, 3, 2},
    {5, 4, 3, 1},
    {4, 3, 3, 2},
    {3, 4, 3, 2},
    {4, 4, 3, 1, true},
    {4, 4, 3, 1, false, true},
    {5, 3, 3, 1},
    {3, 3, 3, 2},
    {5, 4, 4, 0},
    {6, 4, 4, 0},
    {4, 5, 4, 0},
};

std::optional<Game> kaboom_start(const Board& b) {
  Options o = default_options(VariantId::Kaboom);
  o.width = b.width;
  o.height = b.height;
  o.connect = b.connect;
  o.bombs = b.bombs;
  o.misere = b.misere;
  o.superbomb = b.superbomb;
  auto g = Game::create(VariantId::Kaboom, o);
  if (auto* made = std::get_if<Game>(&g)) return *made;
  return std::nullopt;
}

Game play(const Game& g, const Turn& t) {
  Game next = g;
  for (const Action& a : t.actions) next = next.apply(a)->next;
  return next;
}

struct Tally {
  int found = 0;
  int tried = 0;
  int screened = 0;  // positions given the short search first
  std::map<int, int> by_difficulty;
  double seconds = 0;
};

struct Builder {
  const Settings& s;
  std::mt19937_64 rng;
  std::set<std::string> ids;
  std::vector<server::Puzzle> added;

  // Keeps the puzzle at `g` when it is one and new, and its difficulty has not had `quota` yet
  // (random games find far more long lines than short ones).
  bool consider(const Game& g, Tally& tally, const ai::PuzzleLimits& limits,
                int quota = std::numeric_limits<int>::max()) {
    const std::string id = server::puzzle_id(g);
    if (ids.count(id) != 0) return false;
    ++tally.tried;
    auto found = ai::find_puzzle(g, limits);
    auto* line = std::get_if<ai::PuzzleLine>(&found);
    if (line == nullptr) {
      if (s.verbose) {
        std::fprintf(stderr, "%s: %s\n", id.c_str(), std::get<std::string>(found).c_str());
      }
      return false;
    }
    if (tally.by_difficulty[ai::puzzle_difficulty(line->remoteness)] >= quota) return false;
    ids.insert(id);
    ++tally.found;
    ++tally.by_difficulty[ai::puzzle_difficulty(line->remoteness)];
    added.push_back(server::make_puzzle(g, std::move(*line), "generated"));
    return true;
  }

  Turn random_turn(const Game& g) {
    const auto turns = g.turns();
    return turns[std::uniform_int_distribution<std::size_t>(0, turns.size() - 1)(rng)];
  }

  void kaboom(Tally& tally, Clock::time_point until) {
    ai::PuzzleLimits limits;
    limits.step_time = std::chrono::milliseconds(s.step_ms);
    for (std::size_t round = 0; tally.found < s.kaboom && Clock::now() < until; ++round) {
      const Board& b = kBoards[round % std::size(kBoards)];
      auto start = kaboom_start(b);
      if (!start) continue;
      Game g = *start;
      const int cells = b.width * b.height;
      const int k = std::uniform_int_distribution<int>(2, cells / 2 + 2)(rng);
      for (int i = 0; i < k && !g.over(); ++i) g = play(g, random_turn(g));
      // Difficulties 2 to 5 (a line of 3 to 11 turns): a quarter each at most.
      if (!g.over()) consider(g, tally, limits, (s.kaboom + 3) / 4);
    }
  }

  // A game of the computer against itself (level 3, which blunders now and then) down to a dozen
  // pieces, then each of its positions tried. Most won positions have several winning turns, so a
  // short search of every turn first keeps those where exactly one turn is seen to win.
  void endings(Tally& tally, Clock::time_point until) {
    constexpr VariantId kVariants[] = {VariantId::Bomb, VariantId::Classic, VariantId::TripleKing};
    ai::PuzzleLimits limits;
    limits.step_time = std::chrono::milliseconds(s.step_ms);
    limits.max_remoteness = 15;
    for (std::size_t round = 0; tally.found < s.endings && Clock::now() < until; ++round) {
      const VariantId v = kVariants[round % std::size(kVariants)];
      if (round % 16 != 0) {
        auto g = random_ending(v);
        ++tally.screened;
        if (g && !g->over() && one_win_seen(*g)) consider(*g, tally, limits);
        continue;
      }
      auto made = Game::create(v, default_options(v));
      Game g = std::get<Game>(made);
      ai::SearchLimits play_limits;
      play_limits.level = 3;
      const auto few = std::uniform_int_distribution<std::size_t>(8, 14)(rng);
      for (int turn = 0; !g.over() && turn < 300 && g.pieces().size() > few; ++turn) {
        play_limits.seed = rng();
        g = play(g, ai::choose_turn(g, play_limits).best);
      }
      for (int turn = 0; turn < 60 && !g.over() && Clock::now() < until; ++turn) {
        ++tally.screened;
        if (one_win_seen(g) && consider(g, tally, limits)) break;  // the rest is its line
        play_limits.seed = rng();
        g = play(g, ai::choose_turn(g, play_limits).best);
      }
    }
  }

  // A random ending: two to five pieces a side on the dark squares, a third of them kings (a man
  // never on the row where it would be crowned), bombs and shields in the bomb variant.
  std::optional<Game> random_ending(VariantId v) {
    Position p;
    p.turn = rng() % 2 == 0 ? Side::First : Side::Second;
    std::set<std::pair<int, int>> used;
    for (Side side : {Side::First, Side::Second}) {
      const int n = std::uniform_int_distribution<int>(1, 4)(rng);
      for (int i = 0; i < n; ++i) {
        Piece q;
        q.side = side;
        q.rank = rng() % 3 == 0 ? Rank::King : Rank::Man;
        if (v == VariantId::Bomb) {
          const auto k = rng() % 6;
          q.kind = k < 2 ? Kind::Bomb : k == 2 ? Kind::Shield : Kind::Normal;
        }
        for (int attempt = 0; attempt < 20; ++attempt) {
          // The middle rows, where both sides' pieces meet and threaten each other.
          const int y = 1 + static_cast<int>(rng() % 6);
          const int x = 2 * static_cast<int>(rng() % 4) + (y % 2);
          const int crown = side == Side::First ? 7 : 0;
          if (used.count({x, y}) != 0 || (q.rank == Rank::Man && y == crown)) continue;
          used.insert({x, y});
          q.at = Square{x, y};
          p.pieces.push_back(q);
          break;
        }
      }
    }
    auto made = Game::from_position(v, default_options(v), p);
    if (auto* g = std::get_if<Game>(&made)) return *g;
    return std::nullopt;
  }

  static bool one_win_seen(const Game& g) {
    if (g.turns().size() < 2) return false;
    ai::AnalysisLimits quick;
    quick.time = std::chrono::milliseconds(200);
    const ai::Analysis a = ai::analyse_position(g, quick);
    int wins = 0;
    for (const auto& t : a.turns) {
      if (t.value.outcome == ai::Outcome::Win) {
        ++wins;
      } else if (t.value.outcome != ai::Outcome::Loss && !t.value.exact) {
        return false;  // not seen to lose: a draw the search cannot prove
      }
    }
    return wins == 1;
  }
};

void report(const char* kind, const Tally& t) {
  std::printf("%-7s %3d new of %4d positions tried (%d screened first) in %6.1f s; by difficulty:",
              kind, t.found, t.tried, t.screened, t.seconds);
  for (const auto& [d, n] : t.by_difficulty) std::printf(" %d:%d", d, n);
  std::printf("\n");
}

}  // namespace

int cmd_puzzles(Args args) {
  const char* cmd = "puzzles";
  Settings s;
  if (auto done = read_command_flags<Settings>(cmd, kPuzzleFlags, args, s, usage)) return *done;
  std::vector<server::Puzzle> puzzles;
  std::error_code ec;
  if (std::filesystem::exists(s.out, ec)) {
    auto loaded = server::PuzzleCollection::load(s.out);
    if (auto* why = std::get_if<std::string>(&loaded)) {
      std::fprintf(stderr, "puzzles: %s\n", why->c_str());
      return 1;
    }
    puzzles = std::get<server::PuzzleCollection>(loaded).puzzles();
  }
  Builder b{s, std::mt19937_64(s.seed), {}, {}};
  for (const auto& p : puzzles) b.ids.insert(p.id);
  const auto began = Clock::now();
  const auto half = std::chrono::seconds(s.seconds) / 2;
  Tally kaboom;
  b.kaboom(kaboom, began + half);
  kaboom.seconds = std::chrono::duration<double>(Clock::now() - began).count();
  const auto mid = Clock::now();
  Tally endings;
  b.endings(endings, mid + half);
  endings.seconds = std::chrono::duration<double>(Clock::now() - mid).count();
  report("kaboom", kaboom);
  report("ending", endings);
  for (auto& p : b.added) puzzles.push_back(std::move(p));
  std::filesystem::create_directories(s.out.parent_path().empty() ? "." : s.out.parent_path(), ec);
  const auto tmp = std::filesystem::path(s.out.string() + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << server::puzzles_file_json(puzzles);
    if (!out) {
      std::fprintf(stderr, "puzzles: cannot write %s\n", tmp.string().c_str());
      return 1;
    }
  }
  std::filesystem::rename(tmp, s.out, ec);
  if (ec) {
    std::fprintf(stderr, "puzzles: cannot write %s: %s\n", s.out.string().c_str(),
                 ec.message().c_str());
    return 1;
  }
  std::printf("%zu puzzles in %s (%d new) in %.1f s\n", puzzles.size(), s.out.string().c_str(),
              kaboom.found + endings.found,
              std::chrono::duration<double>(Clock::now() - began).count());
  return 0;
}

}  // namespace bc::app

// `selfplay` and `analyse`: matches between levels with their error margins, and the search's
// view of one position. Argument parsing is std only.
#include "bc/ai_cli.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "bc/ai.hpp"
#include "bc/ai_notation.hpp"
#include "bc/core.hpp"

namespace bc::ai {
namespace {

std::string str(std::string_view s) { return std::string(s); }

std::optional<long long> parse_int(std::string_view s, long long lo, long long hi) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  long long v = 0;
  std::size_t i = 0;
  const bool neg = s[0] == '-';
  if (neg) i = 1;
  if (i == s.size()) return std::nullopt;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  if (neg) v = -v;
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

// Options and flags shared by both commands.
struct Common {
  VariantId variant = VariantId::Bomb;
  Options options = default_options(VariantId::Bomb);
  std::vector<std::pair<std::string, int>> option_settings;
  std::optional<std::chrono::milliseconds> time;
  std::optional<std::uint64_t> nodes;
};

// Reads one shared flag at args[i]; returns false if it is not one, an error text if bad.
std::optional<std::string> common_flag(std::span<const std::string_view> args, std::size_t& i,
                                       Common& c, bool& used) {
  const std::string_view a = args[i];
  used = false;
  const bool has_value = i + 1 < args.size();
  if (a == "--variant" && has_value) {
    const auto v = variant_from_key(args[++i]);
    if (!v) return "unknown variant '" + str(args[i]) + "' (bomb, classic, triple_king, kaboom)";
    c.variant = *v;
  } else if (a == "--opt" && has_value) {
    const std::string_view kv = args[++i];
    const std::size_t eq = kv.find('=');
    std::optional<long long> value;
    if (eq != std::string_view::npos) {
      const std::string_view val = kv.substr(eq + 1);
      value = val == "true" ? 1 : val == "false" ? 0 : parse_int(val, -1000000, 1000000);
    }
    if (!value) return "--opt wants name=value, for example --opt width=4";
    c.option_settings.emplace_back(str(kv.substr(0, eq)), static_cast<int>(*value));
  } else if (a == "--time-ms" && has_value) {
    const auto t = parse_int(args[++i], 1, 86'400'000);
    if (!t) return "--time-ms wants a whole number of milliseconds";
    c.time = std::chrono::milliseconds(*t);
  } else if (a == "--nodes" && has_value) {
    const auto n = parse_int(args[++i], 1, 1'000'000'000'000LL);
    if (!n) return "--nodes wants a positive whole number";
    c.nodes = static_cast<std::uint64_t>(*n);
  } else {
    return std::nullopt;
  }
  used = true;
  return std::nullopt;
}

// Applies --opt settings once the variant is known.
std::optional<std::string> finish_options(Common& c) {
  c.options = default_options(c.variant);
  for (const auto& [name, value] : c.option_settings) {
    if (auto err = set_option(c.options, c.variant, name, value)) return *err;
  }
  return validate_options(c.options, c.variant);
}

int usage_error(const char* cmd, const std::string& msg, void (*usage)(std::FILE*)) {
  std::fprintf(stderr, "%s: %s\n", cmd, msg.c_str());
  usage(stderr);
  return 2;
}

// ---- selfplay

void selfplay_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: bombcheckers selfplay --variant V --a LEVEL --b LEVEL --games N [--seed S]\n"
               "                             [--time-ms T | --nodes N] [--random-turns K]\n"
               "                             [--max-turns M] [--opt name=value]...\n"
               "  Plays N games between computer levels A and B (1..8), alternating who moves\n"
               "  first. Each pair of games starts from the same K random turns (default 4 for\n"
               "  checkers, 2 for kaboom), once from each side. Prints every result, then A's\n"
               "  score with a 95%% error margin and the Elo difference it implies.\n"
               "  --time-ms T   time per turn;  --nodes N   node budget per turn (deterministic)\n"
               "  --max-turns M a game still running after M turns is scored a draw (default 600)\n"
               "  --opt k=v     a variant option, e.g. --opt width=5 --opt connect=4\n");
}

struct MatchScore {
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int games() const { return wins + draws + losses; }
};

// Score of A in [0,1] with the half-width of its 95% interval, and the Elo difference.
void print_match(const MatchScore& s, int level_a, int level_b) {
  const double n = s.games();
  const double mean = (s.wins + 0.5 * s.draws) / n;
  const double sq = (s.wins + 0.25 * s.draws) / n;
  const double var = std::max(0.0, sq - mean * mean);
  double margin = n > 1 ? 1.96 * std::sqrt(var / (n - 1)) : 1.0;
  // A clean sweep has no spread to measure; the rule of three bounds it instead.
  if (var == 0.0 && (mean == 0.0 || mean == 1.0)) margin = std::min(1.0, 3.0 / n);
  auto elo = [](double p) {
    p = std::clamp(p, 0.001, 0.999);
    return -400.0 * std::log10(1.0 / p - 1.0);
  };
  const double e = elo(mean);
  const double e_lo = elo(mean - margin);
  const double e_hi = elo(mean + margin);
  std::printf(
      "A (level %d) vs B (level %d): +%d =%d -%d in %d games; score of A %.1f%% +- %.1f%% "
      "(95%%); Elo %+.0f [%+.0f, %+.0f]\n",
      level_a, level_b, s.wins, s.draws, s.losses, s.games(), 100.0 * mean, 100.0 * margin, e,
      e_lo, e_hi);
}

// The opening of pair p: K uniformly random turns (seeded), so the games of a match differ.
Game random_opening(const Game& start, int turns, std::uint64_t seed) {
  for (std::uint64_t attempt = 0;; ++attempt) {
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + attempt * 0xD1B54A32D192ED03ull + 1;
    Game g = start;
    for (int t = 0; t < turns && !g.over(); ++t) {
      const auto all = g.turns();
      x ^= x >> 31;
      x *= 0xBF58476D1CE4E5B9ull;
      x ^= x >> 29;
      const Turn& pick = all[static_cast<std::size_t>(x % all.size())];
      for (const Action& a : pick.actions) g = g.apply(a)->next;
    }
    if (!g.over() || attempt > 50) return g;
  }
}

}  // namespace

int cli_selfplay(std::span<const std::string_view> args) {
  const char* cmd = "selfplay";
  Common c;
  int level[2] = {8, 4};
  int games = 10;
  std::uint64_t seed = 1;
  std::optional<int> random_turns;
  int max_turns = 600;
  bool quiet = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--help" || a == "-h") {
      selfplay_usage(stdout);
      return 0;
    }
    bool used = false;
    if (auto err = common_flag(args, i, c, used)) return usage_error(cmd, *err, selfplay_usage);
    if (used) continue;
    const bool has_value = i + 1 < args.size();
    if ((a == "--a" || a == "--b") && has_value) {
      const auto l = parse_int(args[++i], kMinLevel, kMaxLevel);
      if (!l) return usage_error(cmd, "levels are 1..8", selfplay_usage);
      level[a == "--a" ? 0 : 1] = static_cast<int>(*l);
    } else if (a == "--games" && has_value) {
      const auto n = parse_int(args[++i], 1, 100000);
      if (!n) return usage_error(cmd, "--games wants 1..100000", selfplay_usage);
      games = static_cast<int>(*n);
    } else if (a == "--seed" && has_value) {
      const auto s = parse_int(args[++i], 0, 1'000'000'000'000'000LL);
      if (!s) return usage_error(cmd, "--seed wants a whole number", selfplay_usage);
      seed = static_cast<std::uint64_t>(*s);
    } else if (a == "--random-turns" && has_value) {
      const auto k = parse_int(args[++i], 0, 40);
      if (!k) return usage_error(cmd, "--random-turns wants 0..40", selfplay_usage);
      random_turns = static_cast<int>(*k);
    } else if (a == "--max-turns" && has_value) {
      const auto m = parse_int(args[++i], 1, 100000);
      if (!m) return usage_error(cmd, "--max-turns wants a positive number", selfplay_usage);
      max_turns = static_cast<int>(*m);
    } else if (a == "--quiet") {
      quiet = true;
    } else {
      return usage_error(cmd, "unknown or incomplete option '" + str(a) + "'", selfplay_usage);
    }
  }
  if (auto err = finish_options(c)) return usage_error(cmd, *err, selfplay_usage);
  const auto created = Game::create(c.variant, c.options);
  if (const auto* err = std::get_if<std::string>(&created)) return usage_error(cmd, *err, selfplay_usage);
  const Game& start = std::get<Game>(created);
  const int opening_turns = random_turns.value_or(is_checkers(c.variant) ? 4 : 2);

  MatchScore score;
  for (int game = 0; game < games; ++game) {
    const Side a_side = game % 2 == 0 ? Side::First : Side::Second;
    Game g = random_opening(start, opening_turns, seed * 1000003 + static_cast<std::uint64_t>(game / 2));
    const std::string opening = format_position(g);
    int turns = 0;
    std::uint64_t total_nodes = 0;
    while (!g.over() && turns < max_turns) {
      const bool a_moves = g.turn() == a_side;
      SearchLimits limits;
      limits.level = level[a_moves ? 0 : 1];
      limits.seed = seed * 7919 + static_cast<std::uint64_t>(game) * 104729 +
                    static_cast<std::uint64_t>(turns);
      limits.time = c.time;
      limits.nodes = c.nodes;
      const SearchResult r = choose_turn(g, limits);
      total_nodes += r.nodes;
      for (const Action& act : r.best.actions) {
        auto applied = g.apply(act);
        if (!applied) {
          std::fprintf(stderr, "selfplay: the engine chose an illegal action (a bug)\n");
          return 1;
        }
        g = applied->next;
      }
      ++turns;
    }
    const char* outcome = "draw";
    const std::string reason = g.over() ? std::string(reason_name(g.result()->reason)) : "turn_limit";
    if (g.over() && g.result()->winner) {
      if (*g.result()->winner == a_side) {
        ++score.wins;
        outcome = "A wins";
      } else {
        ++score.losses;
        outcome = "B wins";
      }
    } else {
      ++score.draws;
    }
    if (!quiet) {
      std::printf("game %d: A (level %d) plays %s: %s (%s) after %d turns, %llu nodes; opening %s\n",
                  game + 1, level[0], std::string(side_name(c.variant, a_side)).c_str(), outcome,
                  reason.c_str(), turns, static_cast<unsigned long long>(total_nodes), opening.c_str());
      std::fflush(stdout);
    }
  }
  print_match(score, level[0], level[1]);
  return 0;
}

// ---- analyse

namespace {

void analyse_usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: bombcheckers analyse --variant V [--fen TEXT] [--moves \"TURN TURN ...\"]\n"
      "                            [--time-ms T] [--depth D] [--nodes N] [--level L]\n"
      "                            [--opt name=value]...\n"
      "  Searches one position and prints, for every finished depth, the score (side to move,\n"
      "  in men: +1.00 is one normal man), nodes, time and principal variation.\n"
      "  --fen TEXT  <to-move>:<first pieces>:<second pieces>[:<bombs a>,<bombs b>]\n"
      "              pieces: comma-separated squares (c3 = [2,2]) with prefixes K king,\n"
      "              T triple king, S shield, B bomb. Example: \"fire:c3,Bd4,KSe5:Bf6,g7\".\n"
      "              Default: the start position (\"start\").\n"
      "  --moves     turns to play first: c3-d4 (step), c3xe5xg7 (jumps), end (stop a\n"
      "              capture), kaboom: d (drop), Bd (drop a bomb), *c2 (detonate)\n"
      "  --time-ms T time budget (default 5000 unless --depth or --nodes is given)\n"
      "  --level L   1..8 (default 8); small Kaboom boards also get the exact solver\n");
}

}  // namespace

int cli_analyse(std::span<const std::string_view> args) {
  const char* cmd = "analyse";
  Common c;
  std::string fen = "start";
  std::string moves;
  std::optional<int> depth;
  int level = kMaxLevel;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--help" || a == "-h") {
      analyse_usage(stdout);
      return 0;
    }
    bool used = false;
    if (auto err = common_flag(args, i, c, used)) return usage_error(cmd, *err, analyse_usage);
    if (used) continue;
    const bool has_value = i + 1 < args.size();
    if ((a == "--fen" || a == "--position") && has_value) {
      fen = str(args[++i]);
    } else if (a == "--moves" && has_value) {
      moves = str(args[++i]);
    } else if (a == "--depth" && has_value) {
      const auto d = parse_int(args[++i], 1, 64);
      if (!d) return usage_error(cmd, "--depth wants 1..64", analyse_usage);
      depth = static_cast<int>(*d);
    } else if (a == "--level" && has_value) {
      const auto l = parse_int(args[++i], kMinLevel, kMaxLevel);
      if (!l) return usage_error(cmd, "--level wants 1..8", analyse_usage);
      level = static_cast<int>(*l);
    } else {
      return usage_error(cmd, "unknown or incomplete option '" + str(a) + "'", analyse_usage);
    }
  }
  if (auto err = finish_options(c)) return usage_error(cmd, *err, analyse_usage);
  auto parsed = parse_position(c.variant, c.options, fen);
  if (const auto* err = std::get_if<std::string>(&parsed)) return usage_error(cmd, *err, analyse_usage);
  auto played = play_turns(std::get<Game>(parsed), moves);
  if (const auto* err = std::get_if<std::string>(&played)) return usage_error(cmd, *err, analyse_usage);
  const Game& g = std::get<Game>(played);

  std::printf("%s  %s to move\n%s", format_position(g).c_str(),
              std::string(side_name(g.variant(), g.turn())).c_str(), board_picture(g).c_str());
  if (g.over()) {
    const Result& r = *g.result();
    std::printf("game over: %s (%s)\n",
                r.winner ? (std::string(side_name(g.variant(), *r.winner)) + " wins").c_str()
                         : "draw",
                std::string(reason_name(r.reason)).c_str());
    return 0;
  }

  if (g.variant() == VariantId::Kaboom && g.width() * g.height() <= kSolverMaxCells) {
    SolveBudget budget;
    budget.time = c.time.value_or(std::chrono::milliseconds(5000));
    const auto start = std::chrono::steady_clock::now();
    if (const auto solved = solve_kaboom(g, budget)) {
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const char* what = solved->outcome == Outcome::Win    ? "win"
                         : solved->outcome == Outcome::Loss ? "loss"
                                                            : "draw";
      std::printf("solved: %s", what);
      if (solved->outcome != Outcome::Draw) std::printf(" in %d turns", solved->turns);
      std::printf(" (%llu positions, %.2f s); best %s\n",
                  static_cast<unsigned long long>(solved->positions), secs,
                  solved->best ? format_turn(Turn{{*solved->best}}).c_str() : "-");
    } else {
      std::printf("solver: over budget, searching instead\n");
    }
  }

  SearchLimits limits;
  limits.level = level;
  limits.depth = depth;
  limits.nodes = c.nodes;
  limits.time = c.time;
  if (!c.time && !c.nodes && !depth) limits.time = std::chrono::milliseconds(5000);
  if (!limits.time && !limits.nodes) limits.nodes = 1'000'000'000'000ULL;  // depth only
  limits.on_iteration = [&g](const IterationInfo& info) {
    std::string pv;
    Game line = g;
    for (const Turn& t : info.pv) {
      pv += ' ' + format_turn(t);
      for (const Action& a : t.actions) {
        auto next = line.apply(a);
        if (!next) break;
        line = next->next;
      }
    }
    const long long ms = info.elapsed.count();
    std::printf("depth %2d  score %9s  nodes %11llu  time %7lld ms  nps %9.0f  pv%s\n", info.depth,
                format_score(info.score).c_str(), static_cast<unsigned long long>(info.nodes), ms,
                ms > 0 ? 1000.0 * static_cast<double>(info.nodes) / static_cast<double>(ms) : 0.0,
                pv.c_str());
    std::fflush(stdout);
  };
  const SearchResult r = choose_turn(g, limits);
  std::printf("best %s  score %s  depth %d  nodes %llu%s\n", format_turn(r.best).c_str(),
              format_score(r.score).c_str(), r.depth, static_cast<unsigned long long>(r.nodes),
              r.solved ? "  (solved)" : "");
  return 0;
}

}  // namespace bc::ai

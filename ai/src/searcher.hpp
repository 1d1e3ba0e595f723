// The search's state and its tuning, shared by the tree search (search.cpp: PVS, quiescence,
// move ordering) and the root (search_root.cpp: iterative deepening, aspiration windows, the
// level's noise, choose_turn). Internal to the ai library.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <vector>

#include "bc/ai.hpp"
#include "eval.hpp"
#include "movegen.hpp"
#include "tt.hpp"

namespace bc::ai::detail {

using Clock = std::chrono::steady_clock;

inline constexpr int kMaxPly = 128;
inline constexpr int kMaxDepth = 64;
inline constexpr int kInf = kWin + 1;
inline constexpr int kMaxQuiescence = 32;  // checkers: every capture removes a piece, so far fewer
inline constexpr int kMaxKaboomThreats = 4;  // kaboom: plies of forced replies to immediate threats

struct LevelParams {
  int max_depth;
  int noise;                    // root move misjudgement amplitude (hundredths of a man)
  int random_permille;          // chance of playing a uniformly random turn
  std::uint64_t default_nodes;  // node budget when the caller gives none (0: time based)
  std::size_t tt_megabytes;
};

inline constexpr std::array<LevelParams, kMaxLevel + 1> kLevels{{
    {1, 0, 0, 0, 1},            // unused (levels start at 1)
    {1, 300, 200, 2'000, 1},    // 1: sees one turn, judges badly, often plays at random
    {2, 180, 100, 10'000, 1},   // 2
    {3, 100, 50, 30'000, 1},    // 3
    {4, 50, 20, 100'000, 2},    // 4
    {5, 25, 0, 200'000, 4},     // 5
    {7, 12, 0, 500'000, 8},     // 6
    {10, 5, 0, 2'000'000, 16},  // 7
    {kMaxDepth, 0, 0, 0, 32},   // 8: full strength, one second by default
}};
inline constexpr std::chrono::milliseconds kDefaultTime{1000};

inline int score_to_tt(int score, int ply) {
  if (score >= kWinBound) return score + ply;
  if (score <= -kWinBound) return score - ply;
  return score;
}

inline int score_from_tt(int score, int ply) {
  if (score >= kWinBound) return score - ply;
  if (score <= -kWinBound) return score + ply;
  return score;
}

// The score of a finished game for its side to move, `ply` turns from the root.
inline int terminal_score(const Game& g, int ply) {
  const Result& r = *g.result();
  if (!r.winner) return 0;
  return *r.winner == g.turn() ? kWin - ply : -(kWin - ply);
}

class Searcher {
 public:
  Searcher(const Game& root, const SearchLimits& limits, TranspositionTable::Impl& tt)
      : root_(root), limits_(limits), tt_(tt), variant_(root.variant()), eval_(root) {
    level_ = std::clamp(limits.level, kMinLevel, kMaxLevel);
    params_ = kLevels[static_cast<std::size_t>(level_)];
    start_ = Clock::now();
    if (limits.time) {
      deadline_ = start_ + *limits.time;
      has_deadline_ = true;
    }
    node_limit_ = limits.nodes ? std::max<std::uint64_t>(*limits.nodes, 1) : params_.default_nodes;
    if (!limits.time && !limits.nodes && params_.default_nodes == 0) {
      deadline_ = start_ + kDefaultTime;
      has_deadline_ = true;
    }
    max_depth_ = std::min(params_.max_depth, limits.depth ? std::max(1, *limits.depth) : kMaxDepth);
    noise_seed_ = limits.seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    stack_.resize(kMaxPly + 1);
    tt_.new_search();
  }

  SearchResult run();
  // Every iteration up to the depth cap runs until the deadline, even one that may not finish
  // (the analysis needs the capped depth or nothing).
  void no_soft_stop() { soft_stop_ = false; }

 private:
  int pvs(const Game& g, int depth, int alpha, int beta, int ply, bool pv_node);
  int qsearch(const Game& g, int alpha, int beta, int ply, int qply);
  int qsearch_kaboom(const Game& g, int alpha, int beta, int ply, int qply);
  int root_search(std::vector<Child>& root, int depth, int alpha, int beta);
  void order_root(std::vector<Child>& root);
  int search_window(std::vector<Child>& root, int depth, int best_score);
  int static_eval(const Game& g);
  void order(const Game& g, std::vector<Child>& moves, std::uint32_t tt_move, int ply);
  void update_quiet(const Move& m, int depth, int ply);
  void update_pv(int ply, const Move& m);

  bool time_up() {
    if (stopped_) return true;
    if (node_limit_ != 0 && nodes_ >= node_limit_) {
      stopped_ = true;
    } else if ((nodes_ & 1023) == 0) {
      if (limits_.stop != nullptr && limits_.stop->load(std::memory_order_relaxed)) stopped_ = true;
      if (has_deadline_ && Clock::now() >= deadline_) stopped_ = true;
    }
    return stopped_;
  }

  std::chrono::milliseconds elapsed() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
  }

  const Game& root_;
  const SearchLimits& limits_;
  TranspositionTable::Impl& tt_;
  VariantId variant_;
  detail::Evaluator eval_;
  int level_ = kMaxLevel;
  LevelParams params_{};
  Clock::time_point start_;
  Clock::time_point deadline_;
  bool has_deadline_ = false;
  bool soft_stop_ = true;
  std::uint64_t node_limit_ = 0;
  int max_depth_ = kMaxDepth;
  std::uint64_t noise_seed_ = 0;
  std::vector<int> root_noise_;  // per root move, in the root list's order

  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
  int root_depth_ = 0;
  std::vector<std::vector<Child>> stack_;
  std::array<std::array<std::uint32_t, 2>, kMaxPly + 1> killers_{};
  std::array<int, detail::kHistorySize> history_{};
  std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1> pv_{};
  std::array<int, kMaxPly + 1> pv_len_{};
};

}  // namespace bc::ai::detail

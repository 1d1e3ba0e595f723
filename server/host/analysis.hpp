// The `analyse` request's work (docs/PROTOCOL.md, "Analysis"): the searches on the computer
// threads (never an I/O thread), the answers kept for recent positions, and the positions of the
// live games between two people, which nobody may analyse.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "bc/ai_analysis.hpp"
#include "bc/core.hpp"
#include "server/host/computer_pool.hpp"
#include "server/wire/errors.hpp"

namespace bc::server {

// Wall-clock caps of one request's search: a position with its turns, a whole game's history.
inline constexpr std::chrono::milliseconds kAnalysisTime{1000};
inline constexpr std::chrono::milliseconds kHistoryTime{3000};
// Positions whose answers are kept.
inline constexpr std::size_t kAnalysisCacheEntries = 512;
// Earlier games whose positions are kept (loading one reads the store and replays the game).
inline constexpr std::size_t kLoadedGames = 8;

// Versions and positions of one game, in order.
using GamePositions = std::vector<std::pair<std::int64_t, Game>>;

struct AnalysisJob {
  std::string address;  // the requester's: fairness on the computer threads ("": not known)
  std::string room;     // "" for a free position
  RequestId id;
  bool history = false;
  bool moves = true;
  std::optional<std::int64_t> version;  // the room form's, echoed; history: none
  int game_number = 0;                  // history: echoed
  GamePositions positions;              // one position, or every one of a history
  bool custom_start = false;  // the room's game began at a custom position: the live guard applies
  // Values for watchers (a lagged history): its lag, 0 once the game is over, and its last
  // version. With a lag, every position is checked by the live guard; a live one has no value.
  std::optional<int> lag;
  std::optional<std::int64_t> upto;
  // An earlier game of the room: reads its positions from the store on the computer thread
  // (an error text when it cannot); empty otherwise. Its time counts against the request's budget,
  // and what it loads is kept (finished games do not change), so asking again costs no load.
  std::function<std::variant<GamePositions, std::string>()> load;
  std::function<bool()> wanted;            // false: the requester is gone, drop it
  std::function<void(std::string)> reply;  // the answer's text (any thread)
};

class Analyst {
 public:
  explicit Analyst(ComputerPool* pool);

  // Answers at once from the cache, or queues the search (a full queue answers rate_limited).
  void submit(AnalysisJob job);

  // The live position of `owner` (a room of two people playing); null: none any more. Its
  // position and every one a turn from it are live; they are worked out when is_live next asks,
  // not on every move (analysis requests are rare, moves are not).
  void set_live(const void* owner, const Game* game);
  // Whether a free position is one of them (then it is not analysed).
  bool is_live(const Game& game) const;
  // Why these positions may not be analysed (one of them is live), or none.
  std::optional<std::string> guarded(const GamePositions& positions) const;

  // For tests: the answer to one position, computed here and now (cached like any).
  std::string answer_now(const AnalysisJob& job);

 private:
  // `spent`: what the request used already (an earlier game's load), taken from its budget.
  std::string run(const AnalysisJob& job, const GamePositions& positions,
                  std::chrono::milliseconds spent = {});
  std::optional<std::string> cached(const AnalysisJob& job);
  // The kept analysis of a position (one with the turns answers one without), and keeping one.
  std::optional<ai::Analysis> kept(const Game& game, bool moves);
  void keep(const Game& game, bool moves, ai::Analysis a);
  // A lagged history: each position checked by the live guard, kept values reused, the rest
  // searched within the budget and kept for the next watcher.
  std::string run_lagged(const AnalysisJob& job, const GamePositions& positions,
                         std::chrono::milliseconds spent);
  // An earlier game's positions: kept ones, or loaded (and kept) now.
  std::variant<std::shared_ptr<const GamePositions>, std::string> positions_of(
      const AnalysisJob& job);

  ComputerPool* pool_;

  struct Cached {
    Game game;
    bool moves = false;
    ai::Analysis analysis;
  };
  mutable std::mutex cache_mu_;
  std::list<Cached> lru_;  // most recent first
  std::unordered_multimap<std::uint64_t, std::list<Cached>::iterator> by_hash_;

  struct Loaded {
    std::pair<std::string, int> key;  // room, game number
    std::shared_ptr<const GamePositions> positions;
  };
  std::mutex loaded_mu_;
  std::list<Loaded> loaded_;  // most recent first

  struct Live {
    Game game;
    std::vector<std::uint64_t> keys;  // in live_ once worked out
    bool counted = false;             // keys are worked out and in live_
  };
  mutable std::mutex live_mu_;
  mutable std::unordered_map<const void*, Live> live_of_;
  mutable std::unordered_multiset<std::uint64_t> live_;
};

// The answers' texts (server/host/analysis_json.cpp).
std::string analysis_json(const RequestId& id, const Game& game,
                          std::optional<std::int64_t> version, const ai::Analysis& a,
                          std::int64_t ms, bool cached);
std::string analysis_history_json(const RequestId& id, int game_number,
                                  const GamePositions& positions,
                                  const std::vector<ai::Value>& values, std::int64_t ms);
// A lagged history (values for watchers): `lag` and `upto` said, a live position's value null.
struct LaggedHistory {
  int lag = 0;
  std::optional<std::int64_t> upto;
};
std::string analysis_history_json(const RequestId& id, int game_number,
                                  const GamePositions& positions,
                                  const std::vector<std::optional<ai::Value>>& values,
                                  std::int64_t ms, const LaggedHistory& lagged);

}  // namespace bc::server

#include "server/host/analysis.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>

#include "server/wire/views.hpp"

namespace bc::server {

namespace {

using Steady = std::chrono::steady_clock;

std::int64_t ms_since(Steady::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - t).count();
}

// A checkers position as the analysis board can set it up: the pieces and the side to move (not
// the no-progress count, which a free position cannot give).
std::uint64_t checkers_key(VariantId v, const CheckersState& c) {
  std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(v);
  for (std::uint64_t x : {std::uint64_t{c.occ[0]} | (std::uint64_t{c.occ[1]} << 32),
                          std::uint64_t{c.kings} | (std::uint64_t{c.triples} << 32),
                          std::uint64_t{c.shields} | (std::uint64_t{c.bombs} << 32),
                          static_cast<std::uint64_t>(c.turn)}) {
    h = (h ^ x) * 0x100000001B3ull;
    h ^= h >> 29;
  }
  return h;
}

// The board turned half round: square i of the 32 (bc/board.hpp) goes to 31 - i, whose bit is
// bit i of the board read backwards.
std::uint32_t turned(std::uint32_t b) {
  std::uint32_t r = 0;
  for (int i = 0; i < 32; ++i, b >>= 1) r = (r << 1) | (b & 1u);
  return r;
}

// The guard's key of a position: the same for it and its twin, whose values are the mirror of its
// own (issue 31): checkers turned half round with the colours and the turn swapped, Kaboom with
// left and right swapped. A live position cannot be analysed mirrored.
std::uint64_t guard_key(const Game& g) {
  if (const auto* c = std::get_if<CheckersState>(&g.state())) {
    CheckersState t = *c;
    t.occ = {turned(c->occ[1]), turned(c->occ[0])};
    t.kings = turned(c->kings);
    t.triples = turned(c->triples);
    t.shields = turned(c->shields);
    t.bombs = turned(c->bombs);
    t.turn = other(c->turn);
    return std::min(checkers_key(g.variant(), *c), checkers_key(g.variant(), t));
  }
  Position p;
  for (Piece q : g.pieces()) {
    q.at.x = g.width() - 1 - q.at.x;
    p.pieces.push_back(q);
  }
  p.turn = g.turn();
  p.bombs = g.bombs_left();
  auto twin = Game::from_position(g.variant(), g.options(), p);
  const auto* made = std::get_if<Game>(&twin);
  return made ? std::min(g.hash(), made->hash()) : g.hash();
}

// Every position one complete turn (and one action) from `g`: what its player is choosing between.
std::vector<std::uint64_t> reachable_keys(const Game& g) {
  std::vector<std::uint64_t> keys{guard_key(g)};
  if (g.over()) return keys;
  for (const Action& a : g.legal()) {
    if (auto next = g.apply(a)) keys.push_back(guard_key(next->next));
  }
  for (const Turn& t : g.turns()) {
    Game at = g;
    for (const Action& a : t.actions) {
      auto next = at.apply(a);
      if (!next) break;
      at = std::move(next->next);
    }
    keys.push_back(guard_key(at));
  }
  return keys;
}

}  // namespace

Analyst::Analyst(ComputerPool* pool) : pool_(pool) {}

std::optional<ai::Analysis> Analyst::kept(const Game& game, bool moves) {
  std::lock_guard lock(cache_mu_);
  auto [from, to] = by_hash_.equal_range(game.hash());
  for (auto it = from; it != to; ++it) {
    const Cached& c = *it->second;
    // An answer with the turns also answers a request without them.
    if (c.game == game && (c.moves || !moves)) {
      lru_.splice(lru_.begin(), lru_, it->second);
      ai::Analysis a = c.analysis;
      if (!moves) a.turns.clear();
      return a;
    }
  }
  return std::nullopt;
}

void Analyst::keep(const Game& game, bool moves, ai::Analysis a) {
  std::lock_guard lock(cache_mu_);
  lru_.push_front(Cached{game, moves, std::move(a)});
  by_hash_.emplace(game.hash(), lru_.begin());
  if (lru_.size() > kAnalysisCacheEntries) {
    auto last = std::prev(lru_.end());
    auto [from, to] = by_hash_.equal_range(last->game.hash());
    for (auto it = from; it != to; ++it) {
      if (it->second == last) {
        by_hash_.erase(it);
        break;
      }
    }
    lru_.pop_back();
  }
}

std::optional<std::string> Analyst::cached(const AnalysisJob& job) {
  if (job.history || job.positions.size() != 1) return std::nullopt;
  const auto& [version, game] = job.positions.front();
  auto a = kept(game, job.moves);
  if (!a) return std::nullopt;
  return analysis_json(job.id, game, job.version, *a, 0, true);
}

std::string Analyst::run_lagged(const AnalysisJob& job, const GamePositions& positions,
                                std::chrono::milliseconds spent) {
  const auto start = Steady::now() - spent;
  std::vector<std::optional<ai::Value>> values(positions.size());
  std::vector<Game> wanted;
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Game& g = positions[i].second;
    // The live guard, whatever the room's start: a live position's value is not even searched.
    if (*job.lag > 0 && is_live(g)) continue;
    if (auto a = kept(g, false)) {
      values[i] = a->value;
    } else {
      wanted.push_back(g);
      at.push_back(i);
    }
  }
  if (!wanted.empty()) {
    // A second a position, as a single one gets, within a history's cap: a watcher's usual ask is
    // the one position the game's last turn let through.
    ai::AnalysisLimits limits;
    limits.time =
        std::min<std::chrono::milliseconds>(kHistoryTime, kAnalysisTime * wanted.size()) - spent;
    limits.turns = false;
    if (pool_ != nullptr) limits.stop = pool_->closing_flag();
    const auto found = ai::analyse_positions(wanted, limits);
    for (std::size_t k = 0; k < found.size() && k < at.size(); ++k) {
      values[at[k]] = found[k];
      ai::Analysis a;
      a.value = found[k];
      keep(wanted[k], false, std::move(a));
    }
  }
  return analysis_history_json(job.id, job.game_number, positions, values, ms_since(start),
                               LaggedHistory{*job.lag, job.upto});
}

std::string Analyst::run(const AnalysisJob& job, const GamePositions& positions,
                         std::chrono::milliseconds spent) {
  const auto start = Steady::now() - spent;
  ai::AnalysisLimits limits;
  limits.time = (job.history ? kHistoryTime : kAnalysisTime) - spent;
  limits.turns = job.moves;
  if (pool_ != nullptr) limits.stop = pool_->closing_flag();
  if (job.lag) return run_lagged(job, positions, spent);
  if (job.history) {
    std::vector<Game> games;
    games.reserve(positions.size());
    for (const auto& p : positions) games.push_back(p.second);
    const auto values = ai::analyse_positions(games, limits);
    return analysis_history_json(job.id, job.game_number, positions, values, ms_since(start));
  }
  const auto& [version, game] = positions.front();
  ai::Analysis a = ai::analyse_position(game, limits);
  std::string text = analysis_json(job.id, game, job.version, a, ms_since(start), false);
  keep(game, job.moves, std::move(a));
  return text;
}

std::string Analyst::answer_now(const AnalysisJob& job) {
  if (auto hit = cached(job)) return *hit;
  return run(job, job.positions);
}

void Analyst::submit(AnalysisJob job) {
  if (auto hit = cached(job)) return job.reply(std::move(*hit));
  auto shared = std::make_shared<AnalysisJob>(std::move(job));
  ComputerJob cj;
  cj.address = shared->address;
  cj.room = shared->room.empty() ? "analysis" : shared->room;
  cj.watched = [shared] { return !shared->wanted || shared->wanted(); };
  cj.run = [this, shared] {
    const auto started = Steady::now();
    const GamePositions* positions = &shared->positions;
    std::shared_ptr<const GamePositions> loaded;
    auto refuse = [&](ErrorCode code, std::string why) {
      shared->reply(error_json(shared->id, Error{code, std::move(why)}, "analyse"));
    };
    if (shared->load) {
      auto r = positions_of(*shared);
      if (auto* e = std::get_if<std::string>(&r)) return refuse(ErrorCode::BadMessage, *e);
      loaded = std::get<std::shared_ptr<const GamePositions>>(std::move(r));
      positions = loaded.get();
      if (!shared->history) {
        // The room form of an earlier game: the one version asked for.
        const std::int64_t want = shared->version.value_or(loaded->back().first);
        auto at = std::find_if(loaded->begin(), loaded->end(),
                               [&](const auto& p) { return p.first == want; });
        if (at == loaded->end()) {
          return refuse(ErrorCode::BadMessage, "game " + std::to_string(shared->game_number) +
                                                   " has no version " + std::to_string(want));
        }
        shared->positions = {*at};
        shared->version = want;
        positions = &shared->positions;
      }
      if (shared->custom_start) {
        if (auto why = guarded(*positions)) return refuse(ErrorCode::AnalysisNotAllowed, *why);
      }
      if (auto hit = cached(*shared)) return shared->reply(std::move(*hit));
    }
    // The load counts against the request's budget (issue 31): what is left goes to the search.
    const auto spent =
        std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - started);
    const auto budget = shared->history ? kHistoryTime : kAnalysisTime;
    if (pool_ != nullptr && pool_->closing()) {
      return refuse(ErrorCode::RateLimited, "the server is not analysing now");
    }
    if (spent >= budget) {
      return refuse(ErrorCode::RateLimited,
                    "loading that game took the whole time a request gets; it is kept now, so "
                    "asking again answers at once");
    }
    shared->reply(run(*shared, *positions, spent));
  };
  cj.dropped = [shared](ComputerDrop why) {
    if (why != ComputerDrop::QueueFull) return;
    shared->reply(error_json(
        shared->id,
        Error{ErrorCode::RateLimited,
              "the server is busy with other searches; try the analysis again in a moment"},
        "analyse"));
  };
  if (pool_ == nullptr || pool_->closing()) {
    return shared->reply(error_json(
        shared->id, Error{ErrorCode::RateLimited, "the server is not analysing now"}, "analyse"));
  }
  pool_->submit(std::move(cj));
}

std::variant<std::shared_ptr<const GamePositions>, std::string> Analyst::positions_of(
    const AnalysisJob& job) {
  const auto key = std::make_pair(job.room, job.game_number);
  {
    std::lock_guard lock(loaded_mu_);
    auto it =
        std::find_if(loaded_.begin(), loaded_.end(), [&](const Loaded& l) { return l.key == key; });
    if (it != loaded_.end()) {
      loaded_.splice(loaded_.begin(), loaded_, it);
      return it->positions;
    }
  }
  auto r = job.load();
  if (auto* e = std::get_if<std::string>(&r)) return std::move(*e);
  auto positions = std::make_shared<const GamePositions>(std::get<GamePositions>(std::move(r)));
  if (positions->empty()) return std::string("that game has no positions");
  std::lock_guard lock(loaded_mu_);
  loaded_.push_front(Loaded{key, positions});
  if (loaded_.size() > kLoadedGames) loaded_.pop_back();
  return positions;
}

void Analyst::set_live(const void* owner, const Game* game) {
  std::lock_guard lock(live_mu_);
  auto it = live_of_.find(owner);
  if (it != live_of_.end() && it->second.counted) {
    for (std::uint64_t k : it->second.keys) live_.erase(live_.find(k));
  }
  if (game == nullptr) {
    if (it != live_of_.end()) live_of_.erase(it);
    return;
  }
  if (it == live_of_.end()) {
    live_of_.emplace(owner, Live{*game, {}, false});
  } else {
    it->second.game = *game;
    it->second.keys.clear();
    it->second.counted = false;
  }
}

bool Analyst::is_live(const Game& game) const {
  std::lock_guard lock(live_mu_);
  for (auto& [owner, live] : live_of_) {
    if (live.counted) continue;
    live.keys = reachable_keys(live.game);
    for (std::uint64_t k : live.keys) live_.insert(k);
    live.counted = true;
  }
  return live_.count(guard_key(game)) != 0;
}

std::optional<std::string> Analyst::guarded(const GamePositions& positions) const {
  for (const auto& [version, game] : positions) {
    if (!is_live(game)) continue;
    return positions.size() == 1
               ? std::string(
                     "this position is being played in a game between two people (or is "
                     "a turn away from it); it can be analysed once that game is over")
               : "version " + std::to_string(version) +
                     " of this game is being played in a game between two people (or is a turn "
                     "away from it); the history can be analysed once that game is over";
  }
  return std::nullopt;
}

}  // namespace bc::server

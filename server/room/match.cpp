#include "server/room/match.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <limits>

#include "server/wire/stored.hpp"

namespace bc::server {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool extend_last_turn(std::optional<LastTurn>& last, Side side, const Action& action,
                      const Effects& fx, bool game_over) {
  if (!last || last->complete || last->side != side) last = LastTurn{side, {}, {}, {}, {}, false};
  last->actions.push_back(action);
  last->captured.insert(last->captured.end(), fx.captured.begin(), fx.captured.end());
  last->exploded.insert(last->exploded.end(), fx.exploded.begin(), fx.exploded.end());
  last->promoted.insert(last->promoted.end(), fx.promoted.begin(), fx.promoted.end());
  last->complete = fx.turn_over || game_over;
  return last->complete;
}

Match::Match(GameSetup setup)
    : setup_(std::move(setup)), game_(setup_.game), started_ms_(unix_ms()) {}

bool Match::accept(Side side, const Action& action, Applied applied) {
  game_ = std::move(applied.next);
  ++version_;
  log_.push_back(LoggedAction{version_, side, action});
  if (extend_last_turn(last_, side, action, applied.effects, game_.over())) ++moves_;
  if (draw_offer_ && *draw_offer_ != side) draw_offer_.reset();
  takeback_offer_.reset();  // a move answers it: the turn it was about is not the last any more
  if (!game_.over()) return false;
  draw_offer_.reset();
  mark_ended();
  return true;
}

void Match::resign(Side loser) {
  game_ = game_.resigned(loser);
  draw_offer_.reset();
  mark_ended();
}

void Match::end(Result r) {
  game_ = game_.ended(r);
  draw_offer_.reset();
  mark_ended();
}

void Match::agree_draw() {
  game_ = game_.drawn_by_agreement();
  draw_offer_.reset();
  mark_ended();
}

bool Match::offer_draw(Side side) {
  if (draw_offer_ == other(side)) {  // both offered: that is agreement
    agree_draw();
    return true;
  }
  draw_offer_ = side;
  return false;
}

bool Match::ask_rematch(Side side, std::array<bool, 2> computers) {
  rematch_[static_cast<std::size_t>(index(side))] = true;
  for (std::size_t i = 0; i < 2; ++i) rematch_[i] = rematch_[i] || computers[i];
  return rematch_[0] && rematch_[1];
}

std::optional<std::int64_t> Match::takeback_target(Side side) const {
  auto it = log_.rbegin();
  while (it != log_.rend() && it->side != side) ++it;
  if (it == log_.rend()) return std::nullopt;
  while (it != log_.rend() && it->side == side) ++it;  // back to the first hop of that turn
  return it == log_.rend() ? 0 : it->version;
}

void Match::replay_log() {
  game_ = fresh_game(setup_);
  last_.reset();
  moves_ = 0;
  for (const LoggedAction& e : log_) {
    std::optional<Applied> applied = game_.apply(e.action);
    if (!applied) break;  // cannot happen: every logged action was accepted from this start
    game_ = std::move(applied->next);
    if (extend_last_turn(last_, e.side, e.action, applied->effects, game_.over())) ++moves_;
  }
}

void Match::take_back(std::int64_t to) {
  log_.erase(std::partition_point(log_.begin(), log_.end(),
                                  [to](const LoggedAction& e) { return e.version <= to; }),
             log_.end());  // versions only grow along the log
  replay_log();
  ++version_;
  takebacks_.push_back(TakeBack{version_, to});
  draw_offer_.reset();
  takeback_offer_.reset();
}

void Match::next_game() {
  game_ = fresh_game(setup_);
  version_ = 0;
  moves_ = 0;
  ++game_number_;
  games_ = game_number_;
  started_ms_ = unix_ms();
  ended_ms_ = 0;
  last_.reset();
  log_.clear();
  draw_offer_.reset();
  takeback_offer_.reset();
  takebacks_.clear();
  hints_.clear();
  rematch_ = {false, false};
}

bool Match::add_hint(std::int64_t version) {
  if (std::find(hints_.begin(), hints_.end(), version) != hints_.end()) return false;
  hints_.push_back(version);
  return true;
}

std::vector<std::pair<std::int64_t, Game>> Match::positions() const {
  std::vector<std::pair<std::int64_t, Game>> out;
  out.reserve(log_.size() + 1);
  Game game = fresh_game(setup_);
  for (const LoggedAction& entry : log_) {
    out.emplace_back(entry.version - 1, game);
    std::optional<Applied> applied = game.apply(entry.action);
    if (!applied) break;  // cannot happen: every logged action was accepted from this start
    game = std::move(applied->next);
  }
  out.emplace_back(version_, game_);
  return out;
}

std::optional<ReplayError> Match::restore(const Stored& s) {
  game_number_ = std::max(1, s.game_number);
  games_ = std::max(s.games, game_number_);
  started_ms_ = s.started_ms;  // 0: unknown (a record file without times)
  ended_ms_ = s.ended_ms;
  const VariantId v = game_.variant();
  auto error = [&](std::int64_t version, const std::string& why) {
    return ReplayError{version, "game " + std::to_string(game_number_) + ", version " +
                                    std::to_string(version) + ": " + why};
  };
  static const std::vector<TakeBack> kNone;
  const auto& takebacks = s.takebacks ? *s.takebacks : kNone;
  // First the line the game ended on: takebacks cut it, actions extend it. The undone actions are
  // dropped unplayed, so a restore replays the final line once however many takebacks the game
  // had (replaying the line at each takeback made it quadratic: issue 31).
  std::vector<LoggedAction> line;
  std::int64_t version = version_;
  auto next_takeback = takebacks.begin();
  // The takebacks due before version `before`, in order.
  auto take_backs_until = [&](std::int64_t before) -> std::optional<ReplayError> {
    for (; next_takeback != takebacks.end() && next_takeback->version < before; ++next_takeback) {
      const TakeBack& t = *next_takeback;
      // The actions it undid are not replayed (a record leaves them out): versions jump there.
      if (t.version <= version) {
        return error(t.version,
                     "a takeback, but the game was already at version " + std::to_string(version));
      }
      const auto cut = std::partition_point(
          line.begin(), line.end(), [&](const LoggedAction& e) { return e.version <= t.to; });
      const bool known = t.to == 0 || (cut != line.begin() && std::prev(cut)->version == t.to);
      if (!known) {
        return error(t.version, "a takeback to version " + std::to_string(t.to) +
                                    ", which is not a position of the game");
      }
      line.erase(cut, line.end());
      version = t.version;
      takebacks_.push_back(t);
    }
    return std::nullopt;
  };
  for (const auto& a : *s.actions) {
    if (auto e = take_backs_until(a.version)) return e;
    if (a.version != version + 1) {
      return error(a.version, "expected version " + std::to_string(version + 1) + " next");
    }
    version = a.version;
    line.push_back(a);
  }
  if (auto e = take_backs_until(std::numeric_limits<std::int64_t>::max())) return e;
  // Then the line, each action checked where it stands.
  log_.reserve(line.size());
  for (const auto& a : line) {
    if (game_.over()) return error(a.version, "the game was already over");
    if (a.side != game_.turn()) {
      return error(a.version, "it was " + std::string(side_name(v, game_.turn())) +
                                  "'s turn, not " + std::string(side_name(v, a.side)) + "'s");
    }
    auto applied = game_.apply(a.action);
    if (!applied) {
      return error(a.version, "the action " + action_json(a.action) + " is not legal there");
    }
    game_ = std::move(applied->next);
    log_.push_back(a);
    if (extend_last_turn(last_, a.side, a.action, applied->effects, game_.over())) ++moves_;
  }
  version_ = version;
  if (s.hints) hints_ = *s.hints;
  if (!s.result) return std::nullopt;
  const Result& r = *s.result;
  const std::string game_text = "game " + std::to_string(game_number_) + ": the stored result ";
  if (game_.over()) {
    if (*game_.result() == r) return std::nullopt;
    return ReplayError{version_, game_text + result_text(v, r) +
                                     " is not the one the replay reaches, " +
                                     result_text(v, game_.result())};
  }
  const bool server_level = (r.reason == Reason::Resigned && r.winner) ||
                            (r.reason == Reason::DrawAgreed && !r.winner) ||
                            (r.reason == Reason::Aborted && !r.winner) ||
                            r.reason == Reason::Timeout || r.reason == Reason::Abandoned;
  if (server_level) {
    game_ = game_.ended(r);
  } else {
    return ReplayError{version_, game_text + result_text(v, r) + " is not reached by the replay"};
  }
  return std::nullopt;
}

}  // namespace bc::server

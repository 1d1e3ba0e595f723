// A match: one room's game and everything that belongs to the game rather than to the people in
// the room: the setup it starts from, the game, its version and log, the last turn, the move
// count, draw and rematch offers, the rematch series and the times. Socket-free and JSON-free; the
// room (seats, members, tokens, the order of checks) owns one and asks it to change.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/wire/views.hpp"

namespace bc::server {

std::int64_t unix_ms();  // the wall clock, for the store's times

// Why a log does not replay: the first bad version and what is wrong with it.
struct ReplayError {
  std::int64_t version = 0;
  std::string message;
};

class Match {
 public:
  explicit Match(GameSetup setup);

  const GameSetup& setup() const { return setup_; }
  const Game& game() const { return game_; }
  VariantId variant() const { return game_.variant(); }
  std::int64_t version() const { return version_; }
  int game_number() const { return game_number_; }
  int games() const { return games_; }
  int moves() const { return moves_; }
  const std::optional<LastTurn>& last() const { return last_; }
  const std::vector<LoggedAction>& log() const { return log_; }
  std::optional<Side> draw_offer() const { return draw_offer_; }
  const std::array<bool, 2>& rematch() const { return rematch_; }
  std::int64_t started_ms() const { return started_ms_; }
  std::int64_t ended_ms() const { return ended_ms_; }
  // Actions played in this game or a game after the first: the seats are committed.
  bool started() const { return version_ > 0 || game_number_ > 1; }

  // Applies an action core accepted: version, log, last turn and move count; playing on declines
  // the opponent's draw offer. True when the game ended with it.
  bool accept(Side side, const Action& action, Applied applied);
  // Ends the game by resignation or agreement; both end any draw offer.
  void resign(Side loser);
  void agree_draw();
  // Ends the game with a result the server decided (time, abort, abandonment).
  void end(Result r);
  // `side` offers a draw: true when the opponent had offered one (a draw by agreement now).
  bool offer_draw(Side side);
  void withdraw_draw_offer() { draw_offer_.reset(); }
  // Takebacks (docs/PROTOCOL.md, "Takebacks"). The version to go back to so that `side`'s last
  // turn (or the turn it is in) is undone, `side` to move there; none if it has played nothing in
  // this game.
  std::optional<std::int64_t> takeback_target(Side side) const;
  // Goes back to `to` (0 or the version of an action in the log): the actions after it are
  // undone, and the takeback itself is the next version (versions never repeat).
  void take_back(std::int64_t to);
  const std::vector<TakeBack>& takebacks() const { return takebacks_; }
  std::optional<Side> takeback_offer() const { return takeback_offer_; }
  void offer_takeback(Side side) { takeback_offer_ = side; }
  void withdraw_takeback_offer() { takeback_offer_.reset(); }
  // `side` asks for a rematch (`computers`: seats that always agree). True when both have asked.
  bool ask_rematch(Side side, std::array<bool, 2> computers);
  // The next game of the series from the same start (after both asked for it).
  void next_game();

  // Rebuilds the match from stored facts: the game number and times, the current game's log
  // replayed through core in order with its versions, and a stored result that the rules cannot
  // reach (a resignation, an agreed draw). On an error the match is unusable.
  struct Stored {
    int game_number = 1;
    int games = 1;
    std::int64_t started_ms = 0;
    std::int64_t ended_ms = 0;
    const std::vector<LoggedAction>* actions = nullptr;
    std::optional<Result> result;
    const std::vector<TakeBack>* takebacks = nullptr;  // in version order, among the actions
    const std::vector<std::int64_t>* hints = nullptr;  // versions analysed during the game
  };
  std::optional<ReplayError> restore(const Stored& s);

  // Every position of the current game from version 0, as state views of `base` (room, players,
  // and the status of the last one) written by `write`; the last one is the match's own (it knows
  // a resignation or an agreed draw).
  template <class Write>
  void for_each_position(StateView base, Write write) const;
  // The same positions as games, with their versions (for analysis).
  std::vector<std::pair<std::int64_t, Game>> positions() const;

  // Versions of this game analysed while it was being played against the computer (hints), in
  // the order asked. True when `version` is new.
  bool add_hint(std::int64_t version);
  const std::vector<std::int64_t>& hints() const { return hints_; }

 private:
  void mark_ended() { ended_ms_ = unix_ms(); }
  // The game, last turn and move count from the start through log_.
  void replay_log();

  GameSetup setup_;
  Game game_;
  std::int64_t version_ = 0;
  int game_number_ = 1;
  int games_ = 1;
  int moves_ = 0;
  std::optional<LastTurn> last_;
  std::vector<LoggedAction> log_;
  std::optional<Side> draw_offer_;
  std::optional<Side> takeback_offer_;
  std::vector<TakeBack> takebacks_;
  std::vector<std::int64_t> hints_;
  std::array<bool, 2> rematch_{false, false};
  std::int64_t started_ms_ = 0;
  std::int64_t ended_ms_ = 0;
};

// Adds one accepted action to the turn it belongs to (a new turn when the side changes or the
// last one was complete). True when that completes the turn.
bool extend_last_turn(std::optional<LastTurn>& last, Side side, const Action& action,
                      const Effects& fx, bool game_over);

template <class Write>
void Match::for_each_position(StateView v, Write write) const {
  const RoomStatus now = v.status;
  v.with_legal = false;
  v.game_number = game_number_;
  Game game = fresh_game(setup_);
  std::optional<LastTurn> last;
  int moves = 0;
  for (const LoggedAction& entry : log_) {
    v.game = &game;
    v.version = entry.version - 1;
    v.status = RoomStatus::Playing;
    v.last = &last;
    v.moves = moves;
    write(v);
    std::optional<Applied> applied = game.apply(entry.action);
    if (!applied) break;  // cannot happen: every logged action was accepted from this start
    game = std::move(applied->next);
    if (extend_last_turn(last, entry.side, entry.action, applied->effects, game.over())) ++moves;
  }
  v.game = &game_;
  v.version = version_;
  v.status = now;
  v.last = &last_;
  v.moves = moves_;
  write(v);
}

}  // namespace bc::server

// A game's clocks: time controls, the time each side has left, lag compensation after
// scalachess's lag tracker, and when a side is out of time. Pure: every time is passed in (steady
// milliseconds), so tests drive it with a fake clock. The room owns one per clocked game.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "bc/core.hpp"

namespace bc::server {

// Where a room reads the time: the real clocks, or a test's fake one.
class TimeSource {
 public:
  virtual ~TimeSource() = default;
  virtual std::int64_t steady_ms() const = 0;  // deadlines and durations
  virtual std::int64_t unix_ms() const = 0;    // times on the wire and in the store
};
const TimeSource& real_time();
// A clock that moves only when told (tests).
class FakeTime final : public TimeSource {
 public:
  std::int64_t steady_ms() const override { return steady_; }
  std::int64_t unix_ms() const override { return unix_; }
  void advance(std::int64_t ms) {
    steady_ += ms;
    unix_ += ms;
  }

 private:
  std::int64_t steady_ = 1'000'000;
  std::int64_t unix_ = 1'767'225'600'000;
};

struct TimeControl {
  enum class Kind : std::uint8_t { Fischer, Correspondence };
  Kind kind = Kind::Fischer;
  std::int64_t base_ms = 0;  // Fischer: each side's time at the start; correspondence: per move
  std::int64_t increment_ms = 0;  // Fischer: added after each timed turn
  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};
// "5+3" (minutes + seconds), "1.5+0", "20s+1" (under a minute or not a quarter minute), "3d".
std::string time_control_text(const TimeControl& tc);

// How much of a player's network lag the server forgives (docs/PROTOCOL.md, "Lag compensation").
// Each move may be forgiven up to the quota; each move refills the quota by `gain`, up to 7 gains,
// so a client that claims more lag than it has gains at most `gain` per move in the long run.
class LagTracker {
 public:
  explicit LagTracker(const TimeControl& tc);
  // The lag (ms) forgiven for a move that claims `lag`; refills the quota.
  std::int64_t on_move(std::int64_t lag);
  std::int64_t quota() const { return quota_; }
  std::int64_t gain() const { return gain_; }
  std::int64_t quota_max() const { return quota_max_; }

 private:
  std::int64_t gain_ = 0;
  std::int64_t quota_ = 0;
  std::int64_t quota_max_ = 0;
};

class GameClock {
 public:
  // `abort_after_ms`: how long each side has for its first turn (the clocks start after both).
  GameClock(TimeControl tc, std::int64_t abort_after_ms);

  const TimeControl& control() const { return tc_; }
  // Both sides have made their first turn: the clocks run from now on.
  bool timed() const { return turns_ >= 2; }
  int turns() const { return turns_; }
  // The side whose turn it is (its clock runs, or will once its turn's state is sent); none
  // after the end.
  std::optional<Side> running() const { return running_; }
  // The running side's turn has begun: its state was sent.
  bool ticking() const { return since_.has_value(); }
  // Time left as of the last action (the running turn not counted) and as of `now`.
  std::int64_t left(Side s) const { return left_[static_cast<std::size_t>(index(s))]; }
  std::int64_t left(Side s, std::int64_t now) const;
  const std::array<std::int64_t, 2>& lefts() const { return left_; }
  const LagTracker& lag(Side s) const { return lag_[static_cast<std::size_t>(index(s))]; }

  // The state giving `s` the turn was sent at `now`: s's turn begins (idempotent).
  void start(Side s, std::int64_t now);
  // What an action of `s` arriving at `arrived`, claiming `lag` ms of network lag, would cost.
  struct Charge {
    std::int64_t elapsed = 0;      // since the turn (or the previous hop) began
    std::int64_t compensated = 0;  // forgiven as lag
    bool out_of_time = false;      // the time was gone before the action came
  };
  Charge charge(Side s, std::int64_t arrived, std::int64_t lag) const;
  // Applies it: `turn_over` ends s's turn (the increment is added, or a correspondence clock is
  // set back); otherwise s's time stays s's through the next hop. Requires !out_of_time.
  void act(Side s, std::int64_t arrived, std::int64_t lag, bool turn_over);
  // When the running side is out of time, grace included; none while not ticking.
  std::optional<std::int64_t> flag_deadline() const;
  // When the side to move has not made its first turn in time; none once timed().
  std::optional<std::int64_t> abort_deadline() const;
  bool out_of_time(std::int64_t now) const;
  // A takeback at `now` to the position after `turns` complete turns, `s` to move there: the
  // running turn so far is charged (no lag, no increment), the increments the undone turns earned
  // go with them (else act+takeback against the computer would mint time), and `s` runs once its
  // state is sent. The time spent is not given back.
  void take_back(Side s, int turns, std::int64_t now);
  // The running side ran out at `now`: its time is 0 and the clocks stop.
  void flag();
  // The game ended some other way at `now`: the running turn is charged and the clocks stop.
  void stop(std::int64_t now);
  // The running turn so far is charged to no one: it begins again at `now` (the mover's connection
  // went down with the server node that carried it, and the owner only notices a lease later).
  void forgive(std::int64_t now);
  // After a restart: the times of the last committed action, the turns played, `s` to move. The
  // time since that action is charged to no one.
  void resume(std::array<std::int64_t, 2> left, int turns, std::optional<Side> to_move);

 private:
  std::int64_t grace() const;

  TimeControl tc_;
  std::int64_t abort_after_ms_;
  std::array<std::int64_t, 2> left_{};
  std::array<LagTracker, 2> lag_;
  std::optional<Side> running_ = Side::First;
  std::optional<std::int64_t> since_;  // when the running turn (or hop) began
  int turns_ = 0;                      // complete turns played
};

}  // namespace bc::server

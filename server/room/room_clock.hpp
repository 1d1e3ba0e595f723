// A room's clocks (docs/PROTOCOL.md, "Clocks"): the game clock of a clocked game, the clock view a
// state shows (made once a position, so every copy of a state is the same text), who may be
// claimed against after leaving, and the presence the players were last shown. The room decides
// when a clock starts, stops or flags; this keeps the times and what is shown of them.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <tuple>

#include "server/game/clock.hpp"
#include "server/room/seats.hpp"
#include "server/wire/limits.hpp"
#include "server/wire/views.hpp"

namespace bc::server {

class RoomClock {
 public:
  RoomClock(const Limits& limits, const TimeSource* time)
      : abort_after_(limits.abort_after),
        claim_after_(limits.claim_after),
        presence_every_(limits.presence_every),
        time_(time) {}

  // A new game's clocks (none for an untimed game); `to_move`: a custom start may be water's.
  void reset(const std::optional<TimeControl>& control, Side to_move);
  explicit operator bool() const { return clock_.has_value(); }
  GameClock* operator->() { return &*clock_; }
  const GameClock* operator->() const { return &*clock_; }
  const std::optional<GameClock>& game_clock() const { return clock_; }
  // GameClock::forgive, and the clocks shown again as of now.
  void forgive(std::int64_t now) {
    if (!clock_) return;
    clock_->forgive(now);
    shown_.reset();
  }

  // The clocks as a state of position `at` (game number, version, status) shows them.
  using Position = std::tuple<int, std::int64_t, RoomStatus>;
  const ClockView* view(const Position& at) const;
  // When the room must act on its own: the flag of the side to move, or the first turns' abort.
  std::optional<std::int64_t> next_deadline() const;
  // How long a player may be gone before the opponent claims: serve's --claim-after, or by the
  // time control's length.
  std::int64_t claim_grace_ms() const;
  // The side that may be claimed against in a game on the move (`playing`): a person gone with a
  // person still here against them, on a Fischer clock past the first turns.
  std::optional<AwayView> away(const Seats& seats, bool playing) const;
  // The players' lag changed enough since the last `presence`, and the last one is old enough:
  // what to show now (remembered as shown).
  std::optional<std::array<std::optional<std::int64_t>, 2>> presence_due(const Seats& seats);

 private:
  // Copies, not a reference to the room's limits: a room is moved (a restored one, for one).
  std::chrono::milliseconds abort_after_, claim_after_, presence_every_;
  const TimeSource* time_;
  std::optional<GameClock> clock_;
  struct Shown {
    Position at;
    ClockView view;
  };
  mutable std::optional<Shown> shown_;
  std::array<std::optional<std::int64_t>, 2> lag_shown_{};  // in the last `presence`
  std::int64_t presence_at_ = 0;                            // when it was sent (steady ms)
};

}  // namespace bc::server

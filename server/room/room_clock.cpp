// A room's clocks and what is shown of them (server/room/room_clock.hpp).
#include "server/room/room_clock.hpp"

#include <algorithm>
#include <cstdlib>

namespace bc::server {

void RoomClock::reset(const std::optional<TimeControl>& control, Side to_move) {
  shown_.reset();
  if (!control) {
    clock_.reset();
    return;
  }
  clock_.emplace(*control, abort_after_.count());
  clock_->resume({control->base_ms, control->base_ms}, 0, to_move);
}

const ClockView* RoomClock::view(const Position& at) const {
  if (!clock_) return nullptr;
  if (shown_ && shown_->at == at) return &shown_->view;
  const std::int64_t now = time_->steady_ms();
  ClockView v;
  v.control = clock_->control();
  v.at = time_->unix_ms();
  for (Side s : {Side::First, Side::Second})
    v.left[static_cast<std::size_t>(index(s))] = clock_->left(s, now);
  if (std::get<RoomStatus>(at) == RoomStatus::Playing) {
    if (clock_->timed()) {
      v.running = clock_->running();
    } else {
      const auto d = clock_->abort_deadline();
      v.abort_at = v.at + (d ? std::max<std::int64_t>(0, *d - now) : abort_after_.count());
    }
  }
  shown_ = Shown{at, v};
  return &shown_->view;
}

std::optional<std::int64_t> RoomClock::next_deadline() const {
  if (!clock_) return std::nullopt;
  if (auto d = clock_->flag_deadline()) return d;
  return clock_->abort_deadline();
}

std::int64_t RoomClock::claim_grace_ms() const {
  if (claim_after_.count() > 0) return claim_after_.count();
  const TimeControl& tc = clock_->control();
  const std::int64_t estimate_s = (tc.base_ms + 40 * tc.increment_ms) / 1000;
  if (estimate_s < 8 * 60) return 20'000;
  if (estimate_s <= 25 * 60) return 60'000;
  return 120'000;
}

std::optional<AwayView> RoomClock::away(const Seats& seats, bool playing) const {
  // Not days per move; before both first turns the abort handles a player who does not come.
  if (!clock_ || !playing || !clock_->timed() ||
      clock_->control().kind != TimeControl::Kind::Fischer) {
    return std::nullopt;
  }
  for (Side s : {Side::First, Side::Second}) {
    const auto& gone = seats[s];
    const auto& here = seats[other(s)];
    if (!gone || gone->ai || gone->conn || !gone->away_since) continue;
    if (!here || here->ai || !here->conn) continue;
    return AwayView{s, gone->away_unix, gone->away_unix + claim_grace_ms()};
  }
  return std::nullopt;
}

std::optional<std::array<std::optional<std::int64_t>, 2>> RoomClock::presence_due(
    const Seats& seats) {
  const std::int64_t now = time_->steady_ms();
  bool changed = false;
  for (Side s : {Side::First, Side::Second}) {
    const auto& seat = seats[s];
    const auto shown = lag_shown_[static_cast<std::size_t>(index(s))];
    const auto have = seat ? seat->lag : std::nullopt;
    if (have.has_value() != shown.has_value() || (have && std::abs(*have - *shown) >= 20))
      changed = true;
  }
  if (!changed || now - presence_at_ < presence_every_.count()) return std::nullopt;
  for (Side s : {Side::First, Side::Second}) {
    const auto& seat = seats[s];
    lag_shown_[static_cast<std::size_t>(index(s))] = seat ? seat->lag : std::nullopt;
  }
  presence_at_ = now;
  return lag_shown_;
}

}  // namespace bc::server

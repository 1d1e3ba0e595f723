#include "server/game/clock.hpp"

#include <algorithm>
#include <chrono>

namespace bc::server {

namespace {

std::size_t at(Side s) {
  return static_cast<std::size_t>(index(s));
}

std::string trimmed(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// The estimated length of a game on this control, in seconds (base + 40 increments).
std::int64_t estimate_seconds(const TimeControl& tc) {
  return (tc.base_ms + 40 * tc.increment_ms) / 1000;
}

class RealTime final : public TimeSource {
 public:
  std::int64_t steady_ms() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  std::int64_t unix_ms() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

}  // namespace

const TimeSource& real_time() {
  static const RealTime time;
  return time;
}

std::string time_control_text(const TimeControl& tc) {
  if (tc.kind == TimeControl::Kind::Correspondence) {
    constexpr std::int64_t kDay = 86'400'000;
    if (tc.base_ms % kDay == 0) return std::to_string(tc.base_ms / kDay) + "d";
    return trimmed(static_cast<double>(tc.base_ms) / 3'600'000.0) + "h";
  }
  const std::string inc = trimmed(static_cast<double>(tc.increment_ms) / 1000.0);
  if (tc.base_ms >= 60'000 && tc.base_ms % 15'000 == 0) {
    return trimmed(static_cast<double>(tc.base_ms) / 60'000.0) + "+" + inc;
  }
  return trimmed(static_cast<double>(tc.base_ms) / 1000.0) + "s+" + inc;
}

// scalachess's constants, in ms: a gain of 40% of the estimated game's seconds as centiseconds
// plus 150 ms, at most 1 s; the quota starts at 3 gains and holds at most 7.
LagTracker::LagTracker(const TimeControl& tc) {
  if (tc.kind == TimeControl::Kind::Correspondence) return;  // no compensation: days per move
  gain_ = std::min<std::int64_t>(1000, estimate_seconds(tc) * 4 + 150);
  quota_ = 3 * gain_;
  quota_max_ = 7 * gain_;
}

std::int64_t LagTracker::on_move(std::int64_t lag) {
  const std::int64_t comp = std::clamp<std::int64_t>(lag, 0, quota_);
  quota_ = std::min(quota_ + gain_ - comp, quota_max_);
  return comp;
}

GameClock::GameClock(TimeControl tc, std::int64_t abort_after_ms)
    : tc_(tc),
      abort_after_ms_(abort_after_ms),
      left_{tc.base_ms, tc.base_ms},
      lag_{LagTracker(tc), LagTracker(tc)} {}

std::int64_t GameClock::left(Side s, std::int64_t now) const {
  if (!timed() || running_ != s || !since_) return left(s);
  return left(s) - std::max<std::int64_t>(0, now - *since_);
}

void GameClock::start(Side s, std::int64_t now) {
  if (running_ != s || since_) return;
  since_ = now;
}

GameClock::Charge GameClock::charge(Side s, std::int64_t arrived, std::int64_t lag) const {
  Charge c;
  if (!timed() || running_ != s || !since_) return c;
  c.elapsed = std::max<std::int64_t>(0, arrived - *since_);
  if (tc_.kind == TimeControl::Kind::Fischer) {
    c.compensated = std::clamp<std::int64_t>(lag, 0, lag_[at(s)].quota());
  }
  c.out_of_time = c.elapsed - c.compensated >= left(s);
  return c;
}

void GameClock::act(Side s, std::int64_t arrived, std::int64_t lag, bool turn_over) {
  const bool was_timed = timed();
  if (was_timed && running_ == s && since_) {
    const std::int64_t elapsed = std::max<std::int64_t>(0, arrived - *since_);
    std::int64_t comp = 0;
    if (tc_.kind == TimeControl::Kind::Fischer) comp = lag_[at(s)].on_move(lag);
    left_[at(s)] -= std::max<std::int64_t>(0, elapsed - comp);
  }
  since_.reset();
  if (!turn_over) return;  // the next hop's state starts s's time again
  ++turns_;
  if (was_timed) {
    if (tc_.kind == TimeControl::Kind::Fischer) {
      left_[at(s)] += tc_.increment_ms;
    } else {
      left_[at(s)] = tc_.base_ms;
    }
  }
  running_ = other(s);
}

std::int64_t GameClock::grace() const {
  if (tc_.kind == TimeControl::Kind::Correspondence || !running_) return 0;
  return std::min<std::int64_t>(lag_[at(*running_)].quota(), 2000);
}

std::optional<std::int64_t> GameClock::flag_deadline() const {
  if (!timed() || !running_ || !since_) return std::nullopt;
  return *since_ + left(*running_) + grace();
}

std::optional<std::int64_t> GameClock::abort_deadline() const {
  if (timed() || !running_ || !since_) return std::nullopt;
  return *since_ + abort_after_ms_;
}

bool GameClock::out_of_time(std::int64_t now) const {
  const auto d = flag_deadline();
  return d && now >= *d;
}

void GameClock::take_back(Side s, int turns, std::int64_t now) {
  if (running_ && since_ && timed()) left_[at(*running_)] = left(*running_, now);
  // Turns alternate, and the first one undone was s's. Turn k (from 0) earned the increment when
  // it was timed, that is when k >= 2 (act()).
  if (tc_.kind == TimeControl::Kind::Fischer) {
    for (int k = std::max(turns, 2); k < turns_; ++k) {
      const Side mover = (k - turns) % 2 == 0 ? s : other(s);
      left_[at(mover)] = std::max<std::int64_t>(0, left_[at(mover)] - tc_.increment_ms);
    }
  }
  turns_ = std::min(turns_, std::max(turns, 0));
  running_ = s;
  since_.reset();
}

void GameClock::flag() {
  if (running_) left_[at(*running_)] = 0;
  running_.reset();
  since_.reset();
}

void GameClock::stop(std::int64_t now) {
  if (running_ && timed()) left_[at(*running_)] = std::max<std::int64_t>(0, left(*running_, now));
  running_.reset();
  since_.reset();
}

void GameClock::forgive(std::int64_t now) {
  if (since_) since_ = now;
}

void GameClock::resume(std::array<std::int64_t, 2> left, int turns, std::optional<Side> to_move) {
  left_ = left;
  turns_ = turns;
  running_ = to_move;
  since_.reset();
}

}  // namespace bc::server

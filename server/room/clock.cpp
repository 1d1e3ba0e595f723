// The room's clocks and what hangs on them (docs/PROTOCOL.md, "Clocks" and "Takebacks"): the
// clock view of a state, the flag and abort deadlines, abandonment claims, presence and
// takebacks. Part of Room (server/room/room.hpp); split from room.cpp to keep each file readable.
#include <algorithm>
#include <cstdlib>

#include "server/room/room.hpp"

namespace bc::server {

namespace {

std::size_t at(Side s) {
  return static_cast<std::size_t>(index(s));
}

}  // namespace

void Room::reset_clock() {
  if (!match_.setup().clock) return;
  const TimeControl tc = *match_.setup().clock;
  clock_.emplace(tc, limits_.abort_after.count());
  clock_->resume({tc.base_ms, tc.base_ms}, 0, game().turn());  // a custom start may be water's
}

void Room::mark_away(Seat& seat) const {
  seat.away_since = time_->steady_ms();
  seat.away_unix = time_->unix_ms();
}

std::int64_t Room::claim_grace_ms() const {
  if (limits_.claim_after.count() > 0) return limits_.claim_after.count();
  const TimeControl& tc = clock_->control();
  const std::int64_t estimate_s = (tc.base_ms + 40 * tc.increment_ms) / 1000;
  if (estimate_s < 8 * 60) return 20'000;
  if (estimate_s <= 25 * 60) return 60'000;
  return 120'000;
}

std::optional<AwayView> Room::away_view() const {
  // Only where someone can claim: a clocked game on the move (not days per move), a person gone
  // and a person still here against them.
  // (Before both first turns the abort handles a player who does not come.)
  if (!clock_running() || !clock_->timed() ||
      clock_->control().kind != TimeControl::Kind::Fischer) {
    return std::nullopt;
  }
  for (Side s : {Side::First, Side::Second}) {
    const auto& gone = seats_[at(s)];
    const auto& here = seats_[at(other(s))];
    if (!gone || gone->ai || gone->conn || !gone->away_since) continue;
    if (!here || here->ai || !here->conn) continue;
    return AwayView{s, gone->away_unix, gone->away_unix + claim_grace_ms()};
  }
  return std::nullopt;
}

Outcome Room::handle_claim(MemberId m, const RequestId& id, const ClaimMsg& c) {
  if (auto e = check_player_in_game(m)) return refuse(m, id, "claim", e->code, e->message);
  const Side side = *seat_of(m);
  const auto away = away_view();
  if (!away || away->side == side) {
    return refuse(m, id, "claim", ErrorCode::CannotClaim,
                  clock_ ? "your opponent is here: a claim is only for an opponent who left"
                         : "claims are only for games on a clock");
  }
  const std::int64_t wait =
      *seats_[at(other(side))]->away_since + claim_grace_ms() - time_->steady_ms();
  if (wait > 0) {
    return refuse(m, id, "claim", ErrorCode::CannotClaim,
                  "your opponent may still come back: you can claim in " +
                      std::to_string((wait + 999) / 1000) + " s");
  }
  clock_->stop(time_->steady_ms());
  match_.end(Result{c.draw ? std::nullopt : std::optional<Side>(side), Reason::Abandoned});
  Outcome o;
  mark_ended(o);
  add_ok(o, m, id, "claim");
  add_state(o);
  return o;
}

// At most this many proposals per side and game; after a decline, none until the game moves.
constexpr int kTakebackAsks = 3;

Outcome Room::handle_takeback(MemberId m, const RequestId& id) {
  if (auto e = check_player_in_game(m)) return refuse(m, id, "takeback", e->code, e->message);
  // At one screen the last turn is undone, or the one under way, whoever made it.
  const Side side = !one_screen()       ? *seat_of(m)
                    : game().mid_turn() ? game().turn()
                                        : other(game().turn());
  if (!match_.takeback_target(side)) {
    return refuse(m, id, "takeback", ErrorCode::NoTakeback,
                  "you have not played a turn in this game yet: there is nothing to take back");
  }
  Outcome o;
  if (match_.takeback_offer() == side) {
    add_ok(o, m, id, "takeback");  // asked again: nothing new to tell
    return o;
  }
  const auto& opponent = seats_[at(other(side))];
  if ((opponent && opponent->ai) || one_screen()) {
    // Casual play: the computer (or the other player at the same screen) grants it at once; the
    // computer's own reply is taken back too.
    add_ok(o, m, id, "takeback");
    take_back(side, o);
    return o;
  }
  if (takeback_asks_[at(side)] >= kTakebackAsks) {
    return refuse(m, id, "takeback", ErrorCode::RateLimited,
                  "at most " + std::to_string(kTakebackAsks) + " takeback proposals a game");
  }
  if (takeback_declined_at_[at(side)] == version()) {
    return refuse(m, id, "takeback", ErrorCode::RateLimited,
                  "your opponent declined; you may ask again after the next move");
  }
  ++takeback_asks_[at(side)];
  match_.offer_takeback(side);
  add_ok(o, m, id, "takeback");
  o.messages.push_back(everyone(takeback_offer_json(match_.variant(), side)));
  add_state(o);
  return o;
}

Outcome Room::handle_answer_takeback(MemberId m, const RequestId& id, const AnswerTakebackMsg& a) {
  if (auto e = check_player_in_game(m)) {
    return refuse(m, id, "answer_takeback", e->code, e->message);
  }
  const Side side = *seat_of(m);
  if (match_.takeback_offer() != other(side)) {
    return refuse(m, id, "answer_takeback", ErrorCode::NoTakebackOffer,
                  "your opponent has not asked to take a turn back");
  }
  Outcome o;
  add_ok(o, m, id, "answer_takeback");
  if (a.accept) {
    take_back(other(side), o);
    return o;
  }
  match_.withdraw_takeback_offer();
  takeback_declined_at_[at(other(side))] = version();
  o.messages.push_back(everyone(takeback_declined_json(match_.variant(), side)));
  add_state(o);
  return o;
}

void Room::take_back(Side side, Outcome& o) {
  match_.take_back(*match_.takeback_target(side));
  if (clock_) clock_->switch_to(game().turn(), time_->steady_ms());
  o.durable.takeback = true;
  add_state(o);
}

Outcome Room::report_lag(MemberId m, std::int64_t lag) {
  Outcome o;
  bool held = false;
  for (auto& seat : seats_) {  // both seats at one screen
    if (seat && seat->conn == m) {
      seat->lag = lag;
      held = true;
    }
  }
  if (!held) return o;
  const std::int64_t now = time_->steady_ms();
  bool changed = false;
  for (Side s : {Side::First, Side::Second}) {
    const auto& seat = seats_[at(s)];
    const auto shown = lag_shown_[at(s)];
    const auto have = seat ? seat->lag : std::nullopt;
    if (have.has_value() != shown.has_value() || (have && std::abs(*have - *shown) >= 20))
      changed = true;
  }
  if (!changed || now - presence_at_ < limits_.presence_every.count()) return o;
  std::array<PlayerView, 2> players;
  for (Side s : {Side::First, Side::Second}) {
    const auto& seat = seats_[at(s)];
    if (seat) players[at(s)] = player_view(*seat);
    lag_shown_[at(s)] = seat ? seat->lag : std::nullopt;
  }
  presence_at_ = now;
  o.messages.push_back(everyone(presence_json(match_.variant(), players, lag_shown_)));
  return o;
}

const ClockView* Room::clock_view() const {
  if (!clock_) return nullptr;
  const auto key = std::make_tuple(game_number(), version(), status());
  if (clock_shown_ && clock_shown_->at == key) return &clock_shown_->view;
  const std::int64_t now = time_->steady_ms();
  ClockView v;
  v.control = clock_->control();
  v.at = time_->unix_ms();
  for (Side s : {Side::First, Side::Second}) v.left[at(s)] = clock_->left(s, now);
  if (status() == RoomStatus::Playing) {
    if (clock_->timed()) {
      v.running = clock_->running();
    } else {
      const auto d = clock_->abort_deadline();
      v.abort_at = v.at + (d ? std::max<std::int64_t>(0, *d - now) : limits_.abort_after.count());
    }
  }
  clock_shown_ = ClockShown{key, v};
  return &clock_shown_->view;
}

bool Room::clock_running() const {
  return clock_ && status() == RoomStatus::Playing;
}

void Room::start_clock() {
  if (!clock_running() || !clock_->running()) return;
  clock_->start(*clock_->running(), time_->steady_ms());
}

std::optional<std::int64_t> Room::next_deadline() const {
  if (!clock_running()) return std::nullopt;
  if (auto d = clock_->flag_deadline()) return d;
  return clock_->abort_deadline();
}

Outcome Room::on_deadline() {
  if (!clock_running()) return {};
  const std::int64_t now = time_->steady_ms();
  if (clock_->out_of_time(now)) return time_out(*clock_->running());
  if (auto d = clock_->abort_deadline(); d && now >= *d) {
    clock_->stop(now);
    match_.end(Result{std::nullopt, Reason::Aborted});
    Outcome o;
    mark_ended(o);
    add_state(o);
    return o;
  }
  return {};
}

Outcome Room::time_out(Side loser) {
  clock_->flag();
  const Side winner = other(loser);
  match_.end(game().can_ever_win(winner) ? Result{winner, Reason::Timeout}
                                         : Result{std::nullopt, Reason::Timeout});
  Outcome o;
  mark_ended(o);
  add_state(o);
  return o;
}

}  // namespace bc::server

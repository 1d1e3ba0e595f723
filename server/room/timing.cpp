// A room's requests and events on its clocks (docs/PROTOCOL.md, "Clocks" and "Takebacks"): the
// flag and abort deadlines, abandonment claims, presence, and takebacks. The times themselves and
// what is shown of them are kept by RoomClock (server/room/room_clock.hpp).
#include "server/room/room.hpp"

namespace bc::server {

namespace {

std::size_t at(Side s) {
  return static_cast<std::size_t>(index(s));
}

}  // namespace

Outcome Room::handle_claim(MemberId m, const RequestId& id, const ClaimMsg& c) {
  if (auto e = check_player_in_game(m)) return refuse(m, id, "claim", e->code, e->message);
  const Side side = *seat_of(m);
  const auto away = clock_.away(seats_, status() == RoomStatus::Playing);
  if (!away || away->side == side) {
    return refuse(m, id, "claim", ErrorCode::CannotClaim,
                  clock_ ? "your opponent is here: a claim is only for an opponent who left"
                         : "claims are only for games on a clock");
  }
  const std::int64_t wait =
      *seats_[other(side)]->away_since + clock_.claim_grace_ms() - time_->steady_ms();
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
// Granted at once against the computer and at one screen, takebacks are capped there too: else
// act+takeback would grow a game's record (two store rows a cycle) without end (issue 31).
constexpr std::size_t kCasualTakebacks = 100;

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
  const auto& opponent = seats_[other(side)];
  if ((opponent && opponent->ai) || one_screen()) {
    // Casual play: the computer (or the other player at the same screen) grants it at once; the
    // computer's own reply is taken back too.
    if (match_.takebacks().size() >= kCasualTakebacks) {
      return refuse(m, id, "takeback", ErrorCode::RateLimited,
                    "at most " + std::to_string(kCasualTakebacks) + " takebacks a game");
    }
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
  if (clock_) clock_->take_back(game().turn(), match_.moves(), time_->steady_ms());
  o.durable.takeback = true;
  add_state(o);
}

Outcome Room::report_lag(MemberId m, std::int64_t lag) {
  Outcome o;
  bool held = false;
  for (Side s : {Side::First, Side::Second}) {  // both seats at one screen
    auto& seat = seats_[s];
    if (seat && seat->conn == m) {
      seat->lag = lag;
      held = true;
    }
  }
  if (!held) return o;
  const auto lags = clock_.presence_due(seats_);
  if (!lags) return o;
  std::array<PlayerView, 2> players;
  const auto views = seats_.views(setup().rated);
  for (std::size_t i = 0; i < 2; ++i) {
    if (views[i]) players[i] = *views[i];
  }
  o.messages.push_back(everyone(presence_json(match_.variant(), players, *lags)));
  return o;
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
  return clock_.next_deadline();
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

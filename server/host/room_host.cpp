#include "server/host/room_host.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cctype>
#include <thread>
#include <utility>

#include "server/host/analysis.hpp"
#include "server/room/notation.hpp"
#include "server/room/persist.hpp"

namespace bc::server {
namespace {

// The room whose store_->submit this thread is inside: an answer given before submit returns is
// then on the room's executor. Thread-local, as a writer thread may answer meanwhile.
thread_local const RoomHost* submitting_here = nullptr;

}  // namespace

RoomHost::RoomHost(net::any_io_executor serial, std::string id, GameSetup setup,
                   const Limits& limits, Metrics& metrics, store::Store* store,
                   ComputerPool* computers, std::string address)
    : RoomHost(std::move(serial), Room(std::move(id), std::move(setup), limits), limits, metrics,
               store, computers) {
  address_ = std::move(address);
}

RoomHost::RoomHost(net::any_io_executor serial, Room room, const Limits& limits, Metrics& metrics,
                   store::Store* store, ComputerPool* computers)
    : id_(room.id()),
      strand_(std::move(serial)),
      room_(std::move(room)),
      limits_(limits),
      metrics_(metrics),
      deadline_(strand_),
      restore_timer_(strand_),
      store_(store),
      computers_(computers) {
  const auto now = Clock::now();
  summary_ = room_.summary();
  activity_ = Activity{room_.status(), 0, now, now, room_.clock_running()};
}

void RoomHost::create_seat(std::shared_ptr<Peer> peer, std::string name, SeatChoice seat,
                           RequestId id, std::optional<Opponent> opponent, StateForm compact,
                           std::optional<Identity> who) {
  net::post(strand_, [self = shared_from_this(), peer = std::move(peer), name = std::move(name),
                      seat, id = std::move(id), opponent, compact, who = std::move(who)] {
    self->room_.set_compact(peer->member_id(), compact);
    Outcome o = self->room_.seat_creator(peer->member_id(), name, seat, id, peer->address(), who);
    if (opponent) {
      Outcome c = self->room_.seat_computers(*opponent);
      for (auto& m : c.messages) o.messages.push_back(std::move(m));
      for (std::size_t i = 0; i < 2; ++i)
        o.durable.seats[i] = o.durable.seats[i] || c.durable.seats[i];
      o.durable.game = o.durable.game || c.durable.game;
    }
    const bool computer = opponent.has_value();
    self->complete(
        std::move(o), peer,
        [self, peer, computer](const Outcome& done) {
          const bool ok = done.sender == Membership::Joined;
          peer->join_answered(ok ? self : nullptr);
          if (ok) {
            spdlog::info("room {}: created by connection #{} as {}{}", self->id_, peer->member_id(),
                         self->room_.seat_of(peer->member_id()) ? "a player" : "a spectator",
                         computer ? ", against the computer" : "");
          }
        },
        {}, Request{id, "create", false});
  });
}

void RoomHost::request(std::shared_ptr<Peer> peer, ClientMessage msg, Clock::time_point received) {
  net::post(strand_, [self = shared_from_this(), peer = std::move(peer), msg = std::move(msg),
                      received] {
    const MemberId m = peer->member_id();
    const bool is_join = std::holds_alternative<JoinMsg>(msg.body);
    const std::string type(message_type(msg.body));
    Outcome o;
    // Waiting for its store, or closed: refused, and nothing changes.
    std::optional<Error> no;
    if (self->suspended_) {
      no = Error{ErrorCode::ServerError,
                 "the server cannot reach its store just now; try again in a few seconds"};
    } else if (self->retired_) {
      no = Error{ErrorCode::UnknownRoom, "room " + self->id_ + " was closed"};
    }
    if (no) {
      o.refused = no->code;
      o.messages.push_back(Outgoing{
          m, std::make_shared<const std::string>(error_json(msg.id, *no, message_type(msg.body))),
          false});
    } else {
      o = self->room_.handle(
          m, msg, peer->address(),
          std::chrono::duration_cast<std::chrono::milliseconds>(received.time_since_epoch())
              .count());
    }
    self->complete(
        std::move(o), peer,
        [self, peer, m, is_join, type, received](const Outcome& done) {
          if (is_join) peer->join_answered(done.sender == Membership::Joined ? self : nullptr);
          if (done.refused) {
            spdlog::info("room {}: refused {} from #{}: {}", self->id_, type, m,
                         error_code_name(*done.refused));
          } else if (is_join) {
            auto side = self->room_.seat_of(m);
            spdlog::info("room {}: #{} joined as {}", self->id_, m,
                         side ? side_name(self->room_.game().variant(), *side) : "spectator");
          }
          if (done.action_accepted) {
            self->metrics_.actions_accepted.fetch_add(1, std::memory_order_relaxed);
            self->metrics_.move_to_broadcast.observe(Clock::now() - received);
          }
          if (done.finished && self->room_.game().result()) {
            self->metrics_.games_finished.fetch_add(1, std::memory_order_relaxed);
            const auto& r = *self->room_.game().result();
            spdlog::info("room {}: game {} over: {} ({})", self->id_, self->room_.game_number(),
                         r.winner ? side_name(self->room_.game().variant(), *r.winner) : "draw",
                         reason_name(r.reason));
          }
        },
        {}, Request{msg.id, type, !is_join});
  });
}

void RoomHost::disconnect(MemberId m, bool outage) {
  net::post(strand_, [self = shared_from_this(), m, outage] {
    Outcome o = self->room_.disconnect(m, outage);
    self->peers_.erase(m);
    self->complete(std::move(o), nullptr, {});
  });
}

void RoomHost::view(std::function<std::string(const Room&)> view,
                    std::function<void(std::string)> done) {
  net::post(strand_, [self = shared_from_this(), view = std::move(view), done = std::move(done)] {
    done(view(self->room_));
  });
}

void RoomHost::record(std::function<void(std::string)> done) {
  view([](const Room& r) { return r.record_text(); }, std::move(done));
}

void RoomHost::with_room(std::function<void(const Room*)> done) {
  net::post(strand_, [self = shared_from_this(), done = std::move(done)] {
    done(self->suspended_ ? nullptr : &self->room_);
  });
}

void RoomHost::retire(std::string why, bool durable) {
  net::post(strand_, [self = shared_from_this(), why = std::move(why), durable] {
    if (self->retired_) return;
    self->retired_ = true;
    self->computer_stop_->store(true);
    if (self->analyst_) self->analyst_->set_live(self.get(), nullptr);
    self->deadline_.cancel();
    Outcome o = self->room_.close(why);
    std::vector<store::Write> writes;
    if (durable && self->store_ && !self->broken_) writes.push_back(store::RetireRoom{self->id_});
    self->complete(
        std::move(o), nullptr, [self](const Outcome&) { self->peers_.clear(); }, std::move(writes));
    spdlog::info("room {}: retired ({})", self->id_, why);
  });
}

void RoomHost::hand_over(std::string why) {
  net::post(strand_, [self = shared_from_this(), why = std::move(why)] {
    if (self->retired_) return;
    self->retired_ = true;
    self->computer_stop_->store(true);
    if (self->analyst_) self->analyst_->set_live(self.get(), nullptr);
    self->deadline_.cancel();
    auto peers = std::move(self->peers_);
    self->peers_.clear();
    for (auto& [m, weak] : peers) {
      if (auto p = weak.lock()) p->moved();
    }
    spdlog::info("room {}: handed over ({}); {} member(s) told to reconnect", self->id_, why,
                 peers.size());
  });
}

// ---------------------------------------------------------------------------------------------
// The outbox: durable before announced, in order.

void RoomHost::complete(Outcome o, std::shared_ptr<Peer> sender,
                        std::function<void(const Outcome&)> after,
                        std::vector<store::Write> extra_writes, Request request) {
  // Waiting for its store, the room still holds the change that failed: a state made from it now
  // (a connection closing, say) would show a version that never happened. The rebuilt room's
  // state, sent when the store is back, tells everyone what changed meanwhile.
  if (suspended_) drop_states(o);
  Entry e;
  e.request_id = std::move(request.id);
  e.request_type = std::move(request.type);
  e.answers = request.answers;
  if (store_ && !broken_) {
    if (o.durable.any()) e.writes = rows_for(room_, o.durable);
    for (auto& w : extra_writes) e.writes.push_back(std::move(w));
  }
  e.stage = e.writes.empty() ? Entry::Stage::Ready : Entry::Stage::Waiting;
  e.outcome = std::move(o);
  e.sender = std::move(sender);
  e.after = std::move(after);
  outbox_.push_back(std::move(e));
  pump();
}

void RoomHost::pump() {
  if (!committing_ && store_) {
    std::vector<store::Write> batch;
    for (auto& e : outbox_) {
      if (e.stage != Entry::Stage::Waiting) continue;
      for (auto& w : e.writes) batch.push_back(std::move(w));
      e.writes.clear();
      e.stage = Entry::Stage::InFlight;
    }
    if (!batch.empty()) {
      // Everything this room has waiting goes in one submission: it commits whole or not at all.
      committing_ = true;
      submitting_here = this;
      store_->submit(std::move(batch), [self = shared_from_this()](bool ok) {
        // A store that answers before submit returns (--memory) is on this strand: no hand-off
        // back to it (one per move); a writer thread's answer is posted.
        if (submitting_here == self.get()) {
          self->answered_inline_ = ok;
        } else {
          net::post(self->strand_, [self, ok] { self->committed(ok); });
        }
      });
      submitting_here = nullptr;
      if (auto ok = std::exchange(answered_inline_, std::nullopt)) return committed(*ok);
    }
  }
  while (!outbox_.empty() && outbox_.front().stage == Entry::Stage::Ready) {
    Entry e = std::move(outbox_.front());
    outbox_.pop_front();
    dispatch(e.outcome, e.sender, e.answers);
    if (e.after) e.after(e.outcome);
  }
  if (outbox_.empty()) arm_deadline();
}

void RoomHost::report_lag(MemberId m, std::int64_t lag) {
  net::post(strand_, [self = shared_from_this(), m, lag] {
    if (self->retired_) return;
    Outcome o = self->room_.report_lag(m, lag);
    if (!o.messages.empty()) self->complete(std::move(o), nullptr, {});
  });
}

void RoomHost::resume_clock() {
  net::post(strand_, [self = shared_from_this()] {
    if (self->outbox_.empty()) self->arm_deadline();
  });
}

void RoomHost::arm_deadline() {
  if (retired_ || suspended_) return;
  // The state that gave the turn has been sent: "from the moment it was sent" (issue 14).
  room_.start_clock();
  const auto due = room_.next_deadline();
  if (due == deadline_at_) return;
  deadline_at_ = due;
  deadline_.cancel();
  if (!due) return;
  deadline_.expires_at(Clock::time_point(
      std::chrono::duration_cast<Clock::duration>(std::chrono::milliseconds(*due))));
  deadline_.async_wait([self = shared_from_this(), due](boost::system::error_code ec) {
    if (ec || self->retired_ || self->deadline_at_ != due) return;
    self->deadline_at_.reset();
    Outcome o = self->room_.on_deadline();
    if (o.messages.empty()) return self->arm_deadline();  // not yet (an action moved it)
    if (o.finished) {
      self->metrics_.games_finished.fetch_add(1, std::memory_order_relaxed);
      const auto& r = *self->room_.game().result();
      spdlog::info("room {}: game {} over: {} ({})", self->id_, self->room_.game_number(),
                   r.winner ? side_name(self->room_.game().variant(), *r.winner) : "draw",
                   reason_name(r.reason));
    }
    self->complete(std::move(o), nullptr, {});
  });
}

void RoomHost::dispatch(Outcome& o, const std::shared_ptr<Peer>& sender, bool answers) {
  if (o.refused) metrics_.refused(*o.refused);
  if (o.limited) metrics_.limited(*o.limited);
  if (o.state_coalesced)
    metrics_.spectator_updates_coalesced.fetch_add(1, std::memory_order_relaxed);
  if (sender) {
    const MemberId m = sender->member_id();
    if (o.sender == Membership::Joined) peers_[m] = sender;
    if (o.sender == Membership::Left) {
      peers_.erase(m);
      sender->detached(this);
    }
  }
  // The snapshot first: a client that reads our answer may ask the registry about this room at
  // once (a second create from its address), and must find itself counted in it.
  if (!o.refused || o.sender != Membership::Unchanged) publish();

  // Each peer's messages of this outcome go in one hand-off to its strand, in order; the sender's
  // carries "request handled" too.
  struct Batch {
    std::shared_ptr<Peer> peer;
    Peer::Texts texts;
    bool handled = false;
  };
  boost::container::small_vector<Batch, 4> batches;
  // A room may hold thousands of spectators: past a few batches they are found by an index, so
  // that a broadcast stays linear in the members.
  constexpr std::size_t kScanned = 8;
  std::unordered_map<const Peer*, std::size_t> index;
  auto batch_of = [&](const std::shared_ptr<Peer>& p) -> Batch& {
    if (batches.size() <= kScanned) {
      for (auto& b : batches) {
        if (b.peer == p) return b;
      }
    } else if (auto it = index.find(p.get()); it != index.end()) {
      return batches[it->second];
    }
    if (batches.size() == kScanned) {
      for (std::size_t i = 0; i < batches.size(); ++i) index.emplace(batches[i].peer.get(), i);
    }
    if (batches.size() >= kScanned) index.emplace(p.get(), batches.size());
    return batches.emplace_back(Batch{p, {}, false});
  };
  auto flush = [](Batch& b) {
    if (b.peer && (!b.texts.empty() || b.handled)) {
      b.peer->deliver_from_room(std::move(b.texts), b.handled);
    }
    b.texts.clear();
    b.handled = false;
  };
  auto find = [&](MemberId m) -> std::shared_ptr<Peer> {
    if (sender && sender->member_id() == m) return sender;
    auto it = peers_.find(m);
    return it == peers_.end() ? nullptr : it->second.lock();
  };
  for (auto& out : o.messages) {
    if (!out.to) {
      for (auto it = peers_.begin(); it != peers_.end();) {
        if (auto p = it->second.lock()) {
          const auto& text = out.text_for(it->first);
          auto& message = batch_of(p).texts.emplace_back(text, out.kind);
          if (text == out.delta.text || text == out.short_delta.text) {
            message.full_state = out.state;
            message.kind = MessageKind::Delta;
          }
          ++it;
        } else {
          it = peers_.erase(it);
        }
      }
      continue;
    }
    auto p = find(*out.to);
    if (p && (out.text || out.state)) batch_of(p).texts.emplace_back(out.full(), out.kind);
    if (out.detach) {
      peers_.erase(*out.to);
      if (p) {
        flush(batch_of(p));  // what it was sent, before it learns it is out
        p->detached(this);
      }
    }
  }
  if (sender && answers) batch_of(sender).handled = true;
  for (auto& b : batches) flush(b);
  if (o.analysis) {
    auto to = find(o.analysis->member);
    if (to) start_analysis(std::move(*o.analysis), to);
  }
  publish_live();
  maybe_start_computer();
  maybe_refresh_spectators();
}

void RoomHost::maybe_refresh_spectators() {
  // Not while the room waits for its store: room_ still holds the changes that failed (the
  // history checker saw such a state go out); the rebuilt room's state carries the count.
  if (spectators_timer_ || retired_ || suspended_ || !room_.spectators_stale()) return;
  // One state with the new count per spectators_update, however many joined or left meanwhile.
  spectators_timer_ = true;
  auto timer = std::make_shared<net::steady_timer>(strand_, limits_.spectators_update);
  timer->async_wait([self = shared_from_this(), timer](boost::system::error_code) {
    self->spectators_timer_ = false;
    if (self->retired_ || self->suspended_) return;
    Outcome o = self->room_.refresh_spectators();
    if (!o.messages.empty()) self->complete(std::move(o), nullptr, {});
  });
}

void RoomHost::publish() {
  const auto now = Clock::now();
  // Waiting for its store, the room holds a change that failed: the listing keeps what was saved.
  std::optional<RoomSummary> s;
  if (!suspended_) s = room_.summary();
  std::lock_guard lock(snapshot_mu_);
  if (s) summary_ = std::move(*s);
  const std::size_t members = room_.members();
  if (members == 0 && activity_.members != 0) activity_.empty_since = now;
  activity_.members = members;
  activity_.status = room_.status();
  activity_.last_change = now;
  activity_.clock_running = room_.clock_running();
}

RoomSummary RoomHost::summary() const {
  std::lock_guard lock(snapshot_mu_);
  return summary_;
}

RoomHost::Activity RoomHost::activity() const {
  std::lock_guard lock(snapshot_mu_);
  return activity_;
}

}  // namespace bc::server

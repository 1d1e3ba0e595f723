#include "server/registry.hpp"

#include <boost/asio/post.hpp>
#include <cctype>
#include <spdlog/spdlog.h>

namespace bc::server {

std::string make_room_id(std::uint64_t bits) {
  std::string id;
  id.reserve(kRoomIdLength);
  for (std::size_t i = 0; i < kRoomIdLength; ++i) {
    id += kRoomIdAlphabet[bits % kRoomIdAlphabet.size()];
    bits /= kRoomIdAlphabet.size();
  }
  return id;
}

std::optional<std::string> normalize_room_id(std::string_view id) {
  if (id.size() != kRoomIdLength) return std::nullopt;
  std::string out;
  for (char c : id) {
    char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (kRoomIdAlphabet.find(u) == std::string_view::npos) return std::nullopt;
    out += u;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

RoomHost::RoomHost(net::io_context& ioc, std::string id, GameSetup setup, const Limits& limits,
                   Metrics& metrics)
    : id_(id),
      strand_(net::make_strand(ioc)),
      room_(std::move(id), std::move(setup), limits),
      limits_(limits),
      metrics_(metrics) {
  const auto now = Clock::now();
  summary_ = room_.summary();
  activity_ = Activity{room_.status(), 0, now, now};
}

void RoomHost::create_seat(std::shared_ptr<Peer> peer, std::string name, SeatChoice seat, RequestId id) {
  net::post(strand_, [self = shared_from_this(), peer = std::move(peer), name = std::move(name), seat,
                      id = std::move(id)] {
    Outcome o = self->room_.seat_creator(peer->member_id(), name, seat, id);
    self->dispatch(o, peer);
    peer->join_answered(self);
    spdlog::info("room {}: created by connection #{} as {}", self->id_, peer->member_id(),
                 self->room_.seat_of(peer->member_id()) ? "a player" : "a spectator");
  });
}

void RoomHost::request(std::shared_ptr<Peer> peer, ClientMessage msg, Clock::time_point received) {
  net::post(strand_, [self = shared_from_this(), peer = std::move(peer), msg = std::move(msg), received] {
    const MemberId m = peer->member_id();
    const bool is_join = std::holds_alternative<JoinMsg>(msg.body);
    Outcome o;
    if (self->retired_) {
      Error e{ErrorCode::UnknownRoom, "room " + self->id_ + " was closed"};
      o.refused = e.code;
      o.messages.push_back(Outgoing{m, std::make_shared<const std::string>(
                                           error_json(msg.id, e, message_type(msg.body))),
                                    false});
    } else {
      o = self->room_.handle(m, msg);
    }
    self->dispatch(o, peer);
    if (is_join) {
      peer->join_answered(o.sender == Membership::Joined ? self : nullptr);
    } else {
      peer->handled();
    }
    if (o.refused) {
      spdlog::debug("room {}: refused {} from #{}: {}", self->id_, message_type(msg.body), m,
                    error_code_name(*o.refused));
    } else if (is_join) {
      auto side = self->room_.seat_of(m);
      spdlog::info("room {}: #{} joined as {}", self->id_, m,
                   side ? side_name(self->room_.game().variant(), *side) : "spectator");
    }
    if (o.action_accepted) {
      self->metrics_.actions_accepted.fetch_add(1, std::memory_order_relaxed);
      self->metrics_.move_to_broadcast.observe(Clock::now() - received);
    }
    if (o.finished) {
      self->metrics_.games_finished.fetch_add(1, std::memory_order_relaxed);
      const auto& r = *self->room_.game().result();
      spdlog::info("room {}: game {} over: {} ({})", self->id_, self->room_.game_number(),
                   r.winner ? side_name(self->room_.game().variant(), *r.winner) : "draw",
                   reason_name(r.reason));
    }
  });
}

void RoomHost::disconnect(MemberId m) {
  net::post(strand_, [self = shared_from_this(), m] {
    Outcome o = self->room_.disconnect(m);
    self->peers_.erase(m);
    self->dispatch(o, nullptr);
  });
}

void RoomHost::record(std::function<void(std::string)> done) {
  net::post(strand_, [self = shared_from_this(), done = std::move(done)] {
    done(self->room_.record_text());
  });
}

void RoomHost::retire(std::string why) {
  net::post(strand_, [self = shared_from_this(), why = std::move(why)] {
    if (self->retired_) return;
    self->retired_ = true;
    Outcome o = self->room_.close(why);
    self->dispatch(o, nullptr);
    self->peers_.clear();
    spdlog::info("room {}: retired ({})", self->id_, why);
  });
}

void RoomHost::dispatch(Outcome& o, const std::shared_ptr<Peer>& sender) {
  if (o.refused) metrics_.refused(*o.refused);
  if (sender) {
    const MemberId m = sender->member_id();
    if (o.sender == Membership::Joined) peers_[m] = sender;
    if (o.sender == Membership::Left) {
      peers_.erase(m);
      sender->detached(this);
    }
  }
  auto find = [&](MemberId m) -> std::shared_ptr<Peer> {
    if (sender && sender->member_id() == m) return sender;
    auto it = peers_.find(m);
    return it == peers_.end() ? nullptr : it->second.lock();
  };
  for (auto& out : o.messages) {
    if (!out.to) {
      for (auto it = peers_.begin(); it != peers_.end();) {
        if (auto p = it->second.lock()) {
          p->deliver(out.text);
          ++it;
        } else {
          it = peers_.erase(it);
        }
      }
      continue;
    }
    auto p = find(*out.to);
    if (p && out.text) p->deliver(out.text);
    if (out.detach) {
      peers_.erase(*out.to);
      if (p) p->detached(this);
    }
  }
  if (!o.refused || o.sender != Membership::Unchanged) publish();
}

void RoomHost::publish() {
  RoomSummary s = room_.summary();
  const auto now = Clock::now();
  std::lock_guard lock(snapshot_mu_);
  summary_ = std::move(s);
  const std::size_t members = room_.members();
  if (members == 0 && activity_.members != 0) activity_.empty_since = now;
  activity_.members = members;
  activity_.status = room_.status();
  activity_.last_change = now;
}

RoomSummary RoomHost::summary() const {
  std::lock_guard lock(snapshot_mu_);
  return summary_;
}

RoomHost::Activity RoomHost::activity() const {
  std::lock_guard lock(snapshot_mu_);
  return activity_;
}

// ---------------------------------------------------------------------------------------------

Registry::Registry(net::io_context& ioc, const Limits& limits, Metrics& metrics)
    : ioc_(ioc), limits_(limits), metrics_(metrics), rng_(std::random_device{}()) {}

std::shared_ptr<RoomHost> Registry::create(GameSetup setup) {
  std::lock_guard lock(mu_);
  if (rooms_.size() >= limits_.max_rooms) return nullptr;
  std::string id;
  do {
    id = make_room_id(rng_());
  } while (rooms_.count(id) != 0);
  auto host = std::make_shared<RoomHost>(ioc_, id, std::move(setup), limits_, metrics_);
  rooms_.emplace(id, host);
  metrics_.rooms_created.fetch_add(1, std::memory_order_relaxed);
  return host;
}

std::shared_ptr<RoomHost> Registry::find(std::string_view id) const {
  auto key = normalize_room_id(id);
  if (!key) return nullptr;
  std::lock_guard lock(mu_);
  auto it = rooms_.find(*key);
  return it == rooms_.end() ? nullptr : it->second;
}

std::vector<RoomSummary> Registry::list() const {
  std::vector<std::shared_ptr<RoomHost>> hosts;
  {
    std::lock_guard lock(mu_);
    hosts.reserve(rooms_.size());
    for (const auto& [id, h] : rooms_) hosts.push_back(h);
  }
  std::vector<RoomSummary> out;
  out.reserve(hosts.size());
  for (const auto& h : hosts) out.push_back(h->summary());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

RoomCounts Registry::counts() const {
  RoomCounts c;
  std::lock_guard lock(mu_);
  for (const auto& [id, h] : rooms_) ++c.by_status[static_cast<std::size_t>(h->activity().status)];
  return c;
}

std::size_t Registry::size() const {
  std::lock_guard lock(mu_);
  return rooms_.size();
}

std::size_t Registry::sweep(Clock::time_point now) {
  std::vector<std::pair<std::shared_ptr<RoomHost>, std::string>> due;
  {
    std::lock_guard lock(mu_);
    for (auto it = rooms_.begin(); it != rooms_.end();) {
      const auto a = it->second->activity();
      const bool finished = a.status == RoomStatus::Finished;
      const auto empty_ttl = finished ? limits_.finished_empty_room_ttl : limits_.empty_room_ttl;
      std::string why;
      if (a.members == 0 && now - a.empty_since >= empty_ttl) {
        why = "nobody was connected for a while";
      } else if (finished && now - a.last_change >= limits_.finished_room_ttl) {
        why = "the game ended a while ago";
      }
      if (why.empty()) {
        ++it;
        continue;
      }
      due.emplace_back(it->second, std::move(why));
      it = rooms_.erase(it);
    }
  }
  for (auto& [host, why] : due) {
    metrics_.rooms_retired.fetch_add(1, std::memory_order_relaxed);
    host->retire(std::move(why));
  }
  return due.size();
}

void Registry::close_all(std::string why) {
  std::unordered_map<std::string, std::shared_ptr<RoomHost>> rooms;
  {
    std::lock_guard lock(mu_);
    rooms.swap(rooms_);
  }
  for (auto& [id, host] : rooms) host->retire(why);
}

}  // namespace bc::server

#include "server/players/pools.hpp"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>
#include <random>

#include "bc/players/pairing.hpp"
#include "bc/players/speed.hpp"
#include "server/wire/setup.hpp"

namespace bc::server {

namespace net = boost::asio;

namespace {

// The presets of `welcome`'s clocks (server/wire/welcome.cpp): minutes + seconds.
constexpr std::pair<int, int> kPresets[] = {{3, 2}, {5, 3}, {10, 5}, {15, 10}};

std::vector<PoolSpec> make_specs() {
  std::vector<PoolSpec> out;
  for (VariantId v : kAllVariants) {
    for (auto [minutes, increment] : kPresets) {
      PoolSpec s;
      s.variant = v;
      s.id = std::string(variant_key(v)) + "-" + std::to_string(minutes) + "+" +
             std::to_string(increment);
      s.clock = TimeControl{TimeControl::Kind::Fischer, minutes * 60'000LL, increment * 1000LL};
      s.perf = std::string(variant_key(v)) + ":" +
               std::string(players::speed_name(
                   players::speed_of_clock(s.clock.base_ms, s.clock.increment_ms)));
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::uint64_t key_of(const std::string& player) {
  return std::hash<std::string>{}(player);
}

}  // namespace

const std::vector<PoolSpec>& pool_specs() {
  static const std::vector<PoolSpec> specs = make_specs();
  return specs;
}

const PoolSpec* find_pool(std::string_view id) {
  for (const auto& s : pool_specs()) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

std::string players_welcome_json() {
  nlohmann::ordered_json pools = nlohmann::ordered_json::array();
  for (const auto& s : pool_specs()) {
    pools.push_back(
        {{"id", s.id},
         {"variant", variant_key(s.variant)},
         {"clock", {{"base", s.clock.base_ms / 1000}, {"increment", s.clock.increment_ms / 1000}}},
         {"perf", s.perf}});
  }
  return nlohmann::ordered_json{{"accounts", true}, {"pools", std::move(pools)}}.dump();
}

Pools::Pools(net::any_io_executor executor, Params params)
    : strand_(net::make_strand(std::move(executor))), timer_(strand_), params_(params) {}

void Pools::start() {
  // Again after a stop (a restarted server): a pending wave is cancelled by the new one.
  net::post(strand_, [self = shared_from_this()] {
    self->stopped_ = false;
    self->schedule();
  });
}

void Pools::stop() {
  net::post(strand_, [self = shared_from_this()] {
    self->stopped_ = true;
    self->timer_.cancel();
    self->pools_.clear();
    self->where_.clear();
  });
}

void Pools::schedule() {
  if (stopped_) return;
  timer_.expires_after(params_.wave_every);
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || self->stopped_) return;
    self->wave_now();
    self->schedule();
  });
}

void Pools::enter(std::uint64_t id, std::string pool, Identity who,
                  std::weak_ptr<PoolMember> member,
                  std::function<void(std::size_t waiting)> waiting) {
  net::post(strand_, [self = shared_from_this(), id, pool = std::move(pool), who = std::move(who),
                      member = std::move(member), waiting = std::move(waiting)]() mutable {
    if (self->stopped_) return;
    self->leave(id);
    const PoolSpec* spec = find_pool(pool);
    if (!spec) return;
    auto& list = self->pools_[pool];
    // One player waits once in a pool: a second tab takes the first one's place.
    std::erase_if(list, [&](const Waiting& w) {
      if (w.who.id != who.id) return false;
      self->where_.erase(w.id);
      return true;
    });
    const double rating = who.rating_in(spec->perf).rating;
    list.push_back(Waiting{id, std::move(who), rating, real_time().unix_ms(), std::move(member)});
    self->where_[id] = pool;
    if (waiting) waiting(list.size());
    if (list.size() >= self->params_.full) self->wave(pool);
  });
}

void Pools::leave(std::uint64_t id) {
  auto run = [self = shared_from_this(), id] {
    auto it = self->where_.find(id);
    if (it == self->where_.end()) return;
    auto& list = self->pools_[it->second];
    std::erase_if(list, [&](const Waiting& w) { return w.id == id; });
    self->where_.erase(it);
  };
  if (strand_.running_in_this_thread()) {
    run();
  } else {
    net::post(strand_, std::move(run));
  }
}

std::size_t Pools::waiting(const std::string& pool) const {
  auto it = pools_.find(pool);
  return it == pools_.end() ? 0 : it->second.size();
}

void Pools::wave_now() {
  for (auto& [id, list] : pools_) {
    if (list.size() >= 2) wave(id);
    // Those still waiting hear how many wait with them, when that changed (once a wave, however
    // many came and went).
    auto& told = told_[id];
    if (list.size() == told) continue;
    told = list.size();
    for (const auto& w : list) {
      if (auto m = w.member.lock()) m->pool_waiting(id, list.size());
    }
  }
}

void Pools::wave(const std::string& pool) {
  auto& list = pools_[pool];
  // Those whose connection went are out before anyone is paired with them.
  std::erase_if(list, [&](const Waiting& w) {
    if (!w.member.expired()) return false;
    where_.erase(w.id);
    return true;
  });
  if (list.size() < 2) return;
  const PoolSpec* spec = find_pool(pool);
  std::vector<players::Waiter> waiters;
  waiters.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::optional<std::uint64_t> last;
    if (auto it = last_opponent_.find(list[i].who.id); it != last_opponent_.end())
      last = key_of(it->second);
    waiters.push_back(
        players::Waiter{key_of(list[i].who.id), list[i].rating, list[i].since_ms, last});
  }
  const auto pairs = players::pair_wave(waiters, real_time().unix_ms());
  if (pairs.empty()) return;
  std::vector<bool> paired(list.size(), false);
  static thread_local std::mt19937 coin{std::random_device{}()};
  for (auto [i, j] : pairs) {
    paired[i] = paired[j] = true;
    // Who makes the room is a coin's choice; the room seats its maker at random too.
    if (coin() & 1) std::swap(i, j);
    Waiting maker = list[i];
    Waiting other = list[j];
    last_opponent_[maker.who.id] = other.who.id;
    last_opponent_[other.who.id] = maker.who.id;
    auto maker_member = maker.member.lock();
    auto other_member = other.member.lock();
    if (!maker_member || !other_member) continue;
    std::weak_ptr<PoolMember> weak_other = other_member;
    const PoolSpec spec_copy = *spec;
    maker_member->pool_create(*spec, other.who, [weak_other, spec_copy](std::string room) {
      auto o = weak_other.lock();
      if (!o) return;
      if (room.empty()) {
        o->pool_dropped(
            "your opponent's room could not be made; enter the pool "
            "again");
      } else {
        o->pool_join(spec_copy, std::move(room));
      }
    });
  }
  std::vector<Waiting> rest;
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (paired[k]) {
      where_.erase(list[k].id);
    } else {
      rest.push_back(std::move(list[k]));
    }
  }
  list = std::move(rest);
  if (last_opponent_.size() > 100'000) last_opponent_.clear();
}

}  // namespace bc::server

#include "server/cluster/cluster.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <random>

#include "server/cluster/cluster_impl.hpp"
#include "server/game/clock.hpp"
#include "server/host/shared_state.hpp"
#include "server/room/persist.hpp"

namespace bc::server {

using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

// Every 4th renewal (6 s by default) a node looks for rooms of dead nodes, and takes at most 50
// of them a round: a crash's rooms come back over a few rounds, spread over the survivors.
constexpr std::uint64_t kOrphanEvery = 4;
constexpr std::size_t kOrphansPerRound = 50;

// ---------------------------------------------------------------------------------------------

void TaskThread::start() {
  thread_ = std::thread([this] {
    std::unique_lock lock(mu_);
    for (;;) {
      if (!tasks_.empty()) {
        Task t = std::move(tasks_.front());
        tasks_.pop_front();
        lock.unlock();
        t();
        lock.lock();
        continue;
      }
      if (stopping_) return;
      if (!timed_.empty() && timed_.begin()->first <= SteadyClock::now()) {
        Task t = std::move(timed_.begin()->second);
        timed_.erase(timed_.begin());
        lock.unlock();
        t();
        lock.lock();
        continue;
      }
      if (timed_.empty()) {
        cv_.wait(lock);
      } else {
        cv_.wait_until(lock, timed_.begin()->first);
      }
    }
  });
}

void TaskThread::post(Task t) {
  {
    std::lock_guard lock(mu_);
    tasks_.push_back(std::move(t));
  }
  cv_.notify_one();
}

void TaskThread::post_after(milliseconds delay, Task t) {
  {
    std::lock_guard lock(mu_);
    timed_.emplace(SteadyClock::now() + delay, std::move(t));
  }
  cv_.notify_one();
}

void TaskThread::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

// ---------------------------------------------------------------------------------------------

std::string default_node_id() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 8; ++i) id += kHex[rd() % 16];
  return std::string(host[0] ? host : "node") + "-" + id;
}

Cluster::Cluster(ClusterConfig cfg, SharedState& state) : cfg_(std::move(cfg)), state_(state) {
  RedisAddress where = redis_address(cfg_.url).value_or(RedisAddress{});
  if (!cfg_.password.empty()) where.password = cfg_.password;  // the file's wins over the URL's
  // Other nodes key relayed connections by (node, connection id): a node restarted within a lease
  // must not reuse its last run's ids, or an owner would send one client's room to another. Ids
  // start from the start time in ms times 1,024 (below 2^53), beyond any earlier run's unless
  // it made over 1,024 connections a millisecond; the same number tells the run apart in the
  // heartbeat, so the others drop what they held for the last run (nodes_gone).
  const auto first = static_cast<MemberId>(real_time().unix_ms()) << 10;
  if (state_.next_member.load() < first) state_.next_member.store(first);
  impl_ = std::make_unique<Impl>(cfg_, where, std::to_string(first));
}

Cluster::~Cluster() {
  stop();
}

std::optional<std::string> Cluster::start() {
  auto& i = *impl_;
  if (!i.leases.heartbeat({})) {
    return "cannot reach Redis at " + redis_url_for_log(cfg_.url) + ": " + i.commands.last_error();
  }
  if (!i.subscriber.subscribe(node_key(cfg_.node_id))) {
    return "cannot subscribe to Redis at " + redis_url_for_log(cfg_.url) + ": " +
           i.subscriber.last_error();
  }
  redis_ok_ = true;
  live_nodes_ = 1;
  // Listed at once, and every other node's run known from the start: a node that restarts before
  // this one's first tick is noticed too.
  count_nodes();
  if (auto runs = i.leases.heartbeat(i.live)) {
    for (std::size_t k = 0; k < runs->size(); ++k) {
      if (!(*runs)[k].empty()) i.incarnations[i.live[k]] = (*runs)[k];
    }
  }
  i.last_renewed = SteadyClock::now();
  i.started = true;
  i.worker.start();
  i.relay.start();
  i.reader = std::thread([this] { read_loop(); });
  i.worker.post_after(cfg_.renew_every, [this] { tick(); });
  spdlog::info("cluster: node {} on Redis {} (leases of {} ms, renewed every {} ms)", cfg_.node_id,
               redis_url_for_log(cfg_.url), cfg_.lease_ttl.count(), cfg_.renew_every.count());
  return std::nullopt;
}

void Cluster::stop() {
  auto& i = *impl_;
  if (i.stopping.exchange(true) || !i.started) return;
  // What the rooms said goes out before their leases are given back.
  std::promise<void> flushed;
  i.relay.post([this, &flushed] {
    flush_outs();
    flushed.set_value();
  });
  flushed.get_future().wait_for(std::chrono::seconds(5));
  std::promise<void> done;
  i.worker.post([this, &done] {
    auto& in = *impl_;
    std::vector<std::string> rooms(in.owned.begin(), in.owned.end());
    if (in.leases.release(rooms)) in.released += rooms.size();
    forget_summaries(rooms);
    in.owned.clear();
    in.owned_count = 0;
    in.leases.leave();
    in.commands.command({"ZREM", "bc:nodes", cfg_.node_id});
    in.stopped = true;
    spdlog::info("cluster: released {} room(s) and left", rooms.size());
    done.set_value();
  });
  done.get_future().wait_for(std::chrono::seconds(5));
  i.worker.stop();
  i.relay.stop();
  if (i.reader.joinable()) i.reader.join();
}

// ---------------------------------------------------------------------------------------------
// Leases

void Cluster::resolve(std::string room, std::function<void(Placement)> done) {
  const auto deadline = SteadyClock::now() + cfg_.lease_ttl + std::chrono::seconds(1);
  impl_->worker.post([this, room = std::move(room), done = std::move(done), deadline]() mutable {
    resolve_step(std::move(room), std::move(done), deadline);
  });
}

void Cluster::resolve_step(std::string room, std::function<void(Placement)> done,
                           SteadyClock::time_point deadline) {
  auto& i = *impl_;
  if (i.stopping || !redis_ok_) return done(Placement{});
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto owner = i.leases.owner(room);
    if (!owner) {
      ++i.redis_errors;
      return done(Placement{});
    }
    if (!owner->node) {
      auto got = i.leases.acquire(room);
      if (!got) {
        ++i.redis_errors;
        return done(Placement{});
      }
      if (!*got) continue;  // another node took it meanwhile: ask again who
      return done(load(room));
    }
    if (*owner->node == cfg_.node_id) {
      if (state_.registry.find(room)) return done(Placement{Placement::Where::Local, {}});
      return done(load(room));
    }
    if (owner->alive) return done(Placement{Placement::Where::Relay, *owner->node});
    // The owner died: its lease runs out within its time to live; the join waits for that.
    if (SteadyClock::now() >= deadline) return done(Placement{});
    i.worker.post_after(milliseconds(100),
                        [this, room, done = std::move(done), deadline]() mutable {
                          resolve_step(std::move(room), std::move(done), deadline);
                        });
    return;
  }
  done(Placement{});
}

// The room from the shared store, as after a restart (the downtime charged to no one).
Placement Cluster::load(const std::string& room) {
  auto& i = *impl_;
  auto loaded = state_.store ? state_.store->load_room(room) : std::nullopt;
  if (!loaded || loaded->room.retired) {
    i.leases.release({room});
    return Placement{Placement::Where::Unknown, {}};
  }
  if (!state_.registry.adopt(*loaded)) {
    i.leases.release({room});
    return Placement{};
  }
  i.owned.insert(room);
  i.owned_count = i.owned.size();
  ++i.acquired;
  spdlog::info("cluster: room {} taken over from the store", room);
  return Placement{Placement::Where::Local, {}};
}

void Cluster::reserve(std::function<void(std::optional<std::string>)> done) {
  impl_->worker.post([this, done = std::move(done)] {
    auto& i = *impl_;
    if (i.stopping || !redis_ok_) return done(std::nullopt);
    for (int attempt = 0; attempt < 3; ++attempt) {
      std::string id = state_.registry.fresh_id();
      auto got = i.leases.acquire(id);
      if (!got) {
        ++i.redis_errors;
        return done(std::nullopt);
      }
      if (!*got) continue;  // made on another node meanwhile, not yet in the store: another id
      i.owned.insert(id);
      i.owned_count = i.owned.size();
      ++i.acquired;
      return done(std::move(id));
    }
    done(std::nullopt);
  });
}

void Cluster::claim(const std::string& room) {
  impl_->worker.post([this, room] {
    auto& i = *impl_;
    if (i.owned.count(room)) return;  // reserved for its create
    auto got = i.leases.acquire(room);
    if (got && *got) {
      i.owned.insert(room);
      i.owned_count = i.owned.size();
      ++i.acquired;
      return;
    }
    if (!got) ++i.redis_errors;
    // Without its lease the room must not run here: its id is someone else's, or Redis is gone.
    spdlog::error("cluster: no lease for the new room {}: closing it", room);
    boost::asio::post(state_.registry.executor(), [this, room] {
      state_.registry.hand_over(room, "the room could not be registered in the cluster");
    });
  });
}

void Cluster::released(const std::string& room) {
  impl_->worker.post([this, room] {
    auto& i = *impl_;
    if (i.stopped || i.owned.erase(room) == 0) return;
    i.owned_count = i.owned.size();
    if (i.leases.release({room})) ++i.released;
    forget_summaries({room});
  });
}

void Cluster::hand_over_all() {
  state_.registry.hand_over_all("the server is stopping; your game goes on on another server");
  // The leases go as soon as what the rooms wrote is committed, not when the process ends: the
  // next join on another node takes a room at once. (A commit still under way is fenced by the
  // actions' primary key, docs/CLUSTER.md.)
  impl_->worker.post([this] {
    auto& i = *impl_;
    if (state_.store) state_.store->flush();
    std::vector<std::string> rooms(i.owned.begin(), i.owned.end());
    if (i.leases.release(rooms)) i.released += rooms.size();
    forget_summaries(rooms);
    i.owned.clear();
    i.owned_count = 0;
  });
}

void Cluster::lose(const std::vector<std::string>& rooms, const char* why) {
  auto& i = *impl_;
  for (const auto& r : rooms) {
    if (i.owned.erase(r) == 0) continue;
    ++i.lost;
    spdlog::warn("cluster: lease of room {} lost ({}): it stops here", r, why);
    boost::asio::post(state_.registry.executor(), [this, r] {
      state_.registry.hand_over(r, "the room moves to another server");
    });
  }
  i.owned_count = i.owned.size();
}

// Every renew_every: the heartbeat, the leases and the room list, in one pipeline each.
void Cluster::tick() {
  auto& i = *impl_;
  if (i.stopping) return;
  const auto t0 = SteadyClock::now();
  // The live nodes first: their runs are read below from this tick on, before any restart.
  count_nodes();
  const std::vector<std::string> watched = watched_nodes();
  std::vector<std::string> others = watched;
  for (const auto& n : i.live) {
    if (std::find(others.begin(), others.end(), n) == others.end()) others.push_back(n);
  }
  auto runs = i.leases.heartbeat(others);
  std::vector<std::string> rooms(i.owned.begin(), i.owned.end());
  std::optional<std::vector<std::string>> lost;
  if (runs) lost = i.leases.renew(rooms);
  if (runs && lost) {
    i.last_renewed = t0;
    redis_ok_ = true;
    i.renew_us =
        std::chrono::duration_cast<std::chrono::microseconds>(SteadyClock::now() - t0).count();
    lose(*lost, "another node holds it, or it expired");
    publish_summaries();
    // Gone: a watched node with no heartbeat, or any node whose run changed (stopped, or
    // restarted within a lease).
    std::vector<std::string> dead;
    for (std::size_t k = 0; k < others.size(); ++k) {
      const std::string& run = (*runs)[k];
      auto seen = i.incarnations.find(others[k]);
      const bool changed = seen != i.incarnations.end() && seen->second != run;
      if (changed || (run.empty() && k < watched.size())) dead.push_back(others[k]);
      if (run.empty()) {
        if (seen != i.incarnations.end()) i.incarnations.erase(seen);
      } else {
        i.incarnations[others[k]] = run;
      }
    }
    if (!dead.empty()) nodes_gone(dead);
    if (++i.ticks % kOrphanEvery == 0) adopt_orphans();
  } else {
    ++i.redis_errors;
    if (redis_ok_.exchange(false)) {
      spdlog::error("cluster: Redis unreachable ({}): no new rooms here until it is back",
                    i.commands.last_error());
    }
    // The leases were last extended at last_renewed: stop serving before they can run out.
    if (SteadyClock::now() + cfg_.renew_every + cfg_.redis_timeout >=
        i.last_renewed + cfg_.lease_ttl) {
      lose(rooms, "Redis unreachable");
    }
  }
  i.worker.post_after(cfg_.renew_every, [this] { tick(); });
}

void Cluster::adopt_orphans() {
  auto& i = *impl_;
  auto list = read_room_list();
  if (!list || list->dead.empty()) return;
  std::size_t tried = 0;
  Redis::Command gone{"HDEL", "bc:rooms"};
  for (const auto& [room, entry] : list->rooms) {
    if (!list->dead.count(entry.first)) continue;
    if (++tried > kOrphansPerRound) break;
    auto owner = i.leases.owner(room);
    if (!owner || owner->node) continue;  // Redis failed, or the lease has not expired yet
    auto got = i.leases.acquire(room);
    if (!got || !*got) continue;  // another node was quicker
    const auto placed = load(room);
    if (placed.where != Placement::Where::Local) gone.push_back(room);
    spdlog::info("cluster: room {} of the dead node {} taken over here", room, entry.first);
  }
  if (gone.size() > 2) i.commands.command(gone);
  if (tried > 0) publish_summaries();
}

// The live nodes, for /healthz and the metrics: a sorted set scored by each node's heartbeat
// expiry on its own wall clock (a count for people, never a decision: leases decide).
void Cluster::count_nodes() {
  const std::int64_t now = real_time().unix_ms();
  auto r = impl_->commands.pipeline(
      {{"ZADD", "bc:nodes", std::to_string(now + cfg_.lease_ttl.count()), cfg_.node_id},
       {"ZREMRANGEBYSCORE", "bc:nodes", "-inf", std::to_string(now)},
       {"ZRANGE", "bc:nodes", "0", "-1"}});
  if (!r || (*r)[2].kind != RedisReply::Kind::Array) return;
  live_nodes_ = (*r)[2].elements.size();
  impl_->live.clear();
  for (const auto& n : (*r)[2].elements) {
    if (n.str != cfg_.node_id) impl_->live.push_back(n.str);
  }
}

}  // namespace bc::server

#include "server/host/registry.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cctype>
#include <thread>

#include "bc/ai.hpp"
#include "server/host/serial.hpp"
#include "server/room/notation.hpp"
#include "server/room/persist.hpp"

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

Registry::Registry(net::io_context& ioc, const Limits& limits, Metrics& metrics, bool one_thread)
    : ioc_(ioc),
      one_thread_(one_thread),
      limits_(limits),
      metrics_(metrics),
      rng_(std::random_device{}()),
      analyst_(&computers_),
      computers_(limits.computer_threads != 0
                     ? limits.computer_threads
                     : std::max(1u, std::thread::hardware_concurrency() / 2),
                 limits.computer_queue_max, metrics) {}

std::shared_ptr<RoomHost> Registry::create(GameSetup setup, const std::string& address,
                                           ErrorCode* refused, std::string id) {
  std::shared_ptr<RoomHost> evicted;
  const bool reserved = !id.empty();
  if (!reserved) id = fresh_id();
  std::unique_lock lock(mu_);
  while (rooms_.count(id) != 0) {  // made meanwhile by another create: very rare
    if (reserved) {  // fresh when reserved, and its lease is this node's: cannot happen
      if (refused) *refused = ErrorCode::ServerError;
      return nullptr;
    }
    lock.unlock();
    id = fresh_id();
    lock.lock();
  }
  const std::size_t per_address = limits_.max_rooms_per_address;
  if (per_address > 0 && !address.empty()) {
    auto n = rooms_of_address_.find(address);
    if (n != rooms_of_address_.end() && n->second >= per_address) {
      evicted = evictable_room(address);
      if (!evicted) {
        if (refused) *refused = ErrorCode::TooManyRooms;
        return nullptr;
      }
    }
  }
  if (rooms_.size() >= limits_.max_rooms) {
    if (refused) *refused = ErrorCode::ServerFull;
    return nullptr;
  }
  auto host = std::make_shared<RoomHost>(serial_executor(ioc_, one_thread_), id, std::move(setup),
                                         limits_, metrics_, store_, &computers_, address);
  host->set_analyst(&analyst_);
  rooms_.emplace(id, host);
  if (!address.empty()) {
    address_of_room_.emplace(id, address);
    ++rooms_of_address_[address];
  }
  lock.unlock();
  metrics_.rooms_created.fetch_add(1, std::memory_order_relaxed);
  if (created_) created_(id);
  if (evicted) {
    metrics_.rooms_evicted.fetch_add(1, std::memory_order_relaxed);
    metrics_.rooms_retired.fetch_add(1, std::memory_order_relaxed);
    evicted->retire("its creator made a new room, and nobody was in this one");
    if (retired_) retired_(evicted->id());
  }
  return host;
}

std::string Registry::fresh_id() {
  // Ids stay unique over the store's history too: old games stay readable by their id. The store
  // is asked outside mu_, on a reader connection of its own: a create never waits for a commit,
  // and nothing that needs mu_ (a join, another create) waits for the store.
  for (;;) {
    std::string id;
    {
      std::lock_guard lock(mu_);
      id = make_room_id(rng_());
      if (rooms_.count(id) != 0) continue;
    }
    if (store_ == nullptr || !store_->has_room(id)) return id;
  }
}

void Registry::forget_address(const std::string& room) {
  auto it = address_of_room_.find(room);
  if (it == address_of_room_.end()) return;
  auto n = rooms_of_address_.find(it->second);
  if (n != rooms_of_address_.end() && --n->second == 0) rooms_of_address_.erase(n);
  address_of_room_.erase(it);
}

std::shared_ptr<RoomHost> Registry::evictable_room(const std::string& address) {
  std::shared_ptr<RoomHost> oldest;
  Clock::time_point oldest_change{};
  for (const auto& [room, from] : address_of_room_) {
    if (from != address) continue;
    auto it = rooms_.find(room);
    if (it == rooms_.end()) continue;
    const auto a = it->second->activity();
    if (a.members != 0 || a.status == RoomStatus::Playing) continue;
    if (!oldest || a.last_change < oldest_change) {
      oldest = it->second;
      oldest_change = a.last_change;
    }
  }
  if (oldest) {
    forget_address(oldest->id());
    rooms_.erase(oldest->id());
  }
  return oldest;
}

std::shared_ptr<RoomHost> Registry::rebuild(const store::LoadedRoom& stored, std::string& error) {
  const std::string& id = stored.room.id;
  auto image = image_of(stored);
  std::optional<ReplayError> failed;
  if (auto* img = std::get_if<GameRecord>(&image)) {
    auto r = restore_room(id, *img, limits_);
    if (r.room) {
      if (const int rules = r.room->setup().options.rules; rules < kRulesRevision) {
        spdlog::info(
            "room {}: played under rules revision {} and replayed under it, as are its "
            "rematches (docs/RULES.md, Revisions)",
            id, rules);
      }
      auto host = std::make_shared<RoomHost>(serial_executor(ioc_, one_thread_), std::move(*r.room),
                                             limits_, metrics_, store_, &computers_);
      host->set_analyst(&analyst_);
      host->resume_clock();
      return host;
    }
    failed = r.error;
  } else {
    failed = std::get<ReplayError>(image);
  }
  error = "its log does not replay (first bad version " + std::to_string(failed->version) +
          "): " + failed->message;
  return nullptr;
}

std::pair<std::size_t, std::size_t> Registry::restore_all() {
  if (!store_) return {0, 0};
  std::size_t loaded = 0;
  std::size_t failed = 0;
  for (const auto& stored : store_->load_active_rooms()) {
    std::string error;
    if (auto host = rebuild(stored, error)) {
      std::lock_guard lock(mu_);
      rooms_.emplace(stored.room.id, std::move(host));
      ++loaded;
      continue;
    }
    ++failed;
    spdlog::error("room {}: {}; it is left in the store as it is and not loaded", stored.room.id,
                  error);
  }
  return {loaded, failed};
}

bool Registry::adopt(const store::LoadedRoom& stored) {
  {
    std::lock_guard lock(mu_);
    if (rooms_.count(stored.room.id) != 0) return true;
  }
  std::string error;
  auto host = rebuild(stored, error);
  if (!host) {
    spdlog::error("room {}: {}; not taken over", stored.room.id, error);
    return false;
  }
  std::lock_guard lock(mu_);
  rooms_.emplace(stored.room.id, std::move(host));
  return true;
}

void Registry::hand_over(const std::string& id, std::string why) {
  std::shared_ptr<RoomHost> host;
  {
    std::lock_guard lock(mu_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    host = std::move(it->second);
    rooms_.erase(it);
    forget_address(id);
  }
  host->hand_over(std::move(why));
}

void Registry::hand_over_all(std::string why) {
  std::unordered_map<std::string, std::shared_ptr<RoomHost>> rooms;
  {
    std::lock_guard lock(mu_);
    rooms.swap(rooms_);
    address_of_room_.clear();
    rooms_of_address_.clear();
  }
  for (auto& [id, host] : rooms) host->hand_over(why);
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
      // A clocked game in play ends by its own clock (a flag or an abort), even with nobody here;
      // a correspondence game lasts days.
      if (a.members == 0 && !a.clock_running && now - a.empty_since >= empty_ttl) {
        why = "nobody was connected for a while";
      } else if (finished && now - a.last_change >= limits_.finished_room_ttl) {
        why = "the game ended a while ago";
      }
      if (why.empty()) {
        ++it;
        continue;
      }
      due.emplace_back(it->second, std::move(why));
      forget_address(it->first);
      it = rooms_.erase(it);
    }
  }
  for (auto& [host, why] : due) {
    metrics_.rooms_retired.fetch_add(1, std::memory_order_relaxed);
    host->retire(std::move(why));
    if (retired_) retired_(host->id());
  }
  return due.size();
}

void Registry::close_all(std::string why) {
  std::unordered_map<std::string, std::shared_ptr<RoomHost>> rooms;
  {
    std::lock_guard lock(mu_);
    rooms.swap(rooms_);
    address_of_room_.clear();
    rooms_of_address_.clear();
  }
  for (auto& [id, host] : rooms) host->retire(why, false);
}

void Registry::stop_computers() {
  computers_.close();
  std::lock_guard lock(mu_);
  for (auto& [id, host] : rooms_) host->stop_computer();
}

void Registry::drain_computers() {
  computers_.drain();
}

}  // namespace bc::server

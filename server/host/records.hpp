// Game records for HTTP (/api/games/...): the store's reads and the replays behind them run on
// threads of their own, never on an I/O thread or a room's strand, in bounded number (in all and
// per client address); records of games that can no longer change are cached, and every response
// shares the cached text instead of copying it.
#pragma once

#include <boost/asio/thread_pool.hpp>
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "server/wire/limits.hpp"

namespace bc::server {

using Text = std::shared_ptr<const std::string>;

class RecordWorks {
 public:
  explicit RecordWorks(const Limits& limits);
  ~RecordWorks();
  RecordWorks(const RecordWorks&) = delete;
  RecordWorks& operator=(const RecordWorks&) = delete;

  // A place for one record job, given back when the last copy goes (it may outlive the works).
  class Ticket;
  using TicketPtr = std::shared_ptr<Ticket>;
  struct Places;
  enum class Refusal : std::uint8_t { None, Busy, AddressBusy };
  // A place for a job from `address`, or why not: record_jobs_max under way in all (Busy), or
  // record_jobs_per_address from this address (AddressBusy).
  TicketPtr admit(const std::string& address, Refusal& why);
  // Runs `job` on a record thread; the ticket is held until it ends. Nothing runs once stopped.
  void post(TicketPtr ticket, std::function<void()> job);
  // Server shutdown: starts no more jobs and waits for those under way.
  void stop();

  // Cached records of games that no longer change, by key; least recently used dropped first.
  Text cached(const std::string& key);
  // `read_at`: generation() when the record's data was read; a record read before the last
  // forget_cached() is not cached (it may show a game deleted since).
  void cache(const std::string& key, Text text, std::optional<std::uint64_t> read_at = {});
  // Empties the cache: the store's retention policy deleted games, whose records must not be
  // served any more. Starts a new generation.
  void forget_cached();
  std::uint64_t generation() const;
  std::size_t cached_bytes() const;
  std::size_t under_way() const;

 private:
  const Limits& limits_;
  std::shared_ptr<Places> places_;
  boost::asio::thread_pool pool_;
  mutable std::mutex mu_;                        // the cache
  std::list<std::pair<std::string, Text>> lru_;  // most recent first
  std::unordered_map<std::string, std::list<std::pair<std::string, Text>>::iterator> index_;
  std::size_t bytes_ = 0;
  std::uint64_t generation_ = 0;
};

struct RecordWorks::Places {
  std::mutex mu;
  bool stopped = false;
  std::size_t jobs = 0;
  std::unordered_map<std::string, std::size_t> by_address;
  void release(const std::string& address);
};

class RecordWorks::Ticket {
 public:
  Ticket(std::shared_ptr<Places> places, std::string address)
      : places_(std::move(places)), address_(std::move(address)) {}
  ~Ticket() { places_->release(address_); }
  Ticket(const Ticket&) = delete;
  Ticket& operator=(const Ticket&) = delete;

 private:
  std::shared_ptr<Places> places_;
  std::string address_;
};

}  // namespace bc::server

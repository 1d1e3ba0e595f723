#include "server/host/records.hpp"

#include <boost/asio/post.hpp>

namespace bc::server {

RecordWorks::RecordWorks(const Limits& limits)
    : limits_(limits),
      places_(std::make_shared<Places>()),
      pool_(std::max(1u, limits.record_threads)) {}

RecordWorks::~RecordWorks() {
  stop();
}

RecordWorks::TicketPtr RecordWorks::admit(const std::string& address, Refusal& why) {
  std::lock_guard lock(places_->mu);
  why = Refusal::None;
  if (places_->stopped || places_->jobs >= limits_.record_jobs_max) {
    why = Refusal::Busy;
    return nullptr;
  }
  auto n = places_->by_address.find(address);
  if (limits_.record_jobs_per_address > 0 && n != places_->by_address.end() &&
      n->second >= limits_.record_jobs_per_address) {
    why = Refusal::AddressBusy;
    return nullptr;
  }
  ++places_->by_address[address];
  ++places_->jobs;
  return std::make_shared<Ticket>(places_, address);
}

void RecordWorks::Places::release(const std::string& address) {
  std::lock_guard lock(mu);
  --jobs;
  auto it = by_address.find(address);
  if (it != by_address.end() && --it->second == 0) by_address.erase(it);
}

void RecordWorks::post(TicketPtr ticket, std::function<void()> job) {
  {
    std::lock_guard lock(places_->mu);
    if (places_->stopped) return;
  }
  boost::asio::post(pool_, [places = places_, ticket = std::move(ticket), job = std::move(job)] {
    {
      std::lock_guard lock(places->mu);
      if (places->stopped) return;
    }
    job();
  });
}

void RecordWorks::stop() {
  {
    std::lock_guard lock(places_->mu);
    places_->stopped = true;
  }
  pool_.join();
}

Text RecordWorks::cached(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

void RecordWorks::cache(const std::string& key, Text text, std::optional<std::uint64_t> read_at) {
  if (!text || text->size() > limits_.record_cache_bytes) return;
  std::lock_guard lock(mu_);
  if (read_at && *read_at != generation_) return;
  if (index_.count(key) != 0) return;
  bytes_ += text->size();
  lru_.emplace_front(key, std::move(text));
  index_[key] = lru_.begin();
  while (bytes_ > limits_.record_cache_bytes && !lru_.empty()) {
    bytes_ -= lru_.back().second->size();
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
}

void RecordWorks::forget_cached() {
  std::lock_guard lock(mu_);
  lru_.clear();
  index_.clear();
  bytes_ = 0;
  ++generation_;
}

std::uint64_t RecordWorks::generation() const {
  std::lock_guard lock(mu_);
  return generation_;
}

std::size_t RecordWorks::cached_bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

std::size_t RecordWorks::under_way() const {
  std::lock_guard lock(places_->mu);
  return places_->jobs;
}

}  // namespace bc::server

// The computer's scheduler without rooms or sockets: the order searches run in (addresses in turn,
// quick before slow), searches of unwatched rooms dropped, the queue's bound, and shutdown.
#include "server/host/computer_pool.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace bc::server {
namespace {

using namespace std::chrono_literals;

// Records what ran and what was dropped, in order; a job can be held running until released.
class Log {
 public:
  ComputerJob job(std::string address, std::string room, bool quick = false, bool watched = true) {
    ComputerJob j;
    j.address = std::move(address);
    j.room = std::move(room);
    j.quick = quick;
    j.watched = [watched] { return watched; };
    j.run = [this, name = j.room] {
      std::unique_lock lock(mu_);
      ran_.push_back(name);
      cv_.notify_all();
      // Bounded, so a failed assertion cannot leave the pool's destructor waiting forever.
      cv_.wait_for(lock, 10s, [&] { return held_.count(name) == 0; });
    };
    j.dropped = [this, name = j.room](ComputerDrop why) {
      std::lock_guard lock(mu_);
      dropped_.push_back(name + (why == ComputerDrop::Unwatched ? ":unwatched" : ":full"));
      cv_.notify_all();
    };
    return j;
  }
  // The job named `room` will not return until released.
  void hold(const std::string& room) {
    std::lock_guard lock(mu_);
    held_.insert(room);
  }
  void release(const std::string& room) {
    std::lock_guard lock(mu_);
    held_.erase(room);
    cv_.notify_all();
  }
  // Waits (5 s at most) until `n` jobs ran (started) and `d` were dropped.
  bool wait_for(std::size_t n, std::size_t d = 0) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 5s, [&] { return ran_.size() >= n && dropped_.size() >= d; });
  }
  std::vector<std::string> ran() {
    std::lock_guard lock(mu_);
    return ran_;
  }
  std::vector<std::string> dropped() {
    std::lock_guard lock(mu_);
    return dropped_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::set<std::string> held_;
  std::vector<std::string> ran_;
  std::vector<std::string> dropped_;
};

using Names = std::vector<std::string>;

TEST(ComputerPool, AddressesTakeTurnsAndTheirRoomsToo) {
  Metrics metrics;
  Log log;
  ComputerPool pool(1, 100, metrics);
  log.hold("gate");
  pool.submit(log.job("10.0.0.1", "gate"));
  ASSERT_TRUE(log.wait_for(1));
  // One address queues many rooms' searches before anyone else does.
  for (const char* r : {"a1", "a2", "a3", "a4"}) pool.submit(log.job("10.0.0.1", r));
  pool.submit(log.job("10.0.0.2", "b1"));
  pool.submit(log.job("10.0.0.3", "c1"));
  pool.submit(log.job("10.0.0.2", "b2"));
  EXPECT_EQ(pool.queued(), 7u);
  EXPECT_EQ(metrics.computer_queued.load(), 7);
  log.release("gate");
  ASSERT_TRUE(log.wait_for(8));
  EXPECT_EQ(log.ran(), (Names{"gate", "a1", "b1", "c1", "a2", "b2", "a3", "a4"}));
  EXPECT_EQ(metrics.computer_searches.load(), 8u);
  EXPECT_EQ(metrics.computer_wait.count(), 8u);
}

TEST(ComputerPool, QuickSearchesDoNotWaitBehindLongOnes) {
  Metrics metrics;
  Log log;
  ComputerPool pool(1, 100, metrics);
  log.hold("long");
  pool.submit(log.job("10.0.0.1", "long"));
  ASSERT_TRUE(log.wait_for(1));
  pool.submit(log.job("10.0.0.1", "slow"));
  pool.submit(log.job("10.0.0.2", "quick", true));
  // The only general thread is held: the quick lane's own thread answers.
  ASSERT_TRUE(log.wait_for(2));
  EXPECT_EQ(log.ran(), (Names{"long", "quick"}));
  log.release("long");
  ASSERT_TRUE(log.wait_for(3));
}

TEST(ComputerPool, EveryThreadTakesQuickSearchesFirst) {
  Metrics metrics;
  Log log;
  ComputerPool pool(1, 100, metrics);
  log.hold("s-gate");
  log.hold("q-gate");
  pool.submit(log.job("10.0.0.1", "s-gate"));  // only the general thread runs a slow search
  ASSERT_TRUE(log.wait_for(1));
  pool.submit(log.job("10.0.0.1", "q-gate", true));  // so the quick-only thread takes this one
  ASSERT_TRUE(log.wait_for(2));
  pool.submit(log.job("10.0.0.2", "slow"));
  pool.submit(log.job("10.0.0.3", "quick", true));
  log.release("s-gate");
  ASSERT_TRUE(log.wait_for(4));
  EXPECT_EQ(log.ran(), (Names{"s-gate", "q-gate", "quick", "slow"}))
      << "the general thread, free first, takes the quick search first";
  log.release("q-gate");
}

TEST(ComputerPool, SearchesOfRoomsNobodyWatchesAreDropped) {
  Metrics metrics;
  Log log;
  ComputerPool pool(1, 100, metrics);
  pool.submit(log.job("10.0.0.1", "empty", false, /*watched=*/false));
  pool.submit(log.job("10.0.0.1", "watched"));
  ASSERT_TRUE(log.wait_for(1, 1));
  EXPECT_EQ(log.ran(), (Names{"watched"}));
  EXPECT_EQ(log.dropped(), (Names{"empty:unwatched"}));
  EXPECT_EQ(metrics.computer_dropped_unwatched.load(), 1u);
}

TEST(ComputerPool, AFullQueuePutsOffTheBusiestAddress) {
  Metrics metrics;
  Log log;
  ComputerPool pool(1, 3, metrics);
  log.hold("gate");
  pool.submit(log.job("10.0.0.9", "gate"));
  ASSERT_TRUE(log.wait_for(1));
  for (const char* r : {"a1", "a2", "a3"}) pool.submit(log.job("10.0.0.1", r));
  // Full: a newcomer takes the place of the busiest address's newest search...
  pool.submit(log.job("10.0.0.2", "b1"));
  // ...but that address cannot push out another's to add its own.
  pool.submit(log.job("10.0.0.1", "a4"));
  EXPECT_EQ(pool.queued(), 3u);
  EXPECT_EQ(log.dropped(), (Names{"a3:full", "a4:full"}));
  EXPECT_EQ(metrics.computer_dropped_full.load(), 2u);
  log.release("gate");
  ASSERT_TRUE(log.wait_for(4));
  EXPECT_EQ(log.ran(), (Names{"gate", "a1", "b1", "a2"}));
}

TEST(ComputerPool, CloseForgetsWhatWaitsAndDrainWaitsForWhatRuns) {
  Metrics metrics;
  Log log;
  auto pool = std::make_unique<ComputerPool>(1, 10, metrics);
  log.hold("running");
  pool->submit(log.job("10.0.0.1", "running"));
  ASSERT_TRUE(log.wait_for(1));
  pool->submit(log.job("10.0.0.1", "waiting"));
  pool->close();
  EXPECT_TRUE(pool->closing());
  EXPECT_EQ(pool->queued(), 0u);
  pool->submit(log.job("10.0.0.1", "late"));
  EXPECT_EQ(pool->queued(), 0u);
  log.release("running");
  pool->drain();
  EXPECT_EQ(log.ran(), (Names{"running"}));
  EXPECT_TRUE(log.dropped().empty());
}

}  // namespace
}  // namespace bc::server

// Issue 13.1: the record threads' admission (in all and per address), their cache, and the
// per-address request buckets, without sockets.
#include "server/host/records.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "server/host/address_limits.hpp"

using namespace bc::server;

TEST(RecordWorks, AdmitsAFewPerAddressAndABoundedNumberInAll) {
  Limits l;
  l.record_jobs_max = 3;
  l.record_jobs_per_address = 2;
  RecordWorks works(l);
  RecordWorks::Refusal why{};
  auto a1 = works.admit("10.0.0.1", why);
  auto a2 = works.admit("10.0.0.1", why);
  ASSERT_TRUE(a1 && a2);
  EXPECT_FALSE(works.admit("10.0.0.1", why));
  EXPECT_EQ(why, RecordWorks::Refusal::AddressBusy);
  auto b1 = works.admit("10.0.0.2", why);
  ASSERT_TRUE(b1);
  EXPECT_FALSE(works.admit("10.0.0.3", why));
  EXPECT_EQ(why, RecordWorks::Refusal::Busy);
  EXPECT_EQ(works.under_way(), 3u);
  a1.reset();  // a job that ends gives its place back
  EXPECT_TRUE(works.admit("10.0.0.3", why));
  EXPECT_EQ(works.under_way(), 2u);
}

TEST(RecordWorks, AJobHoldsItsPlaceUntilItEndsAndRunsOffTheCallersThread) {
  Limits l;
  l.record_jobs_per_address = 1;
  RecordWorks works(l);
  RecordWorks::Refusal why{};
  std::atomic<bool> release{false};
  std::atomic<bool> ran{false};
  const auto caller = std::this_thread::get_id();
  works.post(works.admit("a", why), [&] {
    EXPECT_NE(std::this_thread::get_id(), caller);
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ran = true;
  });
  EXPECT_FALSE(works.admit("a", why));
  release = true;
  for (int i = 0; i < 2000 && works.under_way() != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(ran);
  EXPECT_TRUE(works.admit("a", why));
}

TEST(RecordWorks, StoppedWorksRunNothingAndAdmitNobody) {
  RecordWorks works(Limits{});
  works.stop();
  RecordWorks::Refusal why{};
  EXPECT_FALSE(works.admit("a", why));
  EXPECT_EQ(why, RecordWorks::Refusal::Busy);
}

TEST(RecordWorks, TheCacheKeepsTheMostRecentlyUsedWithinItsBytes) {
  Limits l;
  l.record_cache_bytes = 25;
  RecordWorks works(l);
  auto text = [](char c) { return std::make_shared<const std::string>(10, c); };
  works.cache("a", text('a'));
  works.cache("b", text('b'));
  ASSERT_TRUE(works.cached("a"));  // a is now the most recent
  works.cache("c", text('c'));     // 30 bytes: the least recent (b) goes
  EXPECT_TRUE(works.cached("a"));
  EXPECT_FALSE(works.cached("b"));
  EXPECT_TRUE(works.cached("c"));
  EXPECT_EQ(works.cached_bytes(), 20u);
  works.cache("big", std::make_shared<const std::string>(26, 'x'));  // larger than the cache
  EXPECT_FALSE(works.cached("big"));
  EXPECT_EQ(works.cached("a"), works.cached("a")) << "readers share one text";
}

TEST(RecordWorks, ARecordReadBeforeAPruneIsNotCachedAfterIt) {
  Limits l;
  RecordWorks works(l);
  auto text = [](char c) { return std::make_shared<const std::string>(10, c); };
  works.cache("kept", text('k'), works.generation());
  const auto read_at = works.generation();   // a record job reads the store...
  works.forget_cached();                     // ...a prune deletes games and empties the cache...
  works.cache("stale", text('s'), read_at);  // ...then the job finishes
  EXPECT_FALSE(works.cached("kept"));
  EXPECT_FALSE(works.cached("stale")) << "it may show a deleted game";
  works.cache("fresh", text('f'), works.generation());
  EXPECT_TRUE(works.cached("fresh"));
  EXPECT_EQ(works.cached_bytes(), 10u);
}

TEST(AddressLimiter, CreatesOfOneAddressAreABurstOfThreeMinutesWorthThenOneEvery6s) {
  using Clock = AddressLimiter::Clock;
  Limits l;
  l.creates_per_address_per_minute = 10;
  AddressLimiter limiter(l);
  const auto t = Clock::now();
  for (int i = 0; i < 30; ++i)
    EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Create, t));
  EXPECT_FALSE(limiter.take("10.0.0.1", AddressLimiter::Kind::Create, t));
  EXPECT_TRUE(limiter.take("10.0.0.2", AddressLimiter::Kind::Create, t)) << "per address";
  EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Join, t)) << "its own bucket";
  EXPECT_FALSE(limiter.take("10.0.0.1", AddressLimiter::Kind::Create, t + std::chrono::seconds(5)));
  EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Create, t + std::chrono::seconds(7)));
}

TEST(AddressLimiter, MetricsRequestsHaveABucketOfTheirOwn) {
  using Clock = AddressLimiter::Clock;
  Limits l;
  l.metrics_rate_per_second = 1;
  l.metrics_burst = 2;
  l.api_rate_per_second = 1;
  l.api_burst = 1;
  AddressLimiter limiter(l);
  const auto t = Clock::now();
  EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Api, t));
  EXPECT_FALSE(limiter.take("10.0.0.1", AddressLimiter::Kind::Api, t));
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Metrics, t)) << i;
  }
  EXPECT_FALSE(limiter.take("10.0.0.1", AddressLimiter::Kind::Metrics, t));
  EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Metrics, t + std::chrono::seconds(1)));
}

TEST(AddressLimiter, ApiRequestsOfOneAddressShareABucketOfTheirOwn) {
  using Clock = AddressLimiter::Clock;
  Limits l;
  l.api_rate_per_second = 1;
  l.api_burst = 3;
  AddressLimiter limiter(l);
  const auto t = Clock::now();
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Api, t));
  EXPECT_FALSE(limiter.take("10.0.0.1", AddressLimiter::Kind::Api, t));
  EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Message, t))
      << "WebSocket messages have a budget of their own";
  EXPECT_TRUE(limiter.take("10.0.0.2", AddressLimiter::Kind::Api, t))
      << "another address has a bucket of its own";
  EXPECT_TRUE(limiter.take("10.0.0.1", AddressLimiter::Kind::Api, t + std::chrono::seconds(1)));
}

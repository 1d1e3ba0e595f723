// The quick-pairing pools (docs/PLAYERS.md, "Pools") on an io_context run by the test: who is
// paired, who makes the room, and what the waiting hear. Socket-free.
#include "server/players/pools.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

namespace bc::server {
namespace {

struct Member : PoolMember {
  std::vector<std::string> heard;
  std::string made_for;  // the opponent whose seat this member's room keeps
  std::function<void(std::string)> made;
  void pool_create(const PoolSpec& pool, const Identity& opponent,
                   std::function<void(std::string)> done) override {
    heard.push_back("create " + pool.id);
    made_for = opponent.id;
    made = std::move(done);
  }
  void pool_join(const PoolSpec& pool, std::string room) override {
    heard.push_back("join " + pool.id + " " + room);
  }
  void pool_dropped(std::string) override { heard.push_back("dropped"); }
  void pool_waiting(const std::string& pool, std::size_t n) override {
    heard.push_back("waiting " + pool + " " + std::to_string(n));
  }
};

Identity rated(const std::string& id, double rating) {
  return Identity{id, id, {PerfRating{"bomb:blitz", players::Rating{rating, 60, 0.06, {}}}}};
}

class PoolsTest : public ::testing::Test {
 protected:
  boost::asio::io_context io_;
  std::shared_ptr<Pools> pools_ =
      std::make_shared<Pools>(io_.get_executor(), Pools::Params{std::chrono::hours(1), 20});
  void run() {
    io_.restart();
    io_.run();
  }
};

TEST_F(PoolsTest, TwoCloseRatingsArePairedOneMakesTheRoomAndTheOtherIsSentToIt) {
  auto a = std::make_shared<Member>(), b = std::make_shared<Member>();
  std::size_t told = 0;
  pools_->enter(1, "bomb-3+2", rated("ann", 1500), a, [&](std::size_t n) { told = n; });
  pools_->enter(2, "bomb-3+2", rated("bob", 1550), b, [&](std::size_t n) { told = n; });
  run();
  EXPECT_EQ(told, 2u);
  boost::asio::post(io_, [this] { pools_->wave_now(); });
  run();
  Member& maker = a->made ? *a : *b;
  Member& other = a->made ? *b : *a;
  ASSERT_TRUE(maker.made);
  EXPECT_EQ(maker.made_for, &maker == a.get() ? "bob" : "ann");
  EXPECT_TRUE(other.heard.empty());
  maker.made("ROOM42");
  EXPECT_EQ(other.heard.back(), "join bomb-3+2 ROOM42");
  boost::asio::post(io_, [this] { EXPECT_EQ(pools_->waiting("bomb-3+2"), 0u); });
  run();
}

TEST_F(PoolsTest, FarRatingsWaitAndHearTheCountWhenItChanges) {
  auto a = std::make_shared<Member>(), b = std::make_shared<Member>();
  pools_->enter(1, "bomb-3+2", rated("ann", 1500), a, nullptr);
  pools_->enter(2, "bomb-3+2", rated("bob", 2300), b, nullptr);
  run();
  boost::asio::post(io_, [this] { pools_->wave_now(); });
  run();
  EXPECT_EQ(a->heard, std::vector<std::string>{"waiting bomb-3+2 2"});  // not paired: 800 apart
  boost::asio::post(io_, [this] { pools_->wave_now(); });
  run();
  EXPECT_EQ(a->heard.size(), 1u);  // nothing changed: nothing said
  pools_->leave(2);
  run();
  boost::asio::post(io_, [this] { pools_->wave_now(); });
  run();
  EXPECT_EQ(a->heard.back(), "waiting bomb-3+2 1");
}

TEST_F(PoolsTest, APlayerWaitsOnceAndAGoneConnectionIsNeverPaired) {
  auto a1 = std::make_shared<Member>(), a2 = std::make_shared<Member>();
  pools_->enter(1, "bomb-3+2", rated("ann", 1500), a1, nullptr);
  pools_->enter(2, "bomb-3+2", rated("ann", 1500), a2, nullptr);  // a second tab
  run();
  boost::asio::post(io_, [this] { EXPECT_EQ(pools_->waiting("bomb-3+2"), 1u); });
  run();
  auto b = std::make_shared<Member>();
  pools_->enter(3, "bomb-3+2", rated("bob", 1500), b, nullptr);
  a2.reset();  // the tab that waits closed
  run();
  boost::asio::post(io_, [this] { pools_->wave_now(); });
  run();
  EXPECT_FALSE(b->made);
  EXPECT_TRUE(a1->heard.empty() || a1->heard.back() != "create bomb-3+2");
}

TEST(PoolSpecs, EveryVariantByEveryPresetWithItsPerf) {
  EXPECT_EQ(pool_specs().size(), 16u);
  const PoolSpec* p = find_pool("kaboom-10+5");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->perf, "kaboom:rapid");  // 600 + 40 * 5 = 800 s
  EXPECT_EQ(find_pool("bomb-1+0"), nullptr);
}

}  // namespace
}  // namespace bc::server

// The lease manager (server/cluster/lease.hpp) on a private Redis, and the relay's codec
// (server/cluster/relay_codec.hpp).
#include "server/cluster/lease.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "../support/redis.hpp"
#include "server/cluster/relay_codec.hpp"

namespace bc::server {
namespace {

using namespace std::chrono_literals;

// A node restarted within a lease writes a new incarnation in its heartbeat: the others tell it
// from the run they knew, and drop what they held for that run (Cluster::tick, nodes_gone).
TEST(Leases, AHeartbeatSaysWhichRunOfANodeItIs) {
  BC_NEED_REDIS(redis);
  Redis ra("127.0.0.1", redis.port(), 500ms), rb("127.0.0.1", redis.port(), 500ms);
  Leases b(rb, "node-b", 2000ms, "7");
  auto none = b.heartbeat({"node-a"});
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, std::vector<std::string>{""}) << "no heartbeat: gone";
  {
    Leases a(ra, "node-a", 2000ms, "1700000000000");
    ASSERT_TRUE(a.heartbeat({}));
    EXPECT_EQ(b.heartbeat({"node-a"}), std::vector<std::string>{"1700000000000"});
  }
  Leases again(ra, "node-a", 2000ms, "1700000004096");
  ASSERT_TRUE(again.heartbeat({}));
  EXPECT_EQ(b.heartbeat({"node-a"}), std::vector<std::string>{"1700000004096"});
}

TEST(Leases, OneOwnerAtATimeRenewedReleasedAndTakenOverAfterExpiry) {
  BC_NEED_REDIS(redis);
  Redis ra("127.0.0.1", redis.port(), 500ms), rb("127.0.0.1", redis.port(), 500ms);
  Leases a(ra, "node-a", 600ms), b(rb, "node-b", 600ms);
  ASSERT_TRUE(a.heartbeat({}));
  ASSERT_TRUE(b.heartbeat({}));

  auto free = b.owner("ROOM22");
  ASSERT_TRUE(free);
  EXPECT_FALSE(free->node);
  EXPECT_EQ(a.acquire("ROOM22"), true);
  EXPECT_EQ(a.acquire("ROOM22"), true) << "acquiring a lease it holds is a yes";
  EXPECT_EQ(b.acquire("ROOM22"), false) << "exactly one node holds a room";
  auto held = b.owner("ROOM22");
  ASSERT_TRUE(held && held->node);
  EXPECT_EQ(*held->node, "node-a");
  EXPECT_TRUE(held->alive);

  // Renewed past its first time to live, it stays; a lease it does not hold comes back lost.
  for (int i = 0; i < 4; ++i) {
    std::this_thread::sleep_for(250ms);
    auto lost = a.renew({"ROOM22", "ROOM33"});
    ASSERT_TRUE(lost);
    EXPECT_EQ(*lost, std::vector<std::string>{"ROOM33"});
  }
  EXPECT_EQ(b.acquire("ROOM22"), false);

  // Released with compare-and-delete: b's lease is not a's to release.
  ASSERT_TRUE(a.release({"ROOM22"}));
  EXPECT_EQ(b.acquire("ROOM22"), true);
  ASSERT_TRUE(a.release({"ROOM22"}));
  auto still = a.owner("ROOM22");
  ASSERT_TRUE(still && still->node);
  EXPECT_EQ(*still->node, "node-b");

  // b stops renewing (dies): its heartbeat goes, then its lease, and a takes the room.
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    ASSERT_LT(std::chrono::steady_clock::now() - t0, 3s);
    auto o = a.owner("ROOM22");
    ASSERT_TRUE(o);
    if (o->node) {
      EXPECT_FALSE(o->alive && std::chrono::steady_clock::now() - t0 > 700ms)
          << "a dead node's heartbeat runs out with the time to live";
    }
    if (a.acquire("ROOM22") == true) break;
    std::this_thread::sleep_for(20ms);
  }
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_GT(waited, 300ms);
  EXPECT_LT(waited, 1500ms);
  auto lost_b = b.renew({"ROOM22"});
  ASSERT_TRUE(lost_b);
  EXPECT_EQ(*lost_b, std::vector<std::string>{"ROOM22"}) << "the old owner learns it lost it";
}

TEST(Leases, RenewsThousandsOfRoomsInOneBatchAndReportsRedisFailures) {
  BC_NEED_REDIS(redis);
  Redis r("127.0.0.1", redis.port(), 500ms);
  Leases a(r, "node-a", 5000ms);
  std::vector<std::string> rooms;
  for (int i = 0; i < 3000; ++i) {
    rooms.push_back("R" + std::to_string(i));
    ASSERT_EQ(a.acquire(rooms.back()), true);
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto lost = a.renew(rooms);
  const auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_TRUE(lost);
  EXPECT_TRUE(lost->empty());
  std::printf("renewing 3000 leases: %.1f ms\n",
              std::chrono::duration<double, std::milli>(took).count());
  EXPECT_LT(took, 2s);
  ASSERT_TRUE(a.release(rooms));
  redis.stop(SIGKILL);
  EXPECT_FALSE(a.renew(rooms)) << "Redis gone: nothing is known, which is not 'all kept'";
  EXPECT_FALSE(a.acquire("X"));
  EXPECT_FALSE(a.heartbeat({}));
}

TEST(RedisUrl, APasswordAndAUserAreReadAndNeverLogged) {
  auto a = redis_address("redis://:s3cret@10.0.0.5:6380/");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "10.0.0.5");
  EXPECT_EQ(a->port, 6380);
  EXPECT_EQ(a->user, "");
  EXPECT_EQ(a->password, "s3cret");
  a = redis_address("redis://bc:pw@redis");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->user, "bc");
  EXPECT_EQ(a->password, "pw");
  EXPECT_EQ(a->port, 6379);
  EXPECT_FALSE(redis_address("redis://bc@redis")) << "a user without its password";
  EXPECT_FALSE(redis_address("redis://:@redis"));
  EXPECT_FALSE(redis_address("rediss://:pw@redis")) << "no TLS in Debian's hiredis 0.14";
  EXPECT_FALSE(redis_address("redis://redis/0"));
  EXPECT_EQ(redis_url_for_log("redis://bc:pw@redis:6380"), "redis://bc:***@redis:6380");
  EXPECT_EQ(redis_url_for_log("redis://:pw@redis"), "redis://:***@redis");
  EXPECT_EQ(redis_url_for_log("redis://redis:6380"), "redis://redis:6380");
}

TEST(RedisUrl, ARedisThatAsksForAPasswordIsReachedWithItAndRefusesAWrongOne) {
  bc::test::RedisServer redis("s3cret pass");
  if (!redis.ok()) GTEST_SKIP() << redis.why();
  Redis good(RedisAddress{"127.0.0.1", redis.port(), {}, "s3cret pass"}, 500ms);
  auto pong = good.command({"PING"});
  ASSERT_TRUE(pong) << good.last_error();
  EXPECT_EQ(pong->str, "PONG");
  Redis bad(RedisAddress{"127.0.0.1", redis.port(), {}, "wrong"}, 500ms);
  EXPECT_FALSE(bad.command({"PING"}));
  EXPECT_NE(bad.last_error().find("refused the login"), std::string::npos) << bad.last_error();
  Redis none("127.0.0.1", redis.port(), 500ms);
  auto refused = none.command({"SET", "k", "v"});
  EXPECT_TRUE(!refused || refused->error()) << "no write without the password";
}

TEST(RelayCodec, EveryMessageRoundTripsAndBadOnesAreRefused) {
  RelayRequest q{"node-b",
                 42,
                 "10.0.0.7",
                 2,
                 1700000000123,
                 R"({"type":"join","room":"ABCDEF"})",
                 R"({"id":"p1","name":"Ann","ratings":[]})"};
  auto back = decode_relay(encode_relay(q));
  ASSERT_TRUE(back && std::holds_alternative<RelayRequest>(*back));
  const auto& q2 = std::get<RelayRequest>(*back);
  EXPECT_EQ(q2.from, q.from);
  EXPECT_EQ(q2.conn, q.conn);
  EXPECT_EQ(q2.address, q.address);
  EXPECT_EQ(q2.form, q.form);
  EXPECT_EQ(q2.sent_unix_ms, q.sent_unix_ms);
  EXPECT_EQ(q2.text, q.text);
  EXPECT_EQ(q2.who, q.who);  // a node's word for its connection's player

  auto bye = decode_relay(encode_relay(RelayBye{"node-b", 7}));
  ASSERT_TRUE(bye && std::holds_alternative<RelayBye>(*bye));
  EXPECT_EQ(std::get<RelayBye>(*bye).conn, 7u);

  RelayOut o;
  o.from = "node-a";
  o.texts = {R"({"type":"state"})", R"({"type":"delta"})", "\xff not utf-8 is replaced"};
  o.items.push_back(RelayItem{1, {{0, -1}}, true, RelayEvent::None});
  o.items.push_back(RelayItem{2, {{1, 0}}, false, RelayEvent::Joined});
  o.items.push_back(RelayItem{3, {}, false, RelayEvent::Moved});
  auto out = decode_relay(encode_relay(o));
  ASSERT_TRUE(out && std::holds_alternative<RelayOut>(*out));
  const auto& o2 = std::get<RelayOut>(*out);
  EXPECT_EQ(o2.texts[0], o.texts[0]);
  EXPECT_EQ(o2.texts[1], o.texts[1]);
  ASSERT_EQ(o2.items.size(), 3u);
  EXPECT_EQ(o2.items[1].texts, (std::vector<std::pair<int, int>>{{1, 0}}));
  EXPECT_EQ(o2.items[1].event, RelayEvent::Joined);
  EXPECT_TRUE(o2.items[0].handled);
  EXPECT_EQ(o2.items[2].event, RelayEvent::Moved);

  EXPECT_FALSE(decode_relay("not json"));
  EXPECT_FALSE(decode_relay(R"({"k":"what"})"));
  EXPECT_FALSE(decode_relay(R"({"k":"req","from":"x"})"));
  EXPECT_FALSE(decode_relay(
      R"({"k":"out","from":"a","texts":["x"],"items":[{"c":1,"t":[[5,-1]],"h":false,"e":0}]})"))
      << "an index past the texts";
  EXPECT_FALSE(decode_relay(
      R"({"k":"out","from":"a","texts":[],"items":[{"c":1,"t":[],"h":false,"e":9}]})"));
}

}  // namespace
}  // namespace bc::server

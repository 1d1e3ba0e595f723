// The second fence of the cluster (docs/CLUSTER.md, "Leases"): two nodes' stores on one
// PostgreSQL database; the stale owner's commit of a version the new owner already wrote fails,
// is reported as failed, and leaves the new owner's action in place.
#include <gtest/gtest.h>

#include <atomic>

#include "../store/backends.hpp"

namespace bc::store::test {
namespace {

TEST(Fence, AStaleOwnersCommitOfAWrittenVersionFailsAndChangesNothing) {
  BC_NEED_POSTGRES(pg);
  const std::string url = pg->new_database();
  auto old_owner = must_open(url), new_owner = must_open(url);
  old_owner->submit(new_room("FENCE2"));
  old_owner->submit({action("FENCE2", 1), action("FENCE2", 2)});
  old_owner->flush();
  // The room moved: the new owner loaded versions 1-2 and wrote 3.
  ASSERT_TRUE(new_owner->load_room("FENCE2"));
  std::atomic<int> fresh{-1}, stale{-1}, later{-1};
  new_owner->submit({AppendAction{{"FENCE2", 1, 3, 0, R"({"kind":"new"})", 5000}}},
                    [&](bool ok) { fresh = ok ? 1 : 0; });
  new_owner->flush();
  // The old owner, paused past its lease, commits its own version 3.
  old_owner->submit({AppendAction{{"FENCE2", 1, 3, 0, R"({"kind":"stale"})", 5001}}},
                    [&](bool ok) { stale = ok ? 1 : 0; });
  old_owner->flush();
  new_owner->submit({action("FENCE2", 4, 1)}, [&](bool ok) { later = ok ? 1 : 0; });
  new_owner->flush();
  EXPECT_EQ(fresh.load(), 1);
  EXPECT_EQ(stale.load(), 0) << "reported failed: the old owner announces nothing";
  EXPECT_EQ(later.load(), 1);
  auto actions = new_owner->actions("FENCE2", 1);
  ASSERT_EQ(actions.size(), 4u);
  EXPECT_EQ(actions[2].action, R"({"kind":"new"})");
}

}  // namespace
}  // namespace bc::store::test

// Accounts (docs/PLAYERS.md, "Identity") over the in-memory store: names, passwords, sessions and
// the limits, without sockets. Passwords are hashed at libsodium's smallest cost here.
#include "server/players/accounts.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/players/profiles.hpp"

namespace bc::server {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

TEST(AccountNames, TheRulesOfANameAndAPassword) {
  EXPECT_FALSE(Accounts::name_problem("Ann"));
  EXPECT_FALSE(Accounts::name_problem("a1"));
  EXPECT_FALSE(Accounts::name_problem("Jo_Ann-2"));
  EXPECT_TRUE(Accounts::name_problem("A"));                   // too short
  EXPECT_TRUE(Accounts::name_problem(std::string(21, 'a')));  // too long
  EXPECT_TRUE(Accounts::name_problem("1ann"));                // a letter first
  EXPECT_TRUE(Accounts::name_problem("ann_"));                // not a mark last
  EXPECT_TRUE(Accounts::name_problem("an__n"));               // marks side by side
  EXPECT_TRUE(Accounts::name_problem("an n"));                // no spaces
  EXPECT_TRUE(Accounts::name_problem("Ann\xc3\xa9"));         // ASCII only
  EXPECT_TRUE(Accounts::name_problem("Computer"));            // kept
  EXPECT_EQ(Accounts::fold("AnN"), "ann");
  EXPECT_TRUE(Accounts::password_problem("1234567"));
  EXPECT_FALSE(Accounts::password_problem("12345678"));
  EXPECT_TRUE(Accounts::password_problem(std::string(129, 'x')));
}

TEST(Attempts, ABucketPerKeyRefillsOverTime) {
  Attempts a(2, 10s, 3);
  const auto t = Attempts::Clock::now();
  int wait = 0;
  EXPECT_TRUE(a.take("x", t));
  EXPECT_TRUE(a.take("x", t));
  EXPECT_FALSE(a.take("x", t, &wait));
  EXPECT_EQ(wait, 10);
  EXPECT_TRUE(a.take("y", t));  // another key has its own
  EXPECT_TRUE(a.take("y", t));
  EXPECT_TRUE(a.take("x", t + 10s));
  // A full table refuses new keys while every key in it is still limited.
  EXPECT_TRUE(a.take("z", t + 10s));
  EXPECT_FALSE(a.take("w", t + 10s));
  EXPECT_TRUE(a.take("w", t + 1h));  // once they refilled, they are forgotten
}

TEST(SessionCookie, ReadAndWritten) {
  const std::string s(32, 'a');
  EXPECT_EQ(session_secret("x=1; bc_session=" + s + "; y=2"), s);
  EXPECT_EQ(session_secret("bc_session=" + s), s);
  EXPECT_EQ(session_secret("bc_session=xyz"), "");  // malformed: none
  EXPECT_EQ(session_secret("bc_session=" + std::string(32, 'A')), "");
  EXPECT_EQ(session_secret("other_bc_session=" + s), "");
  const std::string c = session_cookie(s, true);
  EXPECT_NE(c.find("HttpOnly"), std::string::npos);
  EXPECT_NE(c.find("SameSite=Lax"), std::string::npos);
  EXPECT_NE(c.find("Secure"), std::string::npos);
  EXPECT_NE(session_cookie("", false).find("Max-Age=0"), std::string::npos);
}

class AccountsTest : public ::testing::Test {
 protected:
  std::unique_ptr<store::Store> store_ = store::Store::open_memory();
  FakeTime time_;
  Accounts accounts_{*store_, PasswordCost::Minimal, time_};
  Caller caller(const std::string& secret = "", const std::string& address = "10.0.0.1") {
    return Caller{secret, address, "test"};
  }
  static std::string body(const std::string& name, const std::string& password) {
    return json{{"name", name}, {"password", password}}.dump();
  }
};

TEST_F(AccountsTest, AGuestClaimsANameAndKeepsItsPlayer) {
  auto g = accounts_.guest(caller());
  ASSERT_EQ(g.status, 200);
  ASSERT_TRUE(g.cookie);
  const std::string id = json::parse(g.body)["player"]["id"];
  auto s = accounts_.signup(caller(*g.cookie), body("Ann", "password1"));
  ASSERT_EQ(s.status, 200) << s.body;
  EXPECT_EQ(json::parse(s.body)["player"]["id"], id);
  EXPECT_EQ(json::parse(s.body)["player"]["name"], "Ann");
  // A new secret; the guest's ends.
  ASSERT_TRUE(s.cookie);
  EXPECT_NE(*s.cookie, *g.cookie);
  EXPECT_FALSE(accounts_.identify(*g.cookie));
  auto who = accounts_.identify(*s.cookie);
  ASSERT_TRUE(who);
  EXPECT_EQ(who->id, id);
  EXPECT_EQ(who->name, "Ann");
}

TEST_F(AccountsTest, NamesAreUniqueWithoutCase) {
  ASSERT_EQ(accounts_.signup(caller(), body("Ann", "password1")).status, 200);
  auto again = accounts_.signup(caller("", "10.0.0.2"), body("aNN", "password2"));
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(json::parse(again.body)["error"], "name_taken");
}

TEST_F(AccountsTest, AWrongPasswordAndAnUnknownNameGetTheSameAnswer) {
  ASSERT_EQ(accounts_.signup(caller(), body("Ann", "password1")).status, 200);
  auto wrong = accounts_.login(caller("", "10.0.0.2"), body("Ann", "password2"));
  auto unknown = accounts_.login(caller("", "10.0.0.3"), body("Nobody", "password2"));
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.status, unknown.status);
  EXPECT_EQ(wrong.body, unknown.body);
  EXPECT_FALSE(wrong.cookie);
  auto right = accounts_.login(caller("", "10.0.0.4"), body("ann", "password1"));
  EXPECT_EQ(right.status, 200);
  EXPECT_EQ(json::parse(right.body)["player"]["name"], "Ann");
}

TEST_F(AccountsTest, SignInIsLimitedByNameFromEveryAddressAndByAddress) {
  int limited = -1;
  for (int i = 0; i < 12 && limited < 0; ++i) {
    auto a = accounts_.login(caller("", "10.1.0." + std::to_string(i)), body("Nobody", "xxxxxxxx"));
    if (a.status == 429) limited = i;
  }
  EXPECT_EQ(limited, 10);  // ten tries of one name, whatever their addresses
  limited = -1;
  for (int i = 0; i < 12 && limited < 0; ++i) {
    auto a = accounts_.login(caller("", "10.2.0.1"), body("Name" + std::to_string(i), "xxxxxxxx"));
    if (a.status == 429) {
      limited = i;
      EXPECT_GT(a.retry_after, 0);
    }
  }
  EXPECT_EQ(limited, 10);  // ten tries from one address, whatever the names
}

TEST_F(AccountsTest, APlantedSessionNeverBecomesTheAccounts) {
  ASSERT_EQ(accounts_.signup(caller(), body("Ann", "password1")).status, 200);
  // An attacker's own guest session, planted in the victim's browser.
  auto planted = accounts_.guest(caller("", "10.9.9.9"));
  ASSERT_TRUE(planted.cookie);
  auto in = accounts_.login(caller(*planted.cookie), body("Ann", "password1"));
  ASSERT_EQ(in.status, 200);
  ASSERT_TRUE(in.cookie);
  EXPECT_NE(*in.cookie, *planted.cookie);
  EXPECT_FALSE(accounts_.identify(*planted.cookie));  // the attacker holds nothing of Ann's
}

TEST_F(AccountsTest, SignOutEverywhereEndsEverySession) {
  auto first = accounts_.signup(caller(), body("Ann", "password1"));
  auto second = accounts_.login(caller(), body("Ann", "password1"));
  ASSERT_TRUE(first.cookie && second.cookie);
  auto list = json::parse(accounts_.sessions(caller(*second.cookie)).body)["sessions"];
  ASSERT_EQ(list.size(), 2u);
  auto out = accounts_.logout_all(caller(*second.cookie));
  EXPECT_EQ(out.status, 200);
  EXPECT_EQ(out.cookie, std::optional<std::string>(""));
  EXPECT_FALSE(accounts_.identify(*first.cookie));
  EXPECT_FALSE(accounts_.identify(*second.cookie));
  EXPECT_EQ(accounts_.sessions(caller(*second.cookie)).status, 401);
}

TEST_F(AccountsTest, AnAccountMustSignOutBeforeClaimingAnotherName) {
  auto in = accounts_.signup(caller(), body("Ann", "password1"));
  auto again = accounts_.signup(caller(*in.cookie), body("Bea", "password1"));
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(json::parse(again.body)["error"], "signed_in");
}

TEST_F(AccountsTest, BadRequestsAreRefusedInWords) {
  EXPECT_EQ(accounts_.signup(caller(), "not json").status, 400);
  EXPECT_EQ(accounts_.signup(caller(), R"({"name":1,"password":"x"})").status, 400);
  EXPECT_EQ(json::parse(accounts_.signup(caller(), body("A", "password1")).body)["error"],
            "bad_name");
  EXPECT_EQ(json::parse(accounts_.signup(caller(), body("Ann", "short")).body)["error"],
            "bad_password");
  EXPECT_EQ(accounts_.login(caller(), body(std::string(200, 'a'), "password1")).status, 401);
}

TEST_F(AccountsTest, AProfileShowsRatingsHistoryAndGames) {
  auto ann = accounts_.signup(caller(), body("Ann", "password1"));
  const std::string ann_id = json::parse(ann.body)["player"]["id"];
  auto bob = accounts_.signup(caller("", "10.0.0.2"), body("Bob", "password1"));
  const std::string bob_id = json::parse(bob.body)["player"]["id"];
  store::RatingRow r{ann_id, "bomb:blitz", 1662, 290, 0.09, time_.unix_ms(), 1, 0, 0};
  store::RatedGameRow g{ann_id, "K7QF2M", 1,    "bomb:blitz", time_.unix_ms(), 0, bob_id,
                        2,      1500,     1662, 290};
  store_->submit({store::PutRating{r}, store::PutRatedGame{g}});
  store_->flush();
  auto p = profile_answer(*store_, "ann", time_.unix_ms());
  ASSERT_EQ(p.status, 200);
  json j = json::parse(p.body);
  EXPECT_EQ(j["name"], "Ann");
  EXPECT_EQ(j["counts"]["wins"], 1);
  EXPECT_EQ(j["ratings"][0]["rating"], 1662);
  EXPECT_EQ(j["ratings"][0]["provisional"], true);
  EXPECT_EQ(j["history"][0]["points"][0][1], 1662);
  EXPECT_EQ(j["games"][0]["opponent"], "Bob");
  EXPECT_EQ(j["games"][0]["result"], "won");
  EXPECT_EQ(profile_answer(*store_, "nobody", time_.unix_ms()).status, 404);
  // On the leaderboard, apart: one game leaves a rating provisional.
  json board = json::parse(leaderboard_answer(*store_, "bomb:blitz", 50, time_.unix_ms()).body);
  EXPECT_TRUE(board["players"].empty());
  EXPECT_EQ(board["provisional"][0]["name"], "Ann");
  EXPECT_EQ(leaderboard_answer(*store_, "chess:blitz", 50, time_.unix_ms()).status, 404);
}

}  // namespace
}  // namespace bc::server

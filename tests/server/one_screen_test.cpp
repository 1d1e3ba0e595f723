// One-screen rooms (docs/PROTOCOL.md, "One screen"): one connection holds both seats and plays for
// the side to move; and every non-default option in words ("Options in words"). Socket-free: the
// room harness of room_harness.hpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "room_harness.hpp"
#include "server/room/notation.hpp"
#include "server/room/persist.hpp"
#include "server/room/room.hpp"
#include "server/wire/stored.hpp"

namespace bc::server {
namespace {

using namespace bc::server::room_harness;
using json = nlohmann::json;

json create_msg(const std::string& variant, json extra = json::object()) {
  json m = {{"type", "create"}, {"variant", variant}};
  m.update(extra);
  return m;
}

class OneScreenTest : public RoomTest {
 protected:
  // A (the creator) takes both seats of a new room; returns its `joined`.
  json one_screen(const std::string& variant = "bomb", json extra = json::object()) {
    extra["seat"] = "both";
    return create("both", create_msg(variant, std::move(extra)));
  }
  Outcome act_first(MemberId m) { return act(m, state()["legal"][0]); }
};

TEST_F(OneScreenTest, CreateTakesBothSeatsUnderOneTokenAndTheGameStarts) {
  json j = one_screen("bomb", {{"names", {{"fire", "Ann"}, {"water", "Bob"}}}});
  EXPECT_EQ(j["seat"], "fire") << "the first side, as for a player";
  EXPECT_EQ(j["one_screen"], true);
  EXPECT_EQ(j["token"].get<std::string>().size(), 32u);
  json s = last_of(A, "state");
  EXPECT_EQ(s["status"], "playing") << "both seats are taken: the game starts at once";
  EXPECT_EQ(s["one_screen"], true);
  EXPECT_EQ(s["players"]["fire"]["name"], "Ann");
  EXPECT_EQ(s["players"]["water"]["name"], "Bob");
  EXPECT_EQ(s["players"]["fire"]["connected"], true);
  EXPECT_EQ(s["players"]["water"]["connected"], true);
  EXPECT_EQ(s["spectators"], 0) << "the creator is a player, not a spectator";
}

TEST_F(OneScreenTest, WithoutNamesBothSeatsCarryTheCreatorsName) {
  one_screen("classic");
  json s = state();
  EXPECT_EQ(s["players"]["black"]["name"], "Ann");
  EXPECT_EQ(s["players"]["white"]["name"], "Ann");
}

TEST_F(OneScreenTest, StatesOfOtherRoomsDoNotMentionIt) {
  create("fire");
  EXPECT_FALSE(state().contains("one_screen"));
  EXPECT_FALSE(last_of(A, "joined").contains("one_screen"));
}

TEST_F(OneScreenTest, EveryActPlaysForTheSideToMove) {
  one_screen();
  for (int i = 0; i < 6; ++i) {
    const std::string turn = state()["turn"];
    Outcome o = act_first(A);
    ASSERT_TRUE(o.action_accepted) << "turn " << i << " for " << turn;
    EXPECT_EQ(state()["last"]["side"], turn);
  }
  EXPECT_EQ(state()["version"], 6);
}

TEST_F(OneScreenTest, AWholeGameOfEveryVariantFromOneConnection) {
  for (const std::string variant : {"bomb", "classic", "triple_king", "kaboom"}) {
    SCOPED_TRACE(variant);
    one_screen(variant);
    std::mt19937 rng(11);
    int acts = 0;
    while (state()["status"] == "playing" && acts < 3000) {
      const json legal = state()["legal"];
      ASSERT_FALSE(legal.empty());
      ASSERT_TRUE(act(A, legal[rng() % legal.size()]).action_accepted);
      ++acts;
    }
    json s = state();
    EXPECT_EQ(s["status"], "finished") << "after " << acts << " actions";
    EXPECT_FALSE(s["result"].is_null());
    EXPECT_NE(s["result"]["reason"], "resigned");
  }
}

TEST_F(OneScreenTest, AStrangerCanOnlyWatch) {
  one_screen();
  EXPECT_EQ(send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}}).refused,
            ErrorCode::SeatTaken);
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}});
  EXPECT_EQ(last_of(C, "joined")["seat"], "spectator");
  EXPECT_TRUE(last_of(C, "joined")["token"].is_null());
  EXPECT_EQ(act_first(C).refused, ErrorCode::NotAPlayer);
  ASSERT_TRUE(act_first(A).action_accepted);
  EXPECT_EQ(last_of(C, "state")["version"], 1) << "the spectator sees the moves";
  EXPECT_EQ(last_of(C, "state")["one_screen"], true);
}

TEST_F(OneScreenTest, TheTokenTakesBackBothSeatsAfterAReload) {
  const std::string token = one_screen()["token"];
  ASSERT_TRUE(act_first(A).action_accepted);
  deliver(A, room_->disconnect(A));
  json gone = state();
  EXPECT_EQ(gone["players"]["fire"]["connected"], false);
  EXPECT_EQ(gone["players"]["water"]["connected"], false);

  send(D, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"token", token}});
  json j = last_of(D, "joined");
  EXPECT_EQ(j["one_screen"], true);
  EXPECT_EQ(j["token"], token);
  json back = last_of(D, "state");
  EXPECT_EQ(back["players"]["fire"]["connected"], true);
  EXPECT_EQ(back["players"]["water"]["connected"], true);
  EXPECT_EQ(back["turn"], "water");
  ASSERT_TRUE(act_first(D).action_accepted) << "plays water";
  ASSERT_TRUE(act_first(D).action_accepted) << "and fire";
}

TEST_F(OneScreenTest, ASecondTabWithTheTokenTakesBothSeatsOver) {
  const std::string token = one_screen()["token"];
  send(D, {{"type", "join"}, {"room", "K7QF2M"}, {"token", token}});
  EXPECT_EQ(last_of(A, "notice")["code"], "replaced");
  EXPECT_FALSE(room_->is_member(A));
  EXPECT_TRUE(act_first(A).refused.has_value()) << "the replaced connection plays no more";
  EXPECT_EQ(state()["version"], 0);
  ASSERT_TRUE(act_first(D).action_accepted);
  ASSERT_TRUE(act_first(D).action_accepted);
}

TEST_F(OneScreenTest, LeaveNeverFreesTheSeats) {
  one_screen();
  send(A, {{"type", "leave"}});
  EXPECT_FALSE(room_->is_member(A));
  json s = state();
  EXPECT_EQ(s["players"]["fire"]["name"], "Ann");
  EXPECT_EQ(s["players"]["water"]["name"], "Ann");
  EXPECT_EQ(send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "fire"}}).refused,
            ErrorCode::SeatTaken);
}

TEST_F(OneScreenTest, ResignIsTheSideToMoves) {
  one_screen();
  ASSERT_TRUE(act_first(A).action_accepted);  // water to move
  send(A, {{"type", "resign"}});
  json s = state();
  EXPECT_EQ(s["status"], "finished");
  EXPECT_EQ(s["result"]["winner"], "fire");
  EXPECT_EQ(s["result"]["reason"], "resigned");
}

TEST_F(OneScreenTest, ADrawOfferIsAnsweredForTheOtherSide) {
  one_screen();
  send(A, {{"type", "offer_draw"}});
  EXPECT_EQ(last_of(A, "draw_offer")["from"], "fire") << "the side to move offers";
  send(A, {{"type", "answer_draw"}, {"accept", false}});
  EXPECT_EQ(state()["status"], "playing");
  ASSERT_TRUE(act_first(A).action_accepted);
  send(A, {{"type", "offer_draw"}});
  EXPECT_EQ(last_of(A, "draw_offer")["from"], "water");
  send(A, {{"type", "answer_draw"}, {"accept", true}});
  json s = state();
  EXPECT_EQ(s["status"], "finished");
  EXPECT_TRUE(s["result"]["winner"].is_null());
  EXPECT_EQ(s["result"]["reason"], "draw_agreed");
}

TEST_F(OneScreenTest, ATakebackUndoesTheLastTurnAtOnce) {
  one_screen();
  ASSERT_TRUE(act_first(A).action_accepted);  // fire, v1
  const json after_fire = state();
  ASSERT_TRUE(act_first(A).action_accepted);  // water, v2
  send(A, {{"type", "takeback"}, {"id", 5}});
  EXPECT_EQ(last_of(A, "ok")["id"], 5);
  json s = state();
  EXPECT_EQ(s["version"], 3) << "a takeback has a version of its own";
  EXPECT_EQ(s["turn"], "water") << "water's turn was undone";
  EXPECT_EQ(s["board"], after_fire["board"]);
  EXPECT_TRUE(s["takeback_offer"].is_null()) << "no question to anyone";
}

TEST_F(OneScreenTest, ATakebackInTheMiddleOfACaptureUndoesTheTurnUnderWay) {
  const json position = {
      {"pieces",
       {{{"at", {2, 2}}, {"side", "fire"}, {"kind", "normal"}, {"rank", "man"}},
        {{"at", {3, 3}}, {"side", "water"}, {"kind", "normal"}, {"rank", "man"}},
        {{"at", {3, 5}}, {"side", "water"}, {"kind", "normal"}, {"rank", "man"}},
        {{"at", {7, 7}}, {"side", "water"}, {"kind", "normal"}, {"rank", "man"}}}},
      {"turn", "fire"}};
  one_screen("bomb", {{"position", position}});
  const json start = state();
  ASSERT_TRUE(act(A, {{"kind", "jump"}, {"from", {2, 2}}, {"to", {4, 4}}}).action_accepted);
  ASSERT_EQ(state()["turn"], "fire") << "the capture may go on (B5)";
  send(A, {{"type", "takeback"}});
  json s = state();
  EXPECT_EQ(s["board"], start["board"]);
  EXPECT_EQ(s["turn"], "fire");
}

TEST_F(OneScreenTest, NothingToTakeBackBeforeTheFirstTurn) {
  one_screen();
  EXPECT_EQ(send(A, {{"type", "takeback"}}).refused, ErrorCode::NoTakeback);
}

TEST_F(OneScreenTest, ARematchStartsAtOnceWithTheNamesSwapped) {
  one_screen("kaboom", {{"names", {{"x", "Ann"}, {"o", "Bob"}}}});
  send(A, {{"type", "resign"}});  // x resigns
  clear();
  send(A, {{"type", "rematch"}});
  ASSERT_EQ(of(A, "joined").size(), 1u) << "one joined for the one connection";
  EXPECT_EQ(last_of(A, "joined")["one_screen"], true);
  json s = state();
  EXPECT_EQ(s["status"], "playing");
  EXPECT_EQ(s["game"], 2);
  EXPECT_EQ(s["version"], 0);
  EXPECT_EQ(s["players"]["x"]["name"], "Bob");
  EXPECT_EQ(s["players"]["o"]["name"], "Ann");
  EXPECT_EQ(s["one_screen"], true);
  ASSERT_TRUE(act_first(A).action_accepted);
}

TEST_F(OneScreenTest, AClaimIsRefused) {
  one_screen("bomb", {{"clock", {{"base", 60}, {"increment", 0}}}});
  EXPECT_EQ(send(A, {{"type", "claim"}}).refused, ErrorCode::CannotClaim);
}

TEST_F(OneScreenTest, AComputerOpponentIsABadMessage) {
  make();
  auto parsed = parse_client_message(
      create_msg("bomb", {{"seat", "both"}, {"opponent", {{"ai", 3}}}}).dump());
  auto r = resolve_create(std::get<CreateMsg>(std::get<ClientMessage>(parsed).body));
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_EQ(std::get<Error>(r).code, ErrorCode::BadMessage);
}

TEST_F(OneScreenTest, JoinCannotAskForBothSeats) {
  create("fire");
  EXPECT_EQ(send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "both"}}).refused,
            ErrorCode::BadMessage);
  EXPECT_FALSE(room_->is_member(B));
}

TEST_F(OneScreenTest, NamesMustBeTheVariantsSidesAndOnlyWithBoth) {
  auto refused = [](const json& msg) -> std::optional<ErrorCode> {
    auto parsed = parse_client_message(msg.dump());
    if (auto* e = std::get_if<ParseError>(&parsed)) return e->error.code;
    auto r = resolve_create(std::get<CreateMsg>(std::get<ClientMessage>(parsed).body));
    if (auto* e = std::get_if<Error>(&r)) return e->code;
    return std::nullopt;
  };
  EXPECT_EQ(refused(create_msg("bomb", {{"seat", "both"}, {"names", {{"black", "Ann"}}}})),
            ErrorCode::BadMessage);
  EXPECT_EQ(refused(create_msg("bomb", {{"seat", "fire"}, {"names", {{"fire", "Ann"}}}})),
            ErrorCode::BadMessage);
  EXPECT_EQ(refused(create_msg("bomb", {{"seat", "both"}, {"names", "Ann"}})),
            ErrorCode::BadMessage);
  EXPECT_EQ(refused(create_msg("bomb", {{"seat", "both"}, {"names", {{"fire", 3}}}})),
            ErrorCode::BadMessage);
  EXPECT_EQ(refused(create_msg("bomb", {{"seat", "both"}, {"names", {{"fire", "Ann"}}}})),
            std::nullopt);
}

TEST_F(OneScreenTest, NamesAreCleanedLikeAnyName) {
  one_screen("bomb", {{"names", {{"fire", "  Ann\x01  "}, {"water", std::string(80, 'w')}}}});
  json s = state();
  EXPECT_EQ(s["players"]["fire"]["name"], "Ann");
  EXPECT_EQ(s["players"]["water"]["name"].get<std::string>().size(), 32u);
}

TEST_F(OneScreenTest, TheRecordSaysSoInEveryForm) {
  one_screen();
  ASSERT_TRUE(act_first(A).action_accepted);
  json record = json::parse(room_->record_text());
  EXPECT_EQ(record["one_screen"], true);
  EXPECT_NE(game_notation(*room_).find("[Mode \"one screen\"]"), std::string::npos);
  EXPECT_EQ(room_->summary().one_screen, true);
  EXPECT_EQ(json::parse(rooms_json({room_->summary()}))[0]["one_screen"], true);
  // A record read back (a restart, bombcheckers replay) keeps it.
  auto parsed = parse_record_json(record.dump());
  ASSERT_TRUE(std::holds_alternative<GameRecord>(parsed));
  auto back = restore_room("K7QF2M", std::get<GameRecord>(parsed), Limits{});
  ASSERT_TRUE(back.room) << back.error->message;
  EXPECT_TRUE(back.room->one_screen());
  EXPECT_EQ(json::parse(back.room->state_text())["one_screen"], true);

  one_screen("kaboom");
  EXPECT_NE(game_notation(*room_).find("\nMode: one screen\n"), std::string::npos);
  create("fire");
  EXPECT_EQ(game_notation(*room_).find("Mode"), std::string::npos);
  EXPECT_EQ(json::parse(room_->record_text())["one_screen"], false);
}

// ---------------------------------------------------------------------------------------------
// Options in words

TEST(OptionsText, DefaultOptionsSayNothing) {
  for (VariantId v :
       {VariantId::Bomb, VariantId::Classic, VariantId::TripleKing, VariantId::Kaboom}) {
    EXPECT_EQ(options_text(v, default_options(v)), "") << variant_key(v);
  }
}

TEST(OptionsText, KaboomSaysEveryNonDefaultOptionInWelcomesOrder) {
  Options o = default_options(VariantId::Kaboom);
  o.width = 9;
  o.height = 7;
  o.connect = 5;
  o.misere = true;
  EXPECT_EQ(options_text(VariantId::Kaboom, o), "9x7 board, connect 5, misère");
  o = default_options(VariantId::Kaboom);
  o.bombs = 0;
  o.superbomb = true;
  EXPECT_EQ(options_text(VariantId::Kaboom, o), "no bombs, super-bomb");
  o.bombs = 1 + default_options(VariantId::Kaboom).bombs;
  EXPECT_EQ(options_text(VariantId::Kaboom, o),
            std::to_string(o.bombs) + " bombs each, super-bomb");
  o = default_options(VariantId::Kaboom);
  o.height = 5;
  EXPECT_EQ(options_text(VariantId::Kaboom, o), "7x5 board") << "either side of the board";
}

TEST(OptionsText, CheckersSayTheDrawRule) {
  Options o = default_options(VariantId::Classic);
  o.draw_turns = 40;
  EXPECT_EQ(options_text(VariantId::Classic, o), "draw after 40 quiet turns");
  o.draw_turns = 0;
  EXPECT_EQ(options_text(VariantId::Bomb, o), "no draw rule");
}

TEST(OptionsText, AGameUnderEarlierRulesSaysSo) {
  Options o = default_options(VariantId::Bomb);
  o.rules = 1;
  EXPECT_EQ(options_text(VariantId::Bomb, o), "rules of revision 1");
}

TEST_F(RoomTest, OptionsText_InStateRecordAndRoomListOnlyWhenNotDefault) {
  create("x", create_msg("kaboom", {{"options", {{"connect", 3}, {"misere", true}}}}));
  EXPECT_EQ(state()["options_text"], "connect 3, misère");
  EXPECT_EQ(json::parse(room_->record_text())["options_text"], "connect 3, misère");
  json listed = json::parse(rooms_json({room_->summary()}))[0];
  EXPECT_EQ(listed["options_text"], "connect 3, misère");
  EXPECT_EQ(listed["options"]["connect"], 3);
  EXPECT_EQ(listed["one_screen"], false);

  create("fire");
  EXPECT_FALSE(state().contains("options_text")) << "a default game's states are unchanged";
  EXPECT_EQ(json::parse(room_->record_text())["options_text"], "");
  EXPECT_EQ(json::parse(rooms_json({room_->summary()}))[0]["options_text"], "");
}

}  // namespace
}  // namespace bc::server

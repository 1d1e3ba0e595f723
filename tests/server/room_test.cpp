// Room logic without a network: client messages in, messages out (the harness is
// room_harness.hpp).
#include "server/room/room.hpp"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "room_harness.hpp"
#include "server/room/notation.hpp"
#include "server/room/persist.hpp"
#include "server/wire/stored.hpp"

namespace bc::server {
namespace {

using namespace bc::server::room_harness;
using json = nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Seats

TEST_F(RoomTest, Create_CreatorGetsJoinedWithTokenThenState) {
  json j = create("water");
  EXPECT_EQ(j["room"], "K7QF2M");
  EXPECT_EQ(j["seat"], "water");
  EXPECT_EQ(j["token"].get<std::string>().size(), 32u);
  EXPECT_EQ(j["url"], "/r/K7QF2M");
  EXPECT_EQ(j["id"], "c1");
  json s = last_of(A, "state");
  EXPECT_EQ(s["status"], "waiting");
  EXPECT_EQ(s["version"], 0);
  EXPECT_TRUE(s["legal"].empty()) << "a waiting room offers no actions";
  EXPECT_TRUE(s["players"]["fire"].is_null());
  EXPECT_EQ(s["players"]["water"]["name"], "Ann");
  EXPECT_EQ(s["players"]["water"]["connected"], true);
}

TEST_F(RoomTest, Create_RandomSeatPicksASide) {
  std::set<std::string> seen;
  for (int i = 0; i < 40; ++i) {
    make();
    Room r("ABCDEF", setup_of({{"type", "create"}, {"variant", "bomb"}}), {}, random_token,
           static_cast<std::uint64_t>(i));
    Outcome o = r.seat_creator(A, "Ann", SeatChoice{SeatKind::Random, Side::First}, {});
    seen.insert(json::parse(*o.messages[0].text)["seat"]);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"fire", "water"}));
}

TEST_F(RoomTest, Create_AsSpectatorLeavesBothSeatsFree) {
  json j = create("spectator");
  EXPECT_EQ(j["seat"], "spectator");
  EXPECT_TRUE(j["token"].is_null());
  EXPECT_EQ(state()["spectators"], 1);
}

TEST_F(RoomTest, Join_SecondPlayerStartsTheGame) {
  create("fire");
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}, {"name", "Bob"}});
  EXPECT_EQ(last_of(B, "joined")["seat"], "water");
  json s = last_of(A, "state");
  EXPECT_EQ(s["status"], "playing");
  EXPECT_EQ(s["players"]["water"]["name"], "Bob");
  EXPECT_FALSE(s["legal"].empty());
  EXPECT_EQ(last_of(B, "state"), s);
}

TEST_F(RoomTest, Join_RoomIdIsCaseInsensitive) {
  create("fire");
  send(B, {{"type", "join"}, {"room", "k7qf2m"}, {"seat", "any"}});
  EXPECT_EQ(last_of(B, "joined")["seat"], "water");
}

TEST_F(RoomTest, Join_TakenSeatIsRefused) {
  create("fire");
  const std::string before = room_->state_text();
  Outcome o = send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "fire"}, {"id", 9}});
  EXPECT_EQ(o.refused, ErrorCode::SeatTaken);
  EXPECT_EQ(last_of(B, "error")["id"], 9);
  EXPECT_EQ(room_->state_text(), before);
  EXPECT_FALSE(room_->is_member(B));
}

TEST_F(RoomTest, Join_AnyTakesTheFreeSideElseSpectates) {
  create("water");
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}});
  EXPECT_EQ(last_of(B, "joined")["seat"], "fire");
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}});
  EXPECT_EQ(last_of(C, "joined")["seat"], "spectator");
  EXPECT_TRUE(last_of(C, "joined")["token"].is_null());
  EXPECT_EQ(room_->summary().spectators, 1);
  deliver(0, room_->refresh_spectators());  // states carry the count a moment later
  EXPECT_EQ(state()["spectators"], 1);
}

TEST_F(RoomTest, Join_UnknownSeatNameIsABadMessage) {
  create("fire");
  EXPECT_EQ(send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "black"}}).refused,
            ErrorCode::BadMessage);
}

TEST_F(RoomTest, Resume_TokenTakesTheSeatBackAfterADroppedConnection) {
  const std::string token = create("fire")["token"];
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}});
  play_first();
  deliver(A, room_->disconnect(A));
  json s = last_of(B, "state");
  EXPECT_EQ(s["players"]["fire"]["connected"], false);
  EXPECT_EQ(s["players"]["fire"]["name"], "Ann");

  send(D, {{"type", "join"}, {"room", "K7QF2M"}, {"token", token}, {"seat", "spectator"}});
  json j = last_of(D, "joined");
  EXPECT_EQ(j["seat"], "fire");
  EXPECT_EQ(j["token"], token);
  EXPECT_EQ(last_of(B, "state")["players"]["fire"]["connected"], true);
  EXPECT_EQ(last_of(D, "state")["version"], 1) << "the game goes on where it was";
}

TEST_F(RoomTest, Resume_WrongTokenIsBadTokenAndChangesNothing) {
  create("fire");
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}});
  deliver(A, room_->disconnect(A));
  const std::string before = room_->state_text();
  Outcome o = send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"token", std::string(32, '0')}});
  EXPECT_EQ(o.refused, ErrorCode::BadToken);
  EXPECT_EQ(room_->state_text(), before);
  EXPECT_FALSE(room_->is_member(C));
  // A token from another seat's length but wrong content, or empty: refused the same way.
  EXPECT_EQ(send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"token", ""}}).refused,
            ErrorCode::BadToken);
}

TEST_F(RoomTest, Resume_SeatTheftWhileConnectedIsRefused) {
  create("fire");
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}});
  const std::string b_token = last_of(B, "joined")["token"];
  // C guesses: nothing. And cannot take a seat by name either.
  EXPECT_EQ(send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"token", b_token + "0"}}).refused,
            ErrorCode::BadToken);
  EXPECT_EQ(send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}}).refused,
            ErrorCode::SeatTaken);
  EXPECT_EQ(room_->seat_of(B), Side::Second);
}

TEST_F(RoomTest, Resume_SecondLiveConnectionReplacesTheFirst) {
  const std::string token = create("fire")["token"];
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}});
  clear();
  Outcome o = send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"token", token}});
  EXPECT_FALSE(o.refused);
  json notice = last_of(A, "notice");
  EXPECT_EQ(notice["code"], "replaced");
  EXPECT_FALSE(room_->is_member(A));
  EXPECT_EQ(room_->seat_of(C), Side::First);
  EXPECT_TRUE(of(A, "state").empty()) << "the replaced connection is detached before the state";
  EXPECT_EQ(last_of(C, "state")["players"]["fire"]["connected"], true);
  EXPECT_TRUE(of(B, "state").empty()) << "the seat stayed connected: nothing new for the others";
  // The old connection is no longer in the room.
  EXPECT_EQ(send(A, {{"type", "resign"}}).refused, ErrorCode::UnknownRoom);
}

TEST_F(RoomTest, Leave_BeforeTheStartFreesTheSeat) {
  create("fire");
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}});
  Outcome o = send(B, {{"type", "leave"}, {"id", "l"}});
  EXPECT_EQ(o.sender, Membership::Left);
  EXPECT_EQ(last_of(B, "ok")["request"], "leave");
  json s = last_of(A, "state");
  EXPECT_TRUE(s["players"]["water"].is_null());
  EXPECT_EQ(s["status"], "waiting");
}

TEST_F(RoomTest, Leave_AfterTheStartKeepsTheSeat) {
  two_players();
  play_first();
  send(B, {{"type", "leave"}});
  json s = last_of(A, "state");
  EXPECT_EQ(s["players"]["water"]["name"], "Bob");
  EXPECT_EQ(s["players"]["water"]["connected"], false);
  EXPECT_EQ(s["status"], "playing");
}

// ---------------------------------------------------------------------------------------------
// The check order of `act`

TEST_F(RoomTest, Act_FromANonMemberIsUnknownRoom) {
  two_players();
  EXPECT_EQ(send(C, {{"type", "act"}, {"action", {{"kind", "end_turn"}}}, {"version", 0}}).refused,
            ErrorCode::UnknownRoom);
}

TEST_F(RoomTest, Act_CheckOrder_PlayerBeforeEverythingElse) {
  two_players();
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  // A spectator sending a stale, illegal action out of turn hears only that it is not a player.
  EXPECT_EQ(send(C, {{"type", "act"}, {"action", {{"kind", "end_turn"}}}, {"version", 99}}).refused,
            ErrorCode::NotAPlayer);
}

TEST_F(RoomTest, Act_CheckOrder_NotStartedWhileASeatIsEmpty) {
  create("fire");
  json s = state();
  EXPECT_EQ(send(A, {{"type", "act"},
                     {"action", {{"kind", "step"}, {"from", {0, 2}}, {"to", {1, 3}}}},
                     {"version", 0}})
                .refused,
            ErrorCode::NotStarted);
}

TEST_F(RoomTest, Act_CheckOrder_TurnBeforeVersionBeforeLegality) {
  two_players();
  json s = state();
  // Water (B) is not to move: not_your_turn even with a stale version and an illegal action.
  EXPECT_EQ(send(B, {{"type", "act"}, {"action", {{"kind", "end_turn"}}}, {"version", 5}}).refused,
            ErrorCode::NotYourTurn);
  // Fire, stale version and illegal action: stale_version.
  EXPECT_EQ(send(A, {{"type", "act"}, {"action", {{"kind", "end_turn"}}}, {"version", 5}}).refused,
            ErrorCode::StaleVersion);
  // Fire, right version, illegal action.
  EXPECT_EQ(send(A, {{"type", "act"}, {"action", {{"kind", "end_turn"}}}, {"version", 0}}).refused,
            ErrorCode::IllegalAction);
  EXPECT_EQ(send(A, {{"type", "act"}, {"action", {{"kind", "fly"}}}, {"version", 0}}).refused,
            ErrorCode::IllegalAction);
  EXPECT_EQ(
      send(A, {{"type", "act"}, {"action", {{"kind", "drop"}, {"column", 0}}}, {"version", 0}})
          .refused,
      ErrorCode::IllegalAction);
  EXPECT_EQ(state(), s) << "refusals change nothing";
}

TEST_F(RoomTest, Act_CheckOrder_GameOverBeforeTurn) {
  two_players();
  send(A, {{"type", "resign"}});
  EXPECT_EQ(send(B, {{"type", "act"}, {"action", {{"kind", "end_turn"}}}, {"version", 0}}).refused,
            ErrorCode::GameOver);
  EXPECT_EQ(send(A, {{"type", "act"}, {"action", {{"kind", "end_turn"}}}, {"version", 0}}).refused,
            ErrorCode::GameOver);
}

TEST_F(RoomTest, Act_AcceptedActionReachesEveryMemberWithTheNextVersion) {
  two_players();
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  clear();
  json s = state();
  Outcome o = send(A, {{"type", "act"}, {"action", s["legal"][0]}, {"version", 0}, {"id", 5}});
  EXPECT_TRUE(o.action_accepted);
  EXPECT_EQ(last_of(A, "ok")["id"], 5);
  for (MemberId m : {A, B, C}) {
    json n = last_of(m, "state");
    EXPECT_EQ(n["version"], 1);
    EXPECT_EQ(n["turn"], "water");
    EXPECT_EQ(n["last"]["side"], "fire");
    EXPECT_EQ(n["last"]["actions"][0], s["legal"][0]);
    EXPECT_EQ(n["moves"], 1);
  }
  EXPECT_TRUE(of(B, "ok").empty()) << "ok goes to the sender only";
  ASSERT_EQ(room_->log().size(), 1u);
  EXPECT_EQ(room_->log()[0].version, 1);
  EXPECT_EQ(room_->log()[0].side, Side::First);
}

TEST_F(RoomTest, Act_NoOkWithoutAnId) {
  two_players();
  json s = state();
  send(A, {{"type", "act"}, {"action", s["legal"][0]}, {"version", 0}});
  EXPECT_TRUE(of(A, "ok").empty());
}

// A multi-jump: `last` holds the turn so far while it goes on, then the whole turn.
TEST_F(RoomTest, Last_AccumulatesEveryHopOfTheTurn) {
  json pos = {{"turn", "fire"},
              {"pieces",
               {{{"at", {2, 2}}, {"side", "fire"}},
                {{"at", {0, 0}}, {"side", "fire"}},
                {{"at", {3, 3}}, {"side", "water"}},
                {{"at", {5, 5}}, {"side", "water"}},
                {{"at", {1, 7}}, {"side", "water"}},
                {{"at", {7, 7}}, {"side", "water"}}}}};
  two_players({{"type", "create"}, {"variant", "bomb"}, {"position", pos}});
  json jump1 = {{"kind", "jump"}, {"from", {2, 2}}, {"to", {4, 4}}};
  ASSERT_TRUE(send(A, {{"type", "act"}, {"action", jump1}, {"version", 0}}).action_accepted);
  json s = state();
  EXPECT_EQ(s["turn"], "fire");
  EXPECT_EQ(s["mid_turn"], true);
  EXPECT_EQ(s["jumper"], json({4, 4}));
  EXPECT_EQ(s["last"]["actions"], json::array({jump1}));
  EXPECT_EQ(s["last"]["captured"], json::array({{3, 3}}));
  EXPECT_EQ(s["last"]["complete"], false);
  EXPECT_EQ(s["moves"], 0);
  bool can_stop = false;
  for (const auto& a : s["legal"]) can_stop |= a["kind"] == "end_turn";
  EXPECT_TRUE(can_stop) << "bomb B5: continuing is optional";

  json jump2 = {{"kind", "jump"}, {"from", {4, 4}}, {"to", {6, 6}}};
  ASSERT_TRUE(send(A, {{"type", "act"}, {"action", jump2}, {"version", 1}}).action_accepted);
  s = state();
  EXPECT_EQ(s["turn"], "water");
  EXPECT_EQ(s["mid_turn"], false);
  EXPECT_EQ(s["last"]["actions"], json::array({jump1, jump2}));
  EXPECT_EQ(s["last"]["captured"], json::array({{3, 3}, {5, 5}}));
  EXPECT_EQ(s["last"]["complete"], true);
  EXPECT_EQ(s["moves"], 1);

  // Water's next action starts a new `last`.
  ASSERT_TRUE(
      send(B, {{"type", "act"}, {"action", s["legal"][0]}, {"version", 2}}).action_accepted);
  EXPECT_EQ(state()["last"]["side"], "water");
  EXPECT_EQ(state()["last"]["actions"].size(), 1u);
}

TEST_F(RoomTest, Last_BombExplosionIsReported) {
  // A fire bomb jumps water at [3,3] and lands on [4,4]: the blast takes [5,5] (normal) and spares
  // the shield at [3,5]; the bomb goes too (B7).
  json pos = {{"turn", "fire"},
              {"pieces",
               {{{"at", {2, 2}}, {"side", "fire"}, {"kind", "bomb"}},
                {{"at", {0, 0}}, {"side", "fire"}},
                {{"at", {3, 3}}, {"side", "water"}},
                {{"at", {5, 5}}, {"side", "water"}},
                {{"at", {3, 5}}, {"side", "water"}, {"kind", "shield"}},
                {{"at", {7, 7}}, {"side", "water"}}}}};
  two_players({{"type", "create"}, {"variant", "bomb"}, {"position", pos}});
  json jump = {{"kind", "jump"}, {"from", {2, 2}}, {"to", {4, 4}}};
  ASSERT_TRUE(send(A, {{"type", "act"}, {"action", jump}, {"version", 0}}).action_accepted);
  json last = state()["last"];
  EXPECT_EQ(last["captured"], json::array({{3, 3}}));
  std::set<std::vector<int>> exploded;
  for (const auto& sq : last["exploded"]) exploded.insert(sq.get<std::vector<int>>());
  EXPECT_TRUE(exploded.count({5, 5}));
  EXPECT_TRUE(exploded.count({4, 4})) << "the bomb itself is removed";
  EXPECT_FALSE(exploded.count({3, 5})) << "shields survive";
  EXPECT_EQ(state()["turn"], "water");
}

// ---------------------------------------------------------------------------------------------
// Resign, draws, rematch

TEST_F(RoomTest, Resign_TheOtherSideWins) {
  two_players();
  send(B, {{"type", "resign"}, {"id", "r"}});
  json s = last_of(A, "state");
  EXPECT_EQ(s["status"], "finished");
  EXPECT_EQ(s["result"]["winner"], "fire");
  EXPECT_EQ(s["result"]["reason"], "resigned");
  EXPECT_TRUE(s["legal"].empty());
  EXPECT_EQ(send(A, {{"type", "resign"}}).refused, ErrorCode::GameOver);
}

TEST_F(RoomTest, Resign_RefusedForSpectatorsAndBeforeTheStart) {
  create("fire");
  EXPECT_EQ(send(A, {{"type", "resign"}}).refused, ErrorCode::NotStarted);
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  EXPECT_EQ(send(C, {{"type", "resign"}}).refused, ErrorCode::NotAPlayer);
}

TEST_F(RoomTest, Draw_OfferThenAccept) {
  two_players();
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  send(A, {{"type", "offer_draw"}});
  EXPECT_EQ(last_of(B, "draw_offer")["from"], "fire");
  EXPECT_EQ(last_of(C, "draw_offer")["from"], "fire");
  EXPECT_EQ(state()["draw_offer"], "fire");
  // The offerer cannot answer their own offer.
  EXPECT_EQ(send(A, {{"type", "answer_draw"}, {"accept", true}}).refused, ErrorCode::NoDrawOffer);
  EXPECT_EQ(send(C, {{"type", "answer_draw"}, {"accept", true}}).refused, ErrorCode::NotAPlayer);
  Outcome o = send(B, {{"type", "answer_draw"}, {"accept", true}});
  EXPECT_TRUE(o.finished);
  json s = state();
  EXPECT_EQ(s["status"], "finished");
  EXPECT_TRUE(s["result"]["winner"].is_null());
  EXPECT_EQ(s["result"]["reason"], "draw_agreed");
}

TEST_F(RoomTest, Draw_DeclineClearsTheOffer) {
  two_players();
  send(B, {{"type", "offer_draw"}});
  send(A, {{"type", "answer_draw"}, {"accept", false}});
  EXPECT_EQ(last_of(B, "draw_declined")["from"], "fire");
  EXPECT_TRUE(state()["draw_offer"].is_null());
  EXPECT_EQ(state()["status"], "playing");
  EXPECT_EQ(send(A, {{"type", "answer_draw"}, {"accept", true}}).refused, ErrorCode::NoDrawOffer);
}

TEST_F(RoomTest, Draw_BothOfferingIsAgreement) {
  two_players();
  send(A, {{"type", "offer_draw"}});
  send(B, {{"type", "offer_draw"}});
  EXPECT_EQ(state()["result"]["reason"], "draw_agreed");
}

TEST_F(RoomTest, Draw_PlayingOnDeclinesTheOpponentsOffer) {
  two_players();
  play_first();  // fire moves
  send(A, {{"type", "offer_draw"}});
  EXPECT_EQ(state()["draw_offer"], "fire");
  play_first();  // water moves instead of answering
  EXPECT_TRUE(state()["draw_offer"].is_null());
}

TEST_F(RoomTest, Draw_AnswerNeedsABoolean) {
  two_players();
  EXPECT_EQ(send(B, {{"type", "answer_draw"}, {"accept", "yes"}}).refused, ErrorCode::BadMessage);
}

TEST_F(RoomTest, Rematch_BothAskSidesSwapTokensFollow) {
  const std::string a_token = create("fire")["token"];
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}});
  const std::string b_token = last_of(B, "joined")["token"];
  EXPECT_EQ(send(A, {{"type", "rematch"}}).refused, ErrorCode::GameNotOver);
  play_first();
  send(A, {{"type", "resign"}});
  clear();
  send(A, {{"type", "rematch"}});
  EXPECT_EQ(last_of(B, "rematch_offer")["from"], "fire");
  EXPECT_EQ(state()["rematch"], json::array({"fire"}));
  EXPECT_EQ(state()["status"], "finished");
  send(B, {{"type", "rematch"}});
  json s = state();
  EXPECT_EQ(s["status"], "playing");
  EXPECT_EQ(s["version"], 0);
  EXPECT_EQ(s["game"], 2);
  EXPECT_TRUE(s["result"].is_null());
  EXPECT_TRUE(s["last"].is_null());
  EXPECT_EQ(s["players"]["fire"]["name"], "Bob");
  EXPECT_EQ(s["players"]["water"]["name"], "Ann");
  EXPECT_EQ(last_of(A, "joined")["seat"], "water");
  EXPECT_EQ(last_of(A, "joined")["token"], a_token);
  EXPECT_EQ(last_of(B, "joined")["seat"], "fire");
  EXPECT_TRUE(room_->log().empty());
  // The tokens follow the players: Ann's token now takes back the water seat.
  deliver(A, room_->disconnect(A));
  send(D, {{"type", "join"}, {"room", "K7QF2M"}, {"token", a_token}});
  EXPECT_EQ(last_of(D, "joined")["seat"], "water");
  EXPECT_EQ(room_->seat_of(B), Side::First);
  (void)b_token;
}

TEST_F(RoomTest, Rematch_RefusedForSpectators) {
  two_players();
  send(A, {{"type", "resign"}});
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  EXPECT_EQ(send(C, {{"type", "rematch"}}).refused, ErrorCode::NotAPlayer);
}

// ---------------------------------------------------------------------------------------------
// Chat

TEST_F(RoomTest, Chat_ReachesEveryoneWithNameAndSeat) {
  two_players();
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}, {"name", "Cy"}});
  send(C, {{"type", "chat"}, {"text", "  hello\u0007 there\n "}});
  for (MemberId m : {A, B, C}) {
    json c = last_of(m, "chat");
    EXPECT_EQ(c["from"], "Cy");
    EXPECT_EQ(c["seat"], "spectator");
    EXPECT_EQ(c["text"], "hello there") << "control characters are stripped";
  }
}

TEST_F(RoomTest, Chat_LengthLimit) {
  two_players();
  std::string ok(500, 'x');
  EXPECT_FALSE(send(A, {{"type", "chat"}, {"text", ok}}).refused);
  EXPECT_EQ(send(A, {{"type", "chat"}, {"text", ok + "y"}}).refused, ErrorCode::TooLarge);
  // Limits count characters, not bytes.
  std::string euros;
  for (int i = 0; i < 500; ++i) euros += "\u20ac";
  EXPECT_FALSE(send(A, {{"type", "chat"}, {"text", euros}}).refused);
  EXPECT_EQ(send(A, {{"type", "chat"}, {"text", " \n\t "}}).refused, ErrorCode::BadMessage);
  EXPECT_EQ(send(A, {{"type", "chat"}, {"text", 5}}).refused, ErrorCode::BadMessage);
}

TEST_F(RoomTest, Names_AreCleanedAndCut) {
  create("fire");
  send(B, {{"type", "join"},
           {"room", "K7QF2M"},
           {"seat", "any"},
           {"name", std::string(100, 'n') + "\u0001"}});
  EXPECT_EQ(state()["players"]["water"]["name"].get<std::string>(), std::string(32, 'n'));
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}, {"name", "\u0002"}});
  send(C, {{"type", "chat"}, {"text", "hi"}});
  EXPECT_EQ(last_of(C, "chat")["from"], "Anonymous");
}

// ---------------------------------------------------------------------------------------------
// Spectators, sync, close, records

TEST_F(RoomTest, Spectators_ReceiveEveryState) {
  two_players();
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  clear();
  int accepted = 0;
  for (int i = 0; i < 30 && !room_->game().over(); ++i)
    accepted += play_first().action_accepted ? 1 : 0;
  auto states = of(C, "state");
  ASSERT_EQ(static_cast<int>(states.size()), accepted);
  for (int i = 0; i < accepted; ++i)
    EXPECT_EQ(states[static_cast<std::size_t>(i)]["version"], i + 1);
  EXPECT_EQ(states.back(), state());
}

TEST_F(RoomTest, Sync_SendsTheStateToTheAskerOnly) {
  two_players();
  send(B, {{"type", "sync"}});
  EXPECT_EQ(last_of(B, "state"), state());
  EXPECT_TRUE(of(A, "state").empty());
}

TEST_F(RoomTest, Close_TellsAndDetachesEveryone) {
  two_players();
  Outcome o = room_->close("test");
  deliver(0, o);
  EXPECT_EQ(last_of(A, "notice")["code"], "room_closed");
  EXPECT_EQ(last_of(B, "notice")["code"], "room_closed");
  EXPECT_EQ(room_->members(), 0u);
}

TEST_F(RoomTest, Record_ListsEveryActionWithItsVersion) {
  two_players();
  for (int i = 0; i < 6; ++i) play_first();
  json r = json::parse(room_->record_text());
  EXPECT_EQ(r["variant"], "bomb");
  EXPECT_EQ(r["options"]["draw_turns"], 80);
  ASSERT_EQ(r["actions"].size(), 6u);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(r["actions"][static_cast<std::size_t>(i)]["version"], i + 1);
  EXPECT_EQ(r["actions"][0]["side"], "fire");
  EXPECT_EQ(r["players"]["water"]["name"], "Bob");
  EXPECT_TRUE(r["result"].is_null());
  EXPECT_EQ(r["start"]["pieces"].size(), 24u);
}

TEST_F(RoomTest, Kaboom_StateHasBombsAndConnect) {
  two_players({{"type", "create"},
               {"variant", "kaboom"},
               {"options", {{"width", 6}, {"bombs", 2}, {"connect", 3}}}});
  json s = state();
  EXPECT_EQ(s["board"]["width"], 6);
  EXPECT_EQ(s["board"]["height"], 6);
  EXPECT_EQ(s["bombs"], json({{"x", 2}, {"o", 2}}));
  EXPECT_EQ(s["connect"], 3);
  EXPECT_EQ(s["options"]["misere"], false);
  EXPECT_EQ(s["turn"], "x");
}

TEST_F(RoomTest, WholeGames_EveryVariantPlaysToAResult) {
  for (const char* v : {"bomb", "classic", "triple_king", "kaboom"}) {
    SCOPED_TRACE(v);
    members_.clear();
    inbox_.clear();
    two_players({{"type", "create"}, {"variant", v}, {"options", json::object()}});
    int n = 0;
    while (!room_->game().over() && n < 3000) {
      ASSERT_TRUE(play_first().action_accepted);
      ++n;
    }
    json s = state();
    EXPECT_EQ(s["status"], "finished");
    EXPECT_FALSE(s["result"].is_null());
    EXPECT_TRUE(s["legal"].empty());
    EXPECT_EQ(s["version"], n);
    EXPECT_EQ(static_cast<int>(room_->log().size()), n);
  }
}

// The replay view's positions are exactly the states the members were sent, version by version
// (without the legal lists), in every variant, and the last one carries a resignation.
TEST_F(RoomTest, Positions_AreTheStatesEveryMemberSaw) {
  for (const char* v : {"bomb", "classic", "triple_king", "kaboom"}) {
    SCOPED_TRACE(v);
    members_.clear();
    inbox_.clear();
    two_players({{"type", "create"}, {"variant", v}, {"options", json::object()}});
    std::map<std::int64_t, json> seen{{0, state()}};
    for (int n = 0; n < 40 && !room_->game().over(); ++n) {
      ASSERT_TRUE(play_first().action_accepted);
      json s = last_of(A, "state");
      seen[s["version"].get<std::int64_t>()] = s;
    }
    if (!room_->game().over()) send(A, {{"type", "resign"}});
    seen[room_->version()] = state();

    json p = json::parse(room_->positions_text());
    EXPECT_EQ(p["room"], "K7QF2M");
    EXPECT_EQ(p["variant"], v);
    EXPECT_EQ(p["game"], 1);
    ASSERT_EQ(p["positions"].size(), seen.size());
    for (const auto& pos : p["positions"]) {
      const auto version = pos["version"].get<std::int64_t>();
      SCOPED_TRACE(version);
      ASSERT_TRUE(seen.count(version));
      json live = seen[version];
      EXPECT_TRUE(pos["legal"].empty());
      for (const char* key : {"board", "turn", "last", "result", "status", "mid_turn", "jumper",
                              "moves", "players"}) {
        EXPECT_EQ(pos[key], live[key]) << key;
      }
      if (std::string(v) == "kaboom") {
        EXPECT_EQ(pos["bombs"], live["bombs"]);
      }
    }
    EXPECT_EQ(p["positions"].back()["status"], "finished");
    EXPECT_FALSE(p["positions"].back()["result"].is_null());
  }
}

TEST_F(RoomTest, Positions_OfAGameNotStartedIsTheStart) {
  create();
  json p = json::parse(room_->positions_text());
  ASSERT_EQ(p["positions"].size(), 1u);
  EXPECT_EQ(p["positions"][0]["version"], 0);
  EXPECT_EQ(p["positions"][0]["status"], "waiting");
  EXPECT_EQ(p["positions"][0]["board"]["pieces"].size(), 24u);
}

TEST(RandomToken, Is128BitsOfHex) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string t = random_token();
    ASSERT_EQ(t.size(), 32u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos);
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 100u);
}

// ---------------------------------------------------------------------------------------------
// Computer seats (create's `opponent`, docs/PROTOCOL.md)

TEST_F(RoomTest, Computer_TakesTheEmptySeatAndIsShownAsTheComputer) {
  create("fire");
  deliver(A, room_->seat_computers(Opponent{3, 0}));
  json s = state();
  EXPECT_EQ(s["status"], "playing");
  EXPECT_EQ(s["players"]["water"]["ai"], 3);
  EXPECT_EQ(s["players"]["water"]["connected"], true);
  EXPECT_FALSE(s["players"]["fire"].contains("ai"));
  EXPECT_FALSE(room_->computer_to_move()) << "fire, the person, moves first";
}

TEST_F(RoomTest, Computer_MovesOnlyOnItsTurnAndThroughTheSameChecks) {
  create("water");
  deliver(A, room_->seat_computers(Opponent{1, 0}));
  auto turn = room_->computer_to_move();
  ASSERT_TRUE(turn);
  EXPECT_EQ(turn->side, Side::First);
  EXPECT_EQ(turn->level, 1);
  // An action that is not legal is refused and changes nothing.
  const std::string before = room_->state_text();
  EXPECT_TRUE(room_->act_for_computer(Side::First, Action::step({0, 0}, {4, 4})).refused);
  EXPECT_EQ(room_->state_text(), before);
  // The person's side cannot be played by the computer.
  const Action first = room_->game().legal().front();
  EXPECT_TRUE(room_->act_for_computer(Side::Second, first).refused);
  Outcome o = room_->act_for_computer(Side::First, first);
  deliver(A, o);
  EXPECT_FALSE(o.refused);
  EXPECT_TRUE(o.action_accepted);
  EXPECT_TRUE(o.durable.action);
  EXPECT_EQ(state()["version"], 1);
  EXPECT_FALSE(room_->computer_to_move()) << "now it is the person's turn";
}

TEST_F(RoomTest, Computer_BothSeatsWhenTheCreatorWatches) {
  create("spectator");
  deliver(A, room_->seat_computers(Opponent{2, 5}));
  json s = state();
  EXPECT_EQ(s["players"]["fire"]["ai"], 2);
  EXPECT_EQ(s["players"]["water"]["ai"], 5);
  ASSERT_TRUE(room_->computer_to_move());
  EXPECT_EQ(room_->computer_to_move()->level, 2);
}

TEST_F(RoomTest, Computer_DoesNotPlayToAnEmptyRoom) {
  create("spectator");
  deliver(A, room_->seat_computers(Opponent{1, 1}));
  ASSERT_TRUE(room_->computer_to_move());
  send(A, {{"type", "leave"}});
  EXPECT_FALSE(room_->computer_to_move());
}

json clocked(json base, double increment, const char* variant = "bomb");

TEST_F(RoomTest, Computer_OnTheClockPlaysEvenToAnEmptyRoom) {
  create("spectator", clocked(60, 0));
  deliver(A, room_->seat_computers(Opponent{1, 1}));
  send(A, {{"type", "leave"}});
  EXPECT_TRUE(room_->computer_to_move()) << "waiting would lose it the game on time";
}

TEST_F(RoomTest, Rematch_AGameWithNoMoveIsNotKept) {
  // Issue 31: resign+rematch kept ten finished games a second per connection, for ever.
  create("fire", {{"type", "create"}, {"variant", "bomb"}});
  deliver(A, room_->seat_computers(Opponent{1, 0}));
  send(A, {{"type", "resign"}});
  Outcome o = send(A, {{"type", "rematch"}});
  ASSERT_EQ(state()["game"], 2) << "game numbers still count up";
  EXPECT_EQ(o.durable.drop_game, 1);
  const auto rows = rows_for(*room_, o.durable);
  auto is = [&](auto* type) {
    return std::find_if(rows.begin(), rows.end(), [](const store::Write& w) {
      return std::holds_alternative<std::remove_pointer_t<decltype(type)>>(w);
    });
  };
  const auto drop = is(static_cast<store::DropGame*>(nullptr));
  const auto game = is(static_cast<store::PutGame*>(nullptr));
  ASSERT_NE(drop, rows.end());
  EXPECT_EQ(std::get<store::DropGame>(*drop).game_no, 1);
  ASSERT_NE(game, rows.end());
  EXPECT_LT(drop, game) << "dropped before the new game's row is written";
  EXPECT_EQ(std::get<store::PutGame>(*game).row.game_no, 2);
  // A game with a move in it is kept.
  ASSERT_FALSE(room_->act_for_computer(Side::First, room_->game().legal()[0]).refused)
      << "the sides swapped: the computer moves first";
  send(A, {{"type", "resign"}});
  ASSERT_FALSE(room_->log().empty());
  o = send(A, {{"type", "rematch"}});
  ASSERT_EQ(state()["game"], 3);
  EXPECT_EQ(o.durable.drop_game, std::nullopt);
}

TEST_F(RoomTest, Computer_AlwaysAgreesToARematch) {
  create("fire", {{"type", "create"}, {"variant", "bomb"}});
  deliver(A, room_->seat_computers(Opponent{1, 0}));
  send(A, {{"type", "resign"}});
  ASSERT_EQ(state()["status"], "finished");
  send(A, {{"type", "rematch"}});
  json s = state();
  EXPECT_EQ(s["status"], "playing");
  EXPECT_EQ(s["game"], 2);
  EXPECT_EQ(s["players"]["fire"]["ai"], 1) << "sides swap: the computer now moves first";
  EXPECT_EQ(last_of(A, "joined")["seat"], "water");
}

TEST_F(RoomTest, Computer_SeatCannotBeTakenOrResumed) {
  create("fire");
  deliver(A, room_->seat_computers(Opponent{1, 0}));
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}, {"name", "Bob"}});
  EXPECT_EQ(error_code(B), "seat_taken");
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"token", "ai:1"}, {"name", "Eve"}});
  EXPECT_EQ(error_code(C), "bad_token");
}

TEST(RoomProtocol, Computer_OpponentLevelsAreChecked) {
  for (const char* bad : {R"({"type":"create","variant":"bomb","opponent":{"ai":9}})",
                          R"({"type":"create","variant":"bomb","opponent":{"ai":0}})",
                          R"({"type":"create","variant":"bomb","opponent":{"ai":"strong"}})",
                          R"({"type":"create","variant":"bomb","opponent":4})",
                          R"({"type":"create","variant":"bomb","opponent":{}})"}) {
    auto parsed = parse_client_message(bad);
    ASSERT_TRUE(std::holds_alternative<ParseError>(parsed)) << bad;
    EXPECT_EQ(std::get<ParseError>(parsed).error.code, ErrorCode::BadMessage) << bad;
  }
  auto ok =
      parse_client_message(R"({"type":"create","variant":"bomb","opponent":{"ai":8,"ai2":1}})");
  ASSERT_TRUE(std::holds_alternative<ClientMessage>(ok));
  const auto& create = std::get<CreateMsg>(std::get<ClientMessage>(ok).body);
  ASSERT_TRUE(create.opponent);
  EXPECT_EQ(create.opponent->ai, 8);
  EXPECT_EQ(create.opponent->ai2, 1);
}

// ---------------------------------------------------------------------------------------------
// Floods (issue 13.3): what spectators joining, leaving and chatting cost the players

json spectate(const std::string& name = "Watcher") {
  return {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}, {"name", name}};
}

TEST_F(RoomTest, Spectators_JoinsAndLeavesSendThePlayersNothingAndTheCountFollows) {
  two_players();
  for (MemberId m : {C, D}) {
    send(m, spectate());
    EXPECT_EQ(of(m, "state").size(), 1u) << "the joiner gets the state at once";
  }
  send(C, {{"type", "leave"}});
  EXPECT_TRUE(of(A, "state").empty()) << "a spectator's join or leave is no state for the players";
  EXPECT_TRUE(of(B, "state").empty());
  EXPECT_EQ(state()["spectators"], 0) << "the count of the last state, until it is refreshed";
  EXPECT_EQ(room_->summary().spectators, 1) << "the lobby sees the live count";
  ASSERT_TRUE(room_->spectators_stale());

  Outcome o = room_->refresh_spectators();
  deliver(0, o);
  ASSERT_EQ(of(A, "state").size(), 1u);
  EXPECT_EQ(last_of(A, "state")["spectators"], 1);
  EXPECT_EQ(last_of(D, "state")["spectators"], 1);
  EXPECT_FALSE(room_->spectators_stale());
  EXPECT_TRUE(room_->refresh_spectators().messages.empty()) << "nothing new: nothing sent";

  // A join and a leave that cancel out need no refresh; a move carries any new count at once.
  send(C, spectate());
  send(C, {{"type", "leave"}});
  EXPECT_FALSE(room_->spectators_stale());
  send(C, spectate());
  clear();
  play_first();
  EXPECT_EQ(last_of(A, "state")["spectators"], 2);
  EXPECT_FALSE(room_->spectators_stale());
}

TEST_F(RoomTest, Spectators_CompactMembersGetTheCountAsADelta) {
  two_players();
  room_->set_compact(A, StateForm::Delta);
  play_first();  // from here on the room keeps its states for deltas, and A holds the last one
  clear();
  send(C, spectate());
  Outcome o = room_->refresh_spectators();
  ASSERT_EQ(o.messages.size(), 1u);
  const json delta = json::parse(*o.messages[0].text_for(A));
  EXPECT_EQ(delta["type"], "delta");
  EXPECT_EQ(delta["set"], json({{"spectators", 1}})) << delta.dump();
}

TEST_F(RoomTest, Rejoin_TakingOverAConnectedSeatSendsTheOthersNothing) {
  const std::string token = create("fire")["token"];
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}});
  clear();
  constexpr MemberId kFresh = 10;
  for (MemberId m = kFresh; m < kFresh + 5; ++m) {
    Outcome o = send(m, {{"type", "join"}, {"room", "K7QF2M"}, {"token", token}});
    EXPECT_EQ(last_of(m, "joined")["seat"], "fire");
    EXPECT_EQ(of(m, "state").size(), 1u);
  }
  EXPECT_TRUE(of(B, "state").empty()) << "the seat was connected before and after";
  EXPECT_EQ(room_->seat_of(kFresh + 4), Side::First);
}

TEST_F(RoomTest, Spectators_OneAddressMayWatchARoomOnlySoManyTimes) {
  limits_.spectators_per_room_per_address = 2;
  two_players();
  EXPECT_FALSE(send(C, spectate(), "10.0.0.9").refused);
  EXPECT_FALSE(send(D, spectate(), "10.0.0.9").refused);
  Outcome o = send(5, spectate(), "10.0.0.9");
  EXPECT_EQ(o.refused, ErrorCode::TooManySpectators);
  EXPECT_EQ(o.limited, Limited::RoomSpectators);
  EXPECT_FALSE(room_->is_member(5)) << "a refusal changes nothing";
  EXPECT_FALSE(send(6, spectate(), "10.0.0.10").refused) << "other addresses are not affected";
  send(C, {{"type", "leave"}});
  EXPECT_FALSE(send(5, spectate(), "10.0.0.9").refused) << "a place was given back";
}

TEST_F(RoomTest, Chat_SpectatorsShareOneBudgetAndThePlayersKeepTheirs) {
  limits_.spectator_chat_per_second = 0.001;
  limits_.spectator_chat_burst = 3;
  two_players();
  constexpr MemberId kFirst = 10;
  for (MemberId m = kFirst; m < kFirst + 6; ++m) send(m, spectate());
  clear();
  int sent = 0;
  for (MemberId m = kFirst; m < kFirst + 6; ++m) {
    Outcome o = send(m, {{"type", "chat"}, {"text", "spam"}});
    if (!o.refused) {
      ++sent;
    } else {
      EXPECT_EQ(o.refused, ErrorCode::RateLimited);
      EXPECT_EQ(o.limited, Limited::SpectatorChat);
      EXPECT_EQ(o.messages.size(), 1u) << "the refusal goes to the sender alone";
    }
  }
  EXPECT_EQ(sent, 3) << "fresh spectators together get the room's budget, not one each";
  EXPECT_EQ(of(A, "chat").size(), 3u);
  EXPECT_FALSE(send(A, {{"type", "chat"}, {"text", "players still talk"}}).refused);
  EXPECT_FALSE(send(B, {{"type", "chat"}, {"text", "yes"}}).refused);
}

TEST_F(RoomTest, Chat_EachMemberHasABudgetAndAPlayerKeepsItAcrossReconnects) {
  limits_.chat_per_second = 0.001;
  limits_.chat_burst = 2;
  const std::string token = create("fire")["token"];
  EXPECT_FALSE(send(A, {{"type", "chat"}, {"text", "1"}}).refused);
  EXPECT_FALSE(send(A, {{"type", "chat"}, {"text", "2"}}).refused);
  Outcome o = send(A, {{"type", "chat"}, {"text", "3"}});
  EXPECT_EQ(o.refused, ErrorCode::RateLimited);
  EXPECT_EQ(o.limited, Limited::MemberChat);
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"token", token}});
  EXPECT_EQ(send(B, {{"type", "chat"}, {"text", "4"}}).refused, ErrorCode::RateLimited)
      << "the budget is the seat's";
}

// ---------------------------------------------------------------------------------------------
// Clocks (S1-S3; docs/PROTOCOL.md, "Clocks"), on a fake clock

json clocked(json base, double increment, const char* variant) {
  return {{"type", "create"},
          {"variant", variant},
          {"clock", {{"base", base}, {"increment", increment}}}};
}

TEST_F(RoomTest, Clock_AnUntimedGameShowsNoClock) {
  two_players();
  EXPECT_TRUE(state()["clock"].is_null());
  EXPECT_TRUE(state()["abort_at"].is_null());
  EXPECT_EQ(room_->next_deadline(), std::nullopt);
}

TEST_F(RoomTest, Clock_TheFirstTurnsAreFreeThenTheMoverIsChargedFromTheSentState) {
  two_players(clocked(60, 1));
  sent();
  json s = state();
  EXPECT_EQ(s["clock"]["control"], "1+1");
  EXPECT_EQ(s["clock"]["left"], (json{{"fire", 60000}, {"water", 60000}}));
  EXPECT_TRUE(s["clock"]["running"].is_null());
  EXPECT_EQ(s["abort_at"], s["clock"]["at"].get<std::int64_t>() + 30000);
  time_.advance(20'000);
  ASSERT_TRUE(play_first().action_accepted);  // fire's first turn: not timed
  sent();
  time_.advance(10'000);
  ASSERT_TRUE(play_first().action_accepted);  // water's
  s = state();
  EXPECT_EQ(s["clock"]["left"], (json{{"fire", 60000}, {"water", 60000}}));
  EXPECT_EQ(s["clock"]["running"], "fire");
  EXPECT_TRUE(s["abort_at"].is_null());
  EXPECT_EQ(s["clock"]["at"], time_.unix_ms());
  time_.advance(300);  // the commit: not charged
  sent();
  time_.advance(5'000);
  ASSERT_TRUE(play_first().action_accepted);
  s = state();
  EXPECT_EQ(s["clock"]["left"], (json{{"fire", 56000}, {"water", 60000}}));  // 5 s, then +1 s
  EXPECT_EQ(s["clock"]["running"], "water");
}

TEST_F(RoomTest, Clock_S1_TheServerFlagsTheMoverWhoseTimeRunsOut) {
  two_players(clocked(60, 0));
  for (int i = 0; i < 2; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  sent();
  const auto due = room_->next_deadline();
  ASSERT_TRUE(due.has_value());
  EXPECT_EQ(*due, time_.steady_ms() + 60'000 + 1'170);  // grace: the lag quota of 1+0
  const json move = state()["legal"][0];
  time_.advance(60'000);
  EXPECT_TRUE(room_->on_deadline().messages.empty()) << "within the grace nothing happens";
  time_.advance(1'170);
  clear();
  Outcome o = room_->on_deadline();
  deliver(A, o);
  EXPECT_TRUE(o.finished);
  EXPECT_TRUE(o.durable.game);
  json s = last_of(B, "state");
  EXPECT_EQ(s["result"], (json{{"winner", "water"}, {"reason", "timeout"}}));
  EXPECT_EQ(s["clock"]["left"]["fire"], 0);
  EXPECT_TRUE(s["clock"]["running"].is_null());
  EXPECT_EQ(room_->next_deadline(), std::nullopt);
  act(A, move);
  EXPECT_EQ(error_code(A), "game_over");
}

// A mover whose connection went down with the cluster node that carried it is not charged the
// time until the room's owner noticed (Room::disconnect with `outage`, from nodes_gone); the
// player not to move loses nothing either way. Found by the history checker (issue 31): a player
// relayed through a node paused for a lease was charged the lease.
TEST_F(RoomTest, Clock_AMoverLostWithItsServerNodeIsNotChargedTheTimeUntilItWasNoticed) {
  const std::string token = create("fire", clocked(60, 0))["token"];
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}});
  clear();
  for (int i = 0; i < 2; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  sent();  // fire (A) to move, its time running
  const auto due = room_->next_deadline();
  ASSERT_TRUE(due.has_value());
  time_.advance(4'000);
  room_->disconnect(B, /*outage=*/true);
  EXPECT_EQ(room_->next_deadline(), due) << "water is not to move: nothing changes";
  room_->disconnect(A, /*outage=*/true);
  EXPECT_EQ(room_->next_deadline(), *due + 4'000) << "fire's 4 s so far are forgiven";
  EXPECT_EQ(state()["clock"]["left"]["fire"], 60'000) << "and shown so";
  // Back through another node 2 s later (the node hung: its connections were closed only when it
  // woke): that wait is forgiven too. Once only: a second rejoin is a reload, charged as usual.
  time_.advance(2'000);
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"token", token}});
  EXPECT_EQ(room_->next_deadline(), *due + 6'000);
  time_.advance(1'000);
  send(D, {{"type", "join"}, {"room", "K7QF2M"}, {"token", token}});
  EXPECT_EQ(room_->next_deadline(), *due + 6'000);
}

TEST_F(RoomTest, Clock_S1_AnActionThatArrivesAfterTheFlagEndsTheGameInstead) {
  two_players(clocked(60, 0));
  for (int i = 0; i < 2; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  sent();
  time_.advance(61'000);  // past the time, within the grace: the action claims no lag
  clear();
  Outcome o = play_first();
  EXPECT_FALSE(o.action_accepted);
  EXPECT_TRUE(o.finished);
  EXPECT_EQ(error_code(A), "game_over");
  EXPECT_EQ(state()["result"]["reason"], "timeout");
  EXPECT_EQ(state()["version"], 2) << "the late action was not played";
}

TEST_F(RoomTest, Clock_S1_ClaimedLagIsForgivenUpToTheQuota) {
  two_players(clocked(60, 0));
  for (int i = 0; i < 2; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  sent();
  time_.advance(61'000);
  json s = state();
  Outcome o = send(
      A, {{"type", "act"}, {"action", s["legal"][0]}, {"version", s["version"]}, {"lag", 1500}});
  EXPECT_TRUE(o.action_accepted) << "1,170 ms of the 1,500 claimed are forgiven";
  EXPECT_EQ(state()["clock"]["left"]["fire"], 60'000 - (61'000 - 1'170));
}

TEST_F(RoomTest, Clock_S2_AKaboomFlagIsADrawWhenTheOpponentCannotWin) {
  json create = clocked(60, 0, "kaboom");
  create["options"] = {{"width", 4}, {"height", 4}, {"connect", 4}, {"bombs", 0}};
  json pieces = json::array();
  const std::vector<std::string> rows = {"...o", "...o", "xxox", "ooxx"};  // top row first
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      const char c = rows[static_cast<std::size_t>(3 - y)][static_cast<std::size_t>(x)];
      if (c != '.') pieces.push_back({{"at", {x, y}}, {"side", std::string(1, c)}});
    }
  }
  create["position"] = {{"pieces", pieces}, {"turn", "x"}};
  two_players(create);
  // x, o (free first turns), x: every line of four still holds an o, and no bomb is left.
  for (int column : {0, 1, 2}) {
    sent();
    ASSERT_TRUE(act(room_->game().turn() == Side::First ? A : B,
                    {{"kind", "drop"}, {"column", column}, {"piece", "normal"}})
                    .action_accepted);
  }
  ASSERT_EQ(state()["clock"]["running"], "o");
  sent();
  time_.advance(120'000);
  deliver(A, room_->on_deadline());
  EXPECT_EQ(state()["result"], (json{{"winner", nullptr}, {"reason", "timeout"}}));
}

TEST_F(RoomTest, Clock_S3_AGameWhoseFirstTurnIsNotMadeInTimeIsAborted) {
  two_players(clocked(300, 3));
  sent();
  ASSERT_EQ(room_->next_deadline(), time_.steady_ms() + 30'000);
  time_.advance(29'999);
  EXPECT_TRUE(room_->on_deadline().messages.empty());
  time_.advance(1);
  Outcome o = room_->on_deadline();
  deliver(A, o);
  EXPECT_TRUE(o.finished);
  EXPECT_EQ(state()["result"], (json{{"winner", nullptr}, {"reason", "aborted"}}));
  EXPECT_TRUE(state()["abort_at"].is_null());
}

TEST_F(RoomTest, Clock_AStateIsTheSameTextOnEverySyncAndJoinUntilTheGameMoves) {
  two_players(clocked(60, 0));
  for (int i = 0; i < 3; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  const std::string broadcast = room_->state_text();
  sent();
  time_.advance(7'000);
  EXPECT_EQ(room_->state_text(), broadcast);
  clear();
  send(B, {{"type", "sync"}});
  EXPECT_EQ(last_of(B, "state"), json::parse(broadcast));
}

TEST_F(RoomTest, Clock_AComputerSeatIsTimedLikeAnyone) {
  json c = clocked(60, 0);
  c["opponent"] = {{"ai", 1}};
  make(c, limits_);
  auto choice = std::get<SeatChoice>(resolve_seat(VariantId::Bomb, "fire", true));
  deliver(A, room_->seat_creator(A, "Ann", choice, RequestId{}));
  deliver(A, room_->seat_computers(Opponent{1, 0}));
  sent();
  ASSERT_TRUE(play_first().action_accepted);
  sent();
  const auto legal = room_->game().legal();
  ASSERT_FALSE(room_->act_for_computer(Side::Second, legal[0]).refused);
  sent();
  ASSERT_TRUE(play_first().action_accepted);
  sent();
  time_.advance(2'000);
  ASSERT_FALSE(room_->act_for_computer(Side::Second, room_->game().legal()[0]).refused);
  EXPECT_EQ(state()["clock"]["left"]["water"], 58'000);
}

TEST_F(RoomTest, Clock_RecordsAndPdnCarryTheTimeControlAndTheForfeit) {
  two_players(clocked(300, 3));
  for (int i = 0; i < 3; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  sent();
  time_.advance(400'000);
  deliver(A, room_->on_deadline());
  json record = json::parse(room_->record_text());
  EXPECT_EQ(record["clock"], (json{{"base", 300}, {"increment", 3}}));
  auto parsed = parse_record_json(record.dump());
  ASSERT_TRUE(std::holds_alternative<GameRecord>(parsed));
  EXPECT_EQ(std::get<GameRecord>(parsed).setup.clock, room_->setup().clock);
  const std::string pdn = game_notation(*room_);
  EXPECT_NE(pdn.find("[TimeControl \"300+3\"]"), std::string::npos) << pdn;
  EXPECT_NE(pdn.find("[Termination \"timeout\"]"), std::string::npos) << pdn;
  make({{"type", "create"}, {"variant", "bomb"}});
  EXPECT_NE(game_notation(*room_).find("[TimeControl \"-\"]"), std::string::npos);
  EXPECT_TRUE(json::parse(room_->record_text())["clock"].is_null());
}

TEST_F(RoomTest, Clock_S4_APlayerGoneForTheGraceCanBeClaimedAgainst) {
  two_players(clocked(180, 2));
  for (int i = 0; i < 2; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  sent();
  EXPECT_TRUE(state()["away"].is_null());
  send(A, {{"type", "claim"}});
  EXPECT_EQ(error_code(A), "cannot_claim") << "nobody has left";
  clear();
  deliver(B, room_->disconnect(B));
  json s = last_of(A, "state");
  ASSERT_TRUE(s["away"].is_object()) << s.dump();
  EXPECT_EQ(s["away"]["side"], "water");
  EXPECT_EQ(s["away"]["claim_at"], s["away"]["since"].get<std::int64_t>() + 20'000);
  time_.advance(19'000);
  send(A, {{"type", "claim"}});
  EXPECT_EQ(error_code(A), "cannot_claim");
  EXPECT_NE(last_of(A, "error")["message"].get<std::string>().find("in 1 s"), std::string::npos);
  time_.advance(1'000);
  clear();
  Outcome o = send(A, {{"type", "claim"}, {"id", 4}});
  EXPECT_TRUE(o.finished);
  EXPECT_EQ(last_of(A, "ok")["request"], "claim");
  EXPECT_EQ(state()["result"], (json{{"winner", "fire"}, {"reason", "abandoned"}}));
  EXPECT_EQ(room_->next_deadline(), std::nullopt) << "the clocks stopped";
}

TEST_F(RoomTest, Clock_S4_AClaimMayBeADrawAndAReturnCancelsIt) {
  create("fire", clocked(180, 2));
  send(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}});
  const std::string water_token = last_of(B, "joined")["token"];
  for (int i = 0; i < 2; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  deliver(B, room_->disconnect(B));
  time_.advance(10'000);
  send(D, {{"type", "join"}, {"room", "K7QF2M"}, {"token", water_token}});
  EXPECT_TRUE(state()["away"].is_null()) << "water came back";
  time_.advance(30'000);
  send(A, {{"type", "claim"}});
  EXPECT_EQ(error_code(A), "cannot_claim");
  deliver(D, room_->disconnect(D));
  time_.advance(20'000);
  send(A, {{"type", "claim"}, {"draw", true}});
  EXPECT_EQ(state()["result"], (json{{"winner", nullptr}, {"reason", "abandoned"}}));
}

TEST_F(RoomTest, Clock_S4_NoClaimsBeforeBothFirstTurnsTheAbortHandlesThat) {
  two_players(clocked(180, 2));
  sent();
  ASSERT_TRUE(play_first().action_accepted);
  deliver(B, room_->disconnect(B));
  time_.advance(25'000);
  EXPECT_TRUE(state()["away"].is_null());
  send(A, {{"type", "claim"}});
  EXPECT_EQ(error_code(A), "cannot_claim");
}

TEST_F(RoomTest, Clock_S4_NoClaimsInCorrespondenceUntimedOrComputerGames) {
  two_players({{"type", "create"}, {"variant", "bomb"}, {"clock", {{"days", 1}}}});
  deliver(B, room_->disconnect(B));
  time_.advance(3'600'000);
  EXPECT_TRUE(state()["away"].is_null());
  send(A, {{"type", "claim"}});
  EXPECT_EQ(error_code(A), "cannot_claim");
  clear();
  two_players();
  deliver(B, room_->disconnect(B));
  time_.advance(3'600'000);
  send(A, {{"type", "claim"}});
  EXPECT_EQ(error_code(A), "cannot_claim");
  EXPECT_NE(last_of(A, "error")["message"].get<std::string>().find("on a clock"),
            std::string::npos);
}

TEST_F(RoomTest, Clock_S4_AfterARestartEveryoneHasTheGraceToComeBack) {
  two_players(clocked(180, 2));
  for (int i = 0; i < 3; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  GameRecord image(room_->setup());
  image.actions = room_->log();
  for (Side s : {Side::First, Side::Second})
    image.seats[static_cast<std::size_t>(index(s))] = room_->stored_seat(s);
  time_.advance(50'000);
  auto back = std::make_unique<Room>("K7QF2M", room_->setup(), Limits{}, random_token, 1, &time_);
  ASSERT_FALSE(back->restore(image));
  EXPECT_TRUE(json::parse(back->state_text())["away"].is_null()) << "nobody is here to claim";
  const std::int64_t loaded = time_.unix_ms();
  room_ = std::move(back);
  members_.clear();
  clear();
  time_.advance(5'000);
  char token[40];
  std::snprintf(token, sizeof token, "%032d", 1);  // fire's (the first token made)
  send(A, {{"type", "join"}, {"room", "K7QF2M"}, {"token", token}});
  json s = last_of(A, "state");
  ASSERT_TRUE(s["away"].is_object()) << s.dump();
  EXPECT_EQ(s["away"]["side"], "water");
  EXPECT_EQ(s["away"]["since"], loaded) << "gone since the restart, not since before it";
  EXPECT_EQ(s["away"]["claim_at"], loaded + 20'000);
}

TEST_F(RoomTest, Clock_PresenceTellsEveryoneThePlayersLagOnAChangeAtMostEveryTwoSeconds) {
  two_players(clocked(180, 2));
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  clear();
  deliver(A, room_->report_lag(A, 40));
  json p = last_of(C, "presence");
  EXPECT_EQ(p["players"]["fire"], (json{{"connected", true}, {"lag", 40}}));
  EXPECT_EQ(p["players"]["water"], (json{{"connected", true}, {"lag", nullptr}}));
  clear();
  deliver(B, room_->report_lag(B, 80));
  EXPECT_TRUE(of(C, "presence").empty()) << "within 2 s of the last one";
  time_.advance(2'000);
  deliver(A, room_->report_lag(A, 45));
  EXPECT_EQ(last_of(C, "presence")["players"]["water"]["lag"], 80);
  clear();
  time_.advance(2'000);
  deliver(A, room_->report_lag(A, 50));
  EXPECT_TRUE(of(C, "presence").empty()) << "a change under 20 ms is not news";
  EXPECT_TRUE(room_->report_lag(C, 10).messages.empty()) << "spectators have no lag to show";
}

TEST_F(RoomTest, Clock_BadClocksAreRefused) {
  for (const json& clock : {json{{"base", "5"}}, json{{"increment", 3}}, json(7),
                            json{{"days", 1.5}}, json{{"days", 2}, {"base", 60}}}) {
    auto parsed = parse_client_message(
        json{{"type", "create"}, {"variant", "bomb"}, {"clock", clock}}.dump());
    ASSERT_TRUE(std::holds_alternative<ParseError>(parsed)) << clock;
    EXPECT_EQ(std::get<ParseError>(parsed).error.code, ErrorCode::BadMessage) << clock;
  }
  for (const json& clock :
       {json{{"base", 0}}, json{{"base", 20000}}, json{{"base", 60}, {"increment", -1}},
        json{{"days", 0}}, json{{"days", 15}}}) {
    auto parsed = parse_client_message(
        json{{"type", "create"}, {"variant", "bomb"}, {"clock", clock}}.dump());
    auto& msg = std::get<ClientMessage>(parsed);
    auto s = resolve_create(std::get<CreateMsg>(msg.body));
    ASSERT_TRUE(std::holds_alternative<Error>(s)) << clock;
    EXPECT_EQ(std::get<Error>(s).code, ErrorCode::BadOptions) << clock;
  }
  auto days = setup_of({{"type", "create"}, {"variant", "classic"}, {"clock", {{"days", 3}}}});
  ASSERT_TRUE(days.clock.has_value());
  EXPECT_EQ(time_control_text(*days.clock), "3d");
}

// ---------------------------------------------------------------------------------------------
// Takebacks (docs/PROTOCOL.md, "Takebacks")

TEST_F(RoomTest, Takeback_ByConsentUndoesTheProposersLastTurnAndVersionsGoOn) {
  two_players();
  ASSERT_TRUE(play_first().action_accepted);  // fire, v1
  ASSERT_TRUE(play_first().action_accepted);  // water, v2
  const json start = json::parse(Room("X", room_->setup()).state_text());
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  clear();
  send(A, {{"type", "takeback"}, {"id", 1}});
  EXPECT_EQ(last_of(A, "ok")["request"], "takeback");
  EXPECT_EQ(last_of(B, "takeback_offer")["from"], "fire");
  EXPECT_EQ(last_of(C, "state")["takeback_offer"], "fire");
  EXPECT_EQ(state()["version"], 2) << "a proposal is not a version";
  send(B, {{"type", "answer_takeback"}, {"accept", true}});
  json s = last_of(C, "state");
  EXPECT_EQ(s["version"], 3);
  EXPECT_EQ(s["turn"], "fire");
  EXPECT_EQ(s["board"], start["board"]) << "fire's turn and water's answer are undone";
  EXPECT_TRUE(s["takeback_offer"].is_null());
  EXPECT_TRUE(s["last"].is_null());
  EXPECT_EQ(s["moves"], 0);
  EXPECT_TRUE(room_->log().empty());
  act(A, s["legal"][0]);
  EXPECT_EQ(state()["version"], 4);
  // The record lists the game's actions and the takeback, and replays to the same state.
  json record = json::parse(room_->record_text());
  EXPECT_EQ(record["takebacks"], json::parse(R"([{"version":3,"to":0}])"));
  ASSERT_EQ(record["actions"].size(), 1u);
  EXPECT_EQ(record["actions"][0]["version"], 4);
  auto parsed = parse_record_json(record.dump());
  ASSERT_TRUE(std::holds_alternative<GameRecord>(parsed));
  auto back = restore_room("K7QF2M", std::get<GameRecord>(parsed), Limits{});
  ASSERT_TRUE(back.room) << back.error->message;
  EXPECT_EQ(json::parse(back.room->state_text())["board"], state()["board"]);
  EXPECT_EQ(back.room->version(), 4);
}

TEST_F(RoomTest, Takeback_OnlyTheProposersOwnTurnWhenTheOpponentHasNotAnswered) {
  two_players();
  ASSERT_TRUE(play_first().action_accepted);  // fire, v1
  const json after_fire = state();
  ASSERT_TRUE(play_first().action_accepted);  // water, v2
  send(B, {{"type", "takeback"}});
  send(A, {{"type", "answer_takeback"}, {"accept", true}});
  EXPECT_EQ(state()["board"], after_fire["board"]);
  EXPECT_EQ(state()["turn"], "water");
  EXPECT_EQ(state()["version"], 3);
}

TEST_F(RoomTest, Takeback_RefusalsDeclinesAndLimits) {
  two_players();
  send(A, {{"type", "takeback"}});
  EXPECT_EQ(error_code(A), "no_takeback");
  send(B, {{"type", "answer_takeback"}, {"accept", true}});
  EXPECT_EQ(error_code(B), "no_takeback_offer");
  send(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}});
  send(C, {{"type", "takeback"}});
  EXPECT_EQ(error_code(C), "not_a_player");
  ASSERT_TRUE(play_first().action_accepted);
  clear();
  send(A, {{"type", "takeback"}});
  send(B, {{"type", "answer_takeback"}, {"accept", false}});
  EXPECT_EQ(last_of(A, "takeback_declined")["from"], "water");
  EXPECT_TRUE(state()["takeback_offer"].is_null());
  send(A, {{"type", "takeback"}});
  EXPECT_EQ(error_code(A), "rate_limited") << "not again before the game moves";
  // Playing on answers a standing proposal; three proposals a game at most.
  ASSERT_TRUE(play_first().action_accepted);  // water
  send(A, {{"type", "takeback"}});
  EXPECT_EQ(state()["takeback_offer"], "fire");
  ASSERT_TRUE(play_first().action_accepted);  // fire plays on: the proposal is gone
  EXPECT_TRUE(state()["takeback_offer"].is_null());
  ASSERT_TRUE(play_first().action_accepted);  // water
  send(A, {{"type", "takeback"}});
  EXPECT_EQ(state()["takeback_offer"], "fire");
  ASSERT_TRUE(play_first().action_accepted);
  ASSERT_TRUE(play_first().action_accepted);
  clear();
  send(A, {{"type", "takeback"}});
  EXPECT_EQ(error_code(A), "rate_limited");
  EXPECT_NE(last_of(A, "error")["message"].get<std::string>().find("at most 3"), std::string::npos);
}

TEST_F(RoomTest, Takeback_AgainstTheComputerIsGrantedAtOnce) {
  json c = {{"type", "create"}, {"variant", "classic"}, {"opponent", {{"ai", 1}}}};
  make(c, limits_);
  auto choice = std::get<SeatChoice>(resolve_seat(VariantId::Classic, "black", true));
  deliver(A, room_->seat_creator(A, "Ann", choice, RequestId{}));
  deliver(A, room_->seat_computers(Opponent{1, 0}));
  ASSERT_TRUE(play_first().action_accepted);
  ASSERT_FALSE(room_->act_for_computer(Side::Second, room_->game().legal()[0]).refused);
  clear();
  send(A, {{"type", "takeback"}, {"id", 2}});
  EXPECT_EQ(last_of(A, "ok")["request"], "takeback");
  EXPECT_EQ(state()["version"], 3);
  EXPECT_EQ(state()["turn"], "black");
  EXPECT_TRUE(room_->log().empty());
  EXPECT_EQ(room_->computer_to_move(), std::nullopt) << "the person is to move again";
}

TEST_F(RoomTest, Takeback_AgainstTheComputerAtMostAHundredAGame) {
  // Granted at once, takebacks were not capped: act+takeback grew a game's record for ever.
  json c = {{"type", "create"}, {"variant", "classic"}, {"opponent", {{"ai", 1}}}};
  make(c, limits_);
  auto choice = std::get<SeatChoice>(resolve_seat(VariantId::Classic, "black", true));
  deliver(A, room_->seat_creator(A, "Ann", choice, RequestId{}));
  deliver(A, room_->seat_computers(Opponent{1, 0}));
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(play_first().action_accepted);
    ASSERT_FALSE(room_->act_for_computer(Side::Second, room_->game().legal()[0]).refused);
    clear();
    send(A, {{"type", "takeback"}});
    ASSERT_EQ(of(A, "error").size(), 0u) << "takeback " << i + 1;
  }
  ASSERT_TRUE(play_first().action_accepted);
  clear();
  const auto version = room_->version();
  send(A, {{"type", "takeback"}, {"id", 7}});
  EXPECT_EQ(error_code(A), "rate_limited");
  EXPECT_NE(last_of(A, "error")["message"].get<std::string>().find("at most 100"),
            std::string::npos);
  EXPECT_EQ(room_->version(), version) << "a refused takeback changes nothing";
  EXPECT_EQ(room_->match().takebacks().size(), 100u);
}

TEST_F(RoomTest, Takeback_AtOneScreenAtMostAHundredAGame) {
  create("both", {{"type", "create"}, {"variant", "classic"}, {"seat", "both"}});
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(act(A, state()["legal"][0]).action_accepted);
    clear();
    send(A, {{"type", "takeback"}});
    ASSERT_EQ(of(A, "error").size(), 0u) << "takeback " << i + 1;
  }
  ASSERT_TRUE(act(A, state()["legal"][0]).action_accepted);
  send(A, {{"type", "takeback"}});
  EXPECT_EQ(error_code(A), "rate_limited");
}

TEST_F(RoomTest, Takeback_AgainstTheComputerTheIncrementGoesBackWithItsMove) {
  json c = clocked(60, 180, "classic");
  c["opponent"] = {{"ai", 1}};
  make(c, limits_);
  auto choice = std::get<SeatChoice>(resolve_seat(VariantId::Classic, "black", true));
  deliver(A, room_->seat_creator(A, "Ann", choice, RequestId{}));
  deliver(A, room_->seat_computers(Opponent{1, 0}));
  for (int i = 0; i < 2; ++i) {  // the first turns, not timed
    sent();
    ASSERT_TRUE(play_first().action_accepted);
    sent();
    ASSERT_FALSE(room_->act_for_computer(Side::Second, room_->game().legal()[0]).refused);
  }
  const auto before = room_->clock()->lefts();
  for (int i = 0; i < 20; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
    sent();
    ASSERT_FALSE(room_->act_for_computer(Side::Second, room_->game().legal()[0]).refused);
    send(A, {{"type", "takeback"}});
  }
  EXPECT_EQ(room_->clock()->lefts(), before) << "20 cycles at 1+180 minted no time";
}

TEST_F(RoomTest, Takeback_ARestoreReplaysOnlyTheLineTheGameEndedOn) {
  // A game stored before takebacks were capped: 40 actions, then 5,000 act+takeback cycles. The
  // restore used to replay the line at each takeback.
  GameRecord image(setup_of({{"type", "create"}, {"variant", "classic"}}));
  image.room = "K7QF2M";
  Game game = image.setup.game;
  std::int64_t v = 0;
  for (int i = 0; i < 40; ++i) {
    const Action a = game.legal()[0];
    image.actions.push_back(LoggedAction{++v, game.turn(), a});
    game = game.apply(a)->next;
  }
  for (int i = 0; i < 5'000; ++i) {
    image.actions.push_back(LoggedAction{++v, game.turn(), game.legal()[0]});
    image.takebacks.push_back(TakeBack{++v, 40});
  }
  const auto back = restore_room("K7QF2M", image, Limits{});
  ASSERT_TRUE(back.room) << back.error->message;
  EXPECT_EQ(back.room->version(), 10'040);
  EXPECT_EQ(back.room->log().size(), 40u);
  EXPECT_EQ(back.room->match().takebacks().size(), 5'000u);
  EXPECT_TRUE(back.room->game().pieces() == game.pieces());
  EXPECT_EQ(back.room->game().turn(), game.turn());
}

TEST_F(RoomTest, Takeback_ARestoreRefusesATakebackToAPositionTheLineNeverHad) {
  GameRecord image(setup_of({{"type", "create"}, {"variant", "classic"}}));
  Game game = image.setup.game;
  for (std::int64_t v = 1; v <= 4; ++v) {
    const Action a = game.legal()[0];
    image.actions.push_back(LoggedAction{v, game.turn(), a});
    game = game.apply(a)->next;
  }
  image.takebacks.push_back(TakeBack{5, 2});
  image.takebacks.push_back(TakeBack{6, 3});  // version 3 was undone by the first
  const auto back = restore_room("K7QF2M", image, Limits{});
  ASSERT_FALSE(back.room);
  EXPECT_NE(back.error->message.find("not a position of the game"), std::string::npos)
      << back.error->message;
}

TEST_F(RoomTest, Takeback_AClockedGameKeepsItsTimesAndTheMoverRunsAgain) {
  two_players(clocked(60, 0));
  for (int i = 0; i < 3; ++i) {
    sent();
    ASSERT_TRUE(play_first().action_accepted);
  }
  const json before = state()["clock"]["left"];  // water to move
  sent();
  time_.advance(4'000);
  send(A, {{"type", "takeback"}});
  send(B, {{"type", "answer_takeback"}, {"accept", true}});
  json s = state();
  EXPECT_EQ(s["turn"], "fire");
  EXPECT_EQ(s["clock"]["running"], "fire");
  EXPECT_EQ(s["clock"]["left"]["water"], before["water"].get<std::int64_t>() - 4'000)
      << "water's 4 s are not given back";
  EXPECT_EQ(s["clock"]["left"]["fire"], before["fire"]);
}

TEST_F(RoomTest, Takeback_TheStoreKeepsItAndARestoredRoomIsTheSame) {
  std::string why;
  auto store = store::Store::open(":memory:", why);
  ASSERT_TRUE(store) << why;
  two_players(clocked(300, 3));
  auto keep = [&](const Outcome& o) {
    auto rows = rows_for(*room_, o.durable);
    if (!rows.empty()) store->submit(std::move(rows));
  };
  Outcome made;
  made.durable = Durable{true, {true, true}, true, false, false, std::nullopt, std::nullopt};
  keep(made);
  for (int i = 0; i < 4; ++i) {
    sent();
    keep(play_first());
  }
  keep(send(A, {{"type", "takeback"}}));
  keep(send(B, {{"type", "answer_takeback"}, {"accept", true}}));
  sent();
  keep(play_first());
  store->flush();
  auto loaded = store->load_room("K7QF2M");
  ASSERT_TRUE(loaded);
  auto image = image_of(*loaded);
  ASSERT_TRUE(std::holds_alternative<GameRecord>(image)) << std::get<ReplayError>(image).message;
  auto back = restore_room("K7QF2M", std::get<GameRecord>(image), Limits{});
  ASSERT_TRUE(back.room) << back.error->message;
  EXPECT_EQ(back.room->version(), room_->version());
  EXPECT_EQ(json::parse(back.room->state_text())["board"], state()["board"]);
  EXPECT_EQ(json::parse(back.room->record_text())["takebacks"],
            json::parse(room_->record_text())["takebacks"]);
  EXPECT_EQ(back.room->clock()->lefts(), room_->clock()->lefts());
}

}  // namespace
}  // namespace bc::server

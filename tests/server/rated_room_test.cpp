// Rated rooms (docs/PLAYERS.md, "Ratings"): who may sit, when a game is rated, what the room
// shows and keeps of it. Socket-free, through the room harness.
#include <gtest/gtest.h>

#include "room_harness.hpp"
#include "server/room/notation.hpp"
#include "server/room/persist.hpp"

namespace bc::server {
namespace {

using namespace room_harness;

const json kRated = {{"type", "create"},
                     {"variant", "bomb"},
                     {"rated", true},
                     {"clock", {{"base", 180}, {"increment", 2}}}};

Identity player(const std::string& id, const std::string& name = "") {
  return Identity{id, name, {}};
}

class RatedRoomTest : public RoomTest {
 protected:
  // A message as a signed-in connection sends it: the lobby adds its player.
  Outcome send_as(MemberId m, const json& msg, const std::optional<Identity>& who) {
    auto parsed = parse_client_message(msg.dump());
    auto& request = std::get<ClientMessage>(parsed);
    if (auto* j = std::get_if<JoinMsg>(&request.body)) j->who = who;
    Outcome o = room_->handle(m, request);
    deliver(m, o);
    return o;
  }
  void create_as(const Identity& who, const std::string& seat = "fire",
                 const std::string& keep_for = {}) {
    GameSetup s = setup_of(kRated);
    s.kept_for = keep_for;  // what the lobby sets for a pool's pairing
    room_ = std::make_unique<Room>(
        "K7QF2M", s, limits_,
        [this] { return std::string(32, static_cast<char>('a' + ++tokens_)); }, 7, &time_);
    auto choice = std::get<SeatChoice>(resolve_seat(VariantId::Bomb, seat, true));
    deliver(A, room_->seat_creator(A, "typed", choice, RequestId{}, {}, who));
  }
  // Ann (fire) and Bob (water), both signed in.
  void rated_pair() {
    create_as(player("p-ann", "Ann"));
    send_as(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}},
            player("p-bob"));
    clear();
  }
};

TEST(RatedSetup, ARatedGameNeedsAClockTwoPeopleAndTheVariantsStart) {
  auto refused = [](json create) {
    auto parsed = parse_client_message(create.dump());
    auto s = resolve_create(std::get<CreateMsg>(std::get<ClientMessage>(parsed).body));
    return std::holds_alternative<Error>(s);
  };
  EXPECT_TRUE(refused({{"type", "create"}, {"variant", "bomb"}, {"rated", true}}));
  json computer = kRated;
  computer["opponent"] = {{"ai", 3}};
  EXPECT_TRUE(refused(computer));
  json both = kRated;
  both["seat"] = "both";
  EXPECT_TRUE(refused(both));
  EXPECT_FALSE(refused(kRated));
  EXPECT_EQ(perf_of(setup_of(kRated)), "bomb:blitz");
  json days = kRated;
  days["clock"] = {{"days", 2}};
  EXPECT_EQ(perf_of(setup_of(days)), "bomb:correspondence");
}

TEST_F(RatedRoomTest, TheCreatorOfARatedRoomMustBeSignedIn) {
  make(kRated, limits_);
  auto choice = std::get<SeatChoice>(resolve_seat(VariantId::Bomb, "fire", true));
  deliver(A, room_->seat_creator(A, "Ann", choice, RequestId{}));
  EXPECT_EQ(error_code(A), "sign_in_required");
}

TEST_F(RatedRoomTest, OnlyASignedInPlayerTakesASeatOthersWatch) {
  create_as(player("p-ann", "Ann"));
  send_as(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}, {"name", "Bob"}},
          std::nullopt);
  EXPECT_EQ(error_code(B), "sign_in_required");
  send_as(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}},
          std::nullopt);
  EXPECT_EQ(last_of(B, "joined")["seat"], "spectator");
}

TEST_F(RatedRoomTest, OnePlayerMayNotHoldBothSeats) {
  create_as(player("p-ann", "Ann"));
  send_as(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}, {"name", "Ann2"}},
          player("p-ann", "Ann"));
  EXPECT_EQ(error_code(B), "seat_taken");
}

TEST_F(RatedRoomTest, AnAccountPlaysUnderItsNameAndShowsItsRating) {
  rated_pair();
  json s = state();
  EXPECT_EQ(s["players"]["fire"]["name"], "Ann");  // not the typed name
  EXPECT_EQ(s["players"]["fire"]["account"], "Ann");
  EXPECT_EQ(s["players"]["fire"]["rating"], 1500);
  EXPECT_EQ(s["players"]["fire"]["provisional"], true);
  EXPECT_FALSE(s["players"]["water"].contains("account"));  // a guest
  EXPECT_FALSE(s["players"]["fire"].contains("rating_diff"));
}

TEST_F(RatedRoomTest, TheEndOfARatedGameRatesBothAndKeepsTheirRows) {
  rated_pair();
  play_first();
  play_first();
  Outcome o = send(B, {{"type", "resign"}});
  EXPECT_TRUE(o.durable.ratings);
  json s = state();
  EXPECT_GT(s["players"]["fire"]["rating_diff"].get<int>(), 0);
  EXPECT_LT(s["players"]["water"]["rating_diff"].get<int>(), 0);
  EXPECT_EQ(s["players"]["fire"]["rating"].get<int>(),
            1500 + s["players"]["fire"]["rating_diff"].get<int>());
  auto rows = rows_for(*room_, o.durable);
  int ratings = 0, games = 0;
  for (const auto& w : rows) {
    if (auto* r = std::get_if<store::PutRating>(&w)) {
      ++ratings;
      EXPECT_EQ(r->row.perf, "bomb:blitz");
      EXPECT_EQ(r->row.player == "p-ann" ? r->row.wins : r->row.losses, 1);
    }
    if (auto* g = std::get_if<store::PutRatedGame>(&w)) {
      ++games;
      EXPECT_EQ(g->row.score, g->row.player == "p-ann" ? 2 : 0);
      EXPECT_EQ(g->row.opponent, g->row.player == "p-ann" ? "p-bob" : "p-ann");
    }
  }
  EXPECT_EQ(ratings, 2);
  EXPECT_EQ(games, 2);
}

TEST_F(RatedRoomTest, AGameWithFewerThanTwoTurnsIsNotRated) {
  rated_pair();
  play_first();
  Outcome o = send(B, {{"type", "resign"}});
  EXPECT_FALSE(o.durable.ratings);
  EXPECT_FALSE(state()["players"]["fire"].contains("rating_diff"));
}

// Values for watchers (docs/PROTOCOL.md) are off in a rated game, and on in a casual one.
TEST_F(RatedRoomTest, AWatcherOfARatedGameGetsNoLaggedValues) {
  const json lagged = {{"type", "analyse"}, {"history", true}, {"lagged", true}};
  const json watch = {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "spectator"}, {"name", "C"}};
  rated_pair();
  send(C, watch);
  play_first();
  Outcome o = send(C, lagged);
  EXPECT_EQ(error_code(C), "analysis_not_allowed");
  EXPECT_FALSE(o.analysis);

  two_players();
  send(C, watch);
  play_first();
  Outcome casual = send(C, lagged);
  ASSERT_TRUE(casual.analysis);
  EXPECT_EQ(casual.analysis->lag, limits_.watch_lag);

  // Lagged is for the current game: an earlier game's whole history costs a history.
  send(B, {{"type", "resign"}});
  send(A, {{"type", "rematch"}});
  send(B, {{"type", "rematch"}});
  json earlier = lagged;
  earlier["game"] = 1;
  earlier["from"] = 0;
  Outcome refused = send(C, earlier);
  EXPECT_EQ(error_code(C), "bad_message");
  EXPECT_FALSE(refused.analysis);
}

TEST_F(RatedRoomTest, ACasualRoomShowsNoRatings) {
  create("fire");
  send_as(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}},
          player("p-bob", "Bob"));
  json s = state();
  EXPECT_EQ(s["players"]["water"]["account"], "Bob");
  EXPECT_FALSE(s["players"]["water"].contains("rating"));
}

TEST_F(RatedRoomTest, ARematchStartsFromTheRatingsTheLastGameLeft) {
  rated_pair();
  play_first();
  play_first();
  send(B, {{"type", "resign"}});
  const int ann = state()["players"]["fire"]["rating"];
  send(A, {{"type", "rematch"}});
  send(B, {{"type", "rematch"}});
  json s = state();
  // Sides swapped: Ann is water now, from her new rating, with no change shown yet.
  EXPECT_EQ(s["players"]["water"]["name"], "Ann");
  EXPECT_EQ(s["players"]["water"]["rating"], ann);
  EXPECT_FALSE(s["players"]["water"].contains("rating_diff"));
  const auto seat = room_->seat_players()[1];
  ASSERT_TRUE(seat);
  EXPECT_EQ(seat->wins, 1);
}

TEST_F(RatedRoomTest, APairingsKeptSeatIsOnlyForItsPlayer) {
  create_as(player("p-ann", "Ann"), "fire", "p-bob");
  send_as(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}, {"name", "Cid"}},
          player("p-cid", "Cid"));
  EXPECT_EQ(error_code(C), "seat_taken");
  send_as(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Cid"}},
          player("p-cid", "Cid"));
  EXPECT_EQ(last_of(C, "joined")["seat"], "spectator");
  send_as(B, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "any"}, {"name", "Bob"}},
          player("p-bob", "Bob"));
  EXPECT_EQ(last_of(B, "joined")["seat"], "water");
  // Kept across a restart, and never taken from a client's create.
  auto back = parse_setup_json(setup_json(room_->setup()));
  ASSERT_TRUE(std::holds_alternative<GameSetup>(back));
  EXPECT_EQ(std::get<GameSetup>(back).kept_for, "p-bob");
  json forged = kRated;
  forged["keep_for"] = "p-eve";
  forged["kept_for"] = "p-eve";
  EXPECT_EQ(setup_of(forged).kept_for, "");
}

TEST_F(RatedRoomTest, TheGameRowKeepsThePlayersAndTheirRatingsForARestart) {
  rated_pair();
  play_first();
  play_first();
  Outcome o = send(B, {{"type", "resign"}});
  std::string players;
  for (const auto& w : rows_for(*room_, o.durable)) {
    if (auto* g = std::get_if<store::PutGame>(&w)) players = g->row.players;
  }
  const SeatNames names = parse_names_json(VariantId::Bomb, players);
  EXPECT_EQ(names[0], "Ann");  // older readers still find the names
  const SeatPlayers back = parse_seat_players(VariantId::Bomb, players);
  ASSERT_TRUE(back[0] && back[1]);
  EXPECT_EQ(back[0]->id, "p-ann");
  EXPECT_EQ(back[0]->account, "Ann");
  EXPECT_EQ(back[1]->account, "");
  ASSERT_TRUE(back[0]->after);
  EXPECT_EQ(back[0]->after, room_->seat_players()[0]->after);
  EXPECT_EQ(back[0]->rating, room_->seat_players()[0]->rating);
  EXPECT_EQ(back[0]->score, 1.0);
}

TEST_F(RatedRoomTest, APdnOfARatedGameHasTheRatingsAndTheirChange) {
  rated_pair();
  EXPECT_NE(game_notation(*room_).find("[BlackElo \"1500\"]"), std::string::npos);
  EXPECT_EQ(game_notation(*room_).find("RatingDiff"), std::string::npos);
  play_first();
  play_first();
  send(B, {{"type", "resign"}});
  const std::string pdn = game_notation(*room_);
  const int diff = state()["players"]["fire"]["rating_diff"];
  EXPECT_NE(pdn.find("[BlackRatingDiff \"+" + std::to_string(diff) + "\"]"), std::string::npos)
      << pdn;
  EXPECT_NE(pdn.find("[WhiteRatingDiff \"-" + std::to_string(diff) + "\"]"), std::string::npos);
}

TEST_F(RatedRoomTest, ASeekSeatsOnlyARatingInItsRangeAndListsTheRange) {
  json seek = kRated;
  seek["range"] = {{"min", 1400}, {"max", 1600}};
  make(seek, limits_);
  auto choice = std::get<SeatChoice>(resolve_seat(VariantId::Bomb, "fire", true));
  deliver(A, room_->seat_creator(A, "Ann", choice, RequestId{}, {}, player("p-ann", "Ann")));
  Identity strong = player("p-cid", "Cid");
  strong.ratings.push_back(PerfRating{"bomb:blitz", players::Rating{1850, 60, 0.06, std::nullopt}});
  send_as(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}, {"name", "Cid"}}, strong);
  EXPECT_EQ(error_code(C), "rating_out_of_range");
  // Another perf's rating does not count: a new player in bomb:blitz is 1500.
  strong.ratings[0].perf = "bomb:rapid";
  send_as(C, {{"type", "join"}, {"room", "K7QF2M"}, {"seat", "water"}, {"name", "Cid"}}, strong);
  EXPECT_EQ(last_of(C, "joined")["seat"], "water");
  const RoomSummary s = room_->summary();
  EXPECT_TRUE(s.rated);
  ASSERT_TRUE(s.range);
  EXPECT_EQ(s.range->first, 1400);
  EXPECT_EQ(s.perf, "bomb:blitz");
  // The setup keeps it across a restart.
  auto back = parse_setup_json(setup_json(room_->setup()));
  ASSERT_TRUE(std::holds_alternative<GameSetup>(back));
  EXPECT_EQ(std::get<GameSetup>(back).range, s.range);
  EXPECT_TRUE(std::get<GameSetup>(back).rated);
}

TEST(RatedSetup, ARangeIsForARatedGameWithinBounds) {
  auto error = [](json create) -> std::string {
    auto parsed = parse_client_message(create.dump());
    if (auto* e = std::get_if<ParseError>(&parsed))
      return std::string(error_code_name(e->error.code));
    auto s = resolve_create(std::get<CreateMsg>(std::get<ClientMessage>(parsed).body));
    if (auto* e = std::get_if<Error>(&s)) return std::string(error_code_name(e->code));
    return "";
  };
  json casual = {{"type", "create"}, {"variant", "bomb"}, {"range", {{"min", 1}, {"max", 2}}}};
  EXPECT_EQ(error(casual), "bad_options");
  json upside = kRated;
  upside["range"] = {{"min", 1700}, {"max", 1300}};
  EXPECT_EQ(error(upside), "bad_options");
  json text = kRated;
  text["range"] = "near me";
  EXPECT_EQ(error(text), "bad_message");
  json open_top = kRated;
  open_top["range"] = {{"min", 1300}};
  EXPECT_EQ(error(open_top), "");
  EXPECT_EQ(setup_of(open_top).range, std::make_optional(std::make_pair(1300, kMaxRating)));
}

}  // namespace
}  // namespace bc::server

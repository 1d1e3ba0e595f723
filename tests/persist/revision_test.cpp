// Rules revisions (docs/RULES.md, Revisions): a database written by the release before the B8/T5b
// fix (commit 171c8ad, tests/persist/fixtures) must come back exactly as its players saw it: every
// accepted action, board and result, replayed under rules revision 1.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../support/build_paths.hpp"
#include "bc/store.hpp"
#include "fake_peer.hpp"
#include "server/host/registry.hpp"
#include "server/room/persist.hpp"

namespace bc::server {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// The fixture's rooms (tests/persist/fixtures/make-release-db.mjs wrote them).
constexpr const char* kBombFarRow = "DZD9XP";     // fire's bomb stepped onto row 7 and exploded
constexpr const char* kBombFinished = "8UDK2T";   // the same blast took water's last piece
constexpr const char* kTriplePastOwn = "7AHPHK";  // a triple king landed past its own man
constexpr const char* kBombStart = "WFJY8Z";      // two ordinary opening moves

struct FixtureCopy {
  fs::path dir;
  fs::path db;
  FixtureCopy() {
    static int n = 0;
    dir = fs::temp_directory_path() /
          ("bc-revision-test-" + std::to_string(getpid()) + "-" + std::to_string(++n));
    fs::create_directories(dir);
    db = dir / "bombcheckers.db";
    fs::copy_file(fs::path(bc::test::kPersistFixtures) / "release-171c8ad.sqlite", db);
  }
  ~FixtureCopy() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

Piece pc(int x, int y, Side s, Kind k = Kind::Normal, Rank r = Rank::Man) {
  return {{x, y}, s, k, r};
}

std::vector<Piece> sorted(std::vector<Piece> v) {
  std::sort(v.begin(), v.end(), [](const Piece& a, const Piece& b) {
    return std::tie(a.at.y, a.at.x) < std::tie(b.at.y, b.at.x);
  });
  return v;
}

Room restored(store::Store& s, const std::string& id, int rules_override = 0) {
  auto loaded = s.load_room(id);
  EXPECT_TRUE(loaded) << id;
  auto image = std::get<GameRecord>(image_of(*loaded));
  if (rules_override != 0) {
    image.setup.options.rules = rules_override;
    image.setup.game = fresh_game(image.setup);
  }
  auto r = restore_room(id, image, Limits{});
  if (!r.room) throw std::runtime_error(r.error->message);
  return std::move(*r.room);
}

std::unique_ptr<store::Store> open(const fs::path& db) {
  std::string why;
  auto s = store::Store::open(db.string(), why);
  EXPECT_TRUE(s) << why;
  return s;
}

TEST(Revision, EveryRoomOfTheLastReleaseIsRestored) {
  FixtureCopy f;
  auto s = open(f.db);
  boost::asio::io_context ioc;
  Limits limits;
  Metrics metrics;
  Registry reg(ioc, limits, metrics);
  reg.set_store(s.get());
  auto [loaded, failed] = reg.restore_all();
  EXPECT_EQ(loaded, 4u);
  EXPECT_EQ(failed, 0u);
  for (const char* id : {kBombFarRow, kBombFinished, kTriplePastOwn, kBombStart}) {
    EXPECT_TRUE(reg.find(id)) << id;
  }
}

TEST(Revision, B8_AStoredFarRowStepStillExploded) {
  FixtureCopy f;
  auto s = open(f.db);
  Room room = restored(*s, kBombFarRow);
  EXPECT_EQ(room.setup().options.rules, 1);
  EXPECT_EQ(room.version(), 2);
  EXPECT_FALSE(room.game().over());
  EXPECT_EQ(room.game().turn(), Side::First);
  EXPECT_EQ(room.game().pieces(),
            sorted({pc(4, 0, Side::First), pc(4, 4, Side::Second), pc(7, 7, Side::Second)}));
  // The state tells clients that this game keeps the earlier rules; current games say nothing.
  EXPECT_EQ(json::parse(room.state_text())["rules"], 1);
  CreateMsg c;
  c.variant = "bomb";
  Room fresh("NEWONE", std::get<GameSetup>(resolve_create(c)));
  EXPECT_FALSE(json::parse(fresh.state_text()).contains("rules"));
}

TEST(Revision, B8_AStoredResultStaysAsItWas) {
  FixtureCopy f;
  auto s = open(f.db);
  Room room = restored(*s, kBombFinished);
  ASSERT_TRUE(room.game().over());
  EXPECT_EQ(*room.game().result(), (Result{Side::First, Reason::NoPieces}));
  auto record = stored_record(*s, kBombFinished, 0, RecordFormat::Json);
  ASSERT_TRUE(record.found && record.error.empty()) << record.error;
  const json j = json::parse(record.body);
  EXPECT_EQ(j["rules"], 1);
  EXPECT_EQ(j["result"]["winner"], "fire");
  EXPECT_EQ(j["result"]["reason"], "no_pieces");
}

TEST(Revision, T5b_AStoredLandingPastOwnPieceStands) {
  FixtureCopy f;
  auto s = open(f.db);
  Room room = restored(*s, kTriplePastOwn);
  EXPECT_EQ(room.version(), 1);
  EXPECT_EQ(room.game().turn(), Side::Second);
  EXPECT_EQ(room.game().pieces(),
            sorted({pc(1, 1, Side::First), pc(7, 1, Side::Second), pc(5, 5, Side::First),
                    pc(0, 6, Side::Second, Kind::Normal, Rank::King),
                    pc(6, 6, Side::First, Kind::Normal, Rank::TripleKing)}));
  // Every stored position replays, the last one the room's own.
  auto positions = stored_record(*s, kTriplePastOwn, 0, RecordFormat::Positions);
  ASSERT_TRUE(positions.found && positions.error.empty()) << positions.error;
  EXPECT_NE(positions.body.find("\"triple_king\""), std::string::npos);
}

// The fixture does exercise the change: under today's rules the same logs would not replay as
// stored, which is why the revision is kept.
TEST(Revision, TodaysRulesWouldChangeTheseRecords) {
  FixtureCopy f;
  auto s = open(f.db);
  Room bomb = restored(*s, kBombFarRow, kRulesRevision);
  EXPECT_NE(bomb.game().pieces(), restored(*s, kBombFarRow).game().pieces());
  EXPECT_THROW(restored(*s, kTriplePastOwn, kRulesRevision), std::runtime_error);
  Room start = restored(*s, kBombStart, kRulesRevision);
  EXPECT_EQ(start.game().pieces(), restored(*s, kBombStart).game().pieces());
}

TEST(Revision, NewSetupsCarryTheCurrentRevision) {
  CreateMsg c;
  c.variant = "bomb";
  auto setup = std::get<GameSetup>(resolve_create(c));
  EXPECT_EQ(setup.options.rules, kRulesRevision);
  const json j = json::parse(setup_json(setup));
  EXPECT_EQ(j["rules"], kRulesRevision);
  auto back = parse_setup_json(j.dump());
  ASSERT_TRUE(std::holds_alternative<GameSetup>(back));
  EXPECT_EQ(std::get<GameSetup>(back).options.rules, kRulesRevision);
  EXPECT_EQ(std::get<GameSetup>(back).game.options().rules, kRulesRevision);

  json old = j;
  old.erase("rules");
  EXPECT_EQ(std::get<GameSetup>(parse_setup_json(old.dump())).options.rules, 1)
      << "a setup stored before revisions were recorded is revision 1";
  for (const json& bad : {json(kRulesRevision + 1), json(0), json("2"), json(1.5)}) {
    json newer = j;
    newer["rules"] = bad;
    EXPECT_TRUE(std::holds_alternative<Error>(parse_setup_json(newer.dump()))) << bad.dump();
  }
}

// A create request cannot choose old rules: `rules` is no option, so new games are always current.
TEST(Revision, ACreateCannotAskForOldRules) {
  auto parsed = parse_client_message(R"({"type":"create","variant":"bomb","options":{"rules":1}})");
  ASSERT_TRUE(std::holds_alternative<ClientMessage>(parsed));
  auto setup = resolve_create(std::get<CreateMsg>(std::get<ClientMessage>(parsed).body));
  ASSERT_TRUE(std::holds_alternative<Error>(setup));
  EXPECT_EQ(std::get<Error>(setup).code, ErrorCode::BadOptions);
}

// A computer seat in a game kept under revision 1 searches that revision's rules (its moves come
// from Game::legal): today this triple king would have no capture (its landing is its own man on
// [5,3]) and might step; revision 1 demands the double capture past that man.
TEST(Revision, AComputerInARevision1GamePlaysALegalTurn) {
  FixtureCopy f;
  auto s = open(f.db);
  const std::string setup =
      R"({"variant":"triple_king","options":{"draw_turns":80},"rules":1,"position":{"turn":"black",)"
      R"("pieces":[{"at":[2,0],"side":"black","kind":"normal","rank":"triple_king"},)"
      R"({"at":[3,1],"side":"black","kind":"normal","rank":"man"},)"
      R"({"at":[5,3],"side":"black","kind":"normal","rank":"man"},)"
      R"({"at":[4,2],"side":"white","kind":"normal","rank":"man"},)"
      R"({"at":[5,5],"side":"white","kind":"normal","rank":"man"},)"
      R"({"at":[0,6],"side":"white","kind":"normal","rank":"king"}]}})";
  s->submit({store::PutRoom{store::RoomRow{"CMPTR2", setup, 1, 1, false}},
             store::PutSeat{store::SeatRow{"CMPTR2", 0, "Computer", "ai:1"}},
             store::PutSeat{store::SeatRow{"CMPTR2", 1, "Ann", store::sha256_hex("t")}},
             store::PutGame{store::GameRow{"CMPTR2", 1, "", 1, 0, ""}}});
  s->flush();
  boost::asio::io_context ioc;
  Limits limits;
  Metrics metrics;
  Registry reg(ioc, limits, metrics);
  reg.set_store(s.get());
  EXPECT_EQ(reg.restore_all().second, 0u);
  auto host = reg.find("CMPTR2");
  ASSERT_TRUE(host);
  auto watcher = std::make_shared<testing::FakePeer>(MemberId{1});
  host->request(watcher,
                testing::msg({{"type", "join"}, {"room", "CMPTR2"}, {"seat", "spectator"}}),
                Clock::now());
  auto played = [&] {
    for (const auto& st : watcher->of("state")) {
      if (st["version"] == 2) return true;  // the capture sequence: two hops
    }
    return false;
  };
  ASSERT_TRUE(testing::run_until(ioc, played, std::chrono::seconds(20)))
      << "the computer never completed a legal turn";
  const json last = watcher->of("state").back();
  EXPECT_EQ(last["rules"], 1);
  EXPECT_EQ(last["last"]["captured"].size(), 2u);
  EXPECT_EQ(last["turn"], "white");
  reg.stop_computers();
  reg.drain_computers();
}

}  // namespace
}  // namespace bc::server

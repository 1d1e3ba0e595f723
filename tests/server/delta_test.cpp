// The compact form of `state` (server/wire/state_snapshot.hpp, docs/PROTOCOL.md "Compact states"):
// a delta applied to the state it follows gives the next state byte for byte, over thousands of
// random games of every variant played through a Room with players and spectators coming and going.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "../support/sanitizers.hpp"
#include "../support/short_action.hpp"
#include "../support/state_delta.hpp"
#include "server/room/room.hpp"
#include "server/wire/state_snapshot.hpp"

namespace bc::server {
namespace {

using json = nlohmann::json;

// A state view of every shape a field can take: clocks with and without an abort deadline,
// absence, takebacks, hints, one screen, an old rules revision, waiting.
struct Shapes {
  explicit Shapes(VariantId v) : game(make(v)) {
    last = LastTurn{Side::Second, game.legal(), {{1, 2}}, {}, {}, true};
  }
  static Game make(VariantId v) {
    Options o = default_options(v);
    o.rules = kRulesRevision - 1;  // a stored game's `rules` field
    return std::get<Game>(Game::create(v, o));
  }
  StateView view(int shape) {
    clock = ClockView{TimeControl{TimeControl::Kind::Fischer, 300000, 2000},
                      {1000 + shape, 2000},
                      Side::First,
                      1764000000000,
                      std::nullopt};
    if (shape == 1) clock.abort_at = 1764000030000;
    StateView view;
    view.room = "K7QF2M";
    view.game = &game;
    view.version = 7 + shape % 2;
    view.status = shape == 3 ? RoomStatus::Waiting : RoomStatus::Playing;
    view.last = shape == 2 ? nullptr : &last;
    view.players[0] = PlayerView{"An{n]", true, std::nullopt};
    view.players[1] = PlayerView{"Bo\"b", shape == 1, 4};
    view.clock = shape < 2 ? &clock : nullptr;
    if (shape == 1) view.away = AwayView{Side::Second, 1764000000000, 1764000060000};
    view.takeback_offer = shape == 2 ? std::optional<Side>(Side::First) : std::nullopt;
    view.hints = shape == 0 ? &hints : nullptr;
    view.draw_offer = shape == 1 ? std::optional<Side>(Side::Second) : std::nullopt;
    view.rematch = {shape == 2, true};
    view.spectators = shape;
    return view;
  }
  Game game;
  std::optional<LastTurn> last;
  ClockView clock;
  std::vector<std::int64_t> hints{3, 5};
};

TEST(Delta, ASnapshotWritesTheStateItsViewWrites) {
  for (VariantId v : kAllVariants) {
    Shapes shapes(v);
    for (int shape = 0; shape < 4; ++shape) {
      const StateView view = shapes.view(shape);
      EXPECT_EQ(state_json(StateSnapshot::of(view).view()), state_json(view)) << shape;
    }
  }
}

TEST(Delta, DeltasFromValuesAreTheDeltasFromTextsBetweenEveryShape) {
  for (VariantId v : kAllVariants) {
    Shapes a(v), b(v);
    for (int from = 0; from < 4; ++from) {
      for (int to = 0; to < 4; ++to) {
        const StateSnapshot prev = StateSnapshot::of(a.view(from));
        const StateSnapshot next = StateSnapshot::of(b.view(to));
        const std::string prev_text = state_json(prev.view()), next_text = state_json(next.view());
        for (const ActionForm form : {ActionForm::Object, ActionForm::Short}) {
          const auto typed = state_delta_json(prev, next, form);
          ASSERT_TRUE(typed) << from << " to " << to;
          EXPECT_EQ(typed, state_delta_json(prev_text, next_text, form)) << from << " to " << to;
          EXPECT_EQ(apply_state_delta(prev_text, *typed), next_text) << from << " to " << to;
        }
      }
    }
  }
}

TEST(Delta, AnotherRoomOrOtherOptionsMakeNoDelta) {
  Shapes a(VariantId::Bomb), b(VariantId::Classic);
  const StateSnapshot bomb = StateSnapshot::of(a.view(0));
  EXPECT_FALSE(state_delta_json(bomb, StateSnapshot::of(b.view(0))));
  StateSnapshot elsewhere = bomb;
  elsewhere.room = "222222";
  EXPECT_FALSE(state_delta_json(bomb, elsewhere));
  StateSnapshot one_screen = bomb;
  one_screen.one_screen = true;
  EXPECT_FALSE(state_delta_json(bomb, one_screen));
}

TEST(Delta, ChangedFieldsAndPieceEditsRebuildTheNextStateExactly) {
  const std::string a =
      R"({"type":"state","game":1,"version":3,"turn":"fire","board":{"width":8,"height":8,)"
      R"("pieces":[{"at":[0,0]},{"at":[2,2]},{"at":[4,4]}]},"legal":[1,2],"spectators":0})";
  const std::string b =
      R"({"type":"state","game":1,"version":4,"turn":"water","board":{"width":8,"height":8,)"
      R"("pieces":[{"at":[0,0]},{"at":[3,3]},{"at":[4,4]},{"at":[6,6]}]},"legal":[],"spectators":0})";
  auto d = state_delta_json(a, b);
  ASSERT_TRUE(d);
  EXPECT_EQ(*d, R"({"type":"delta","base":[1,3],"set":{"version":4,"turn":"water","legal":[]},)"
                R"("board":{"remove":[1],"insert":[[1,{"at":[3,3]}],[3,{"at":[6,6]}]]}})");
  EXPECT_EQ(apply_state_delta(a, *d), b);
  // Nothing changed: an empty delta, which changes nothing.
  auto same = state_delta_json(b, b);
  ASSERT_TRUE(same);
  EXPECT_EQ(*same, R"({"type":"delta","base":[1,4],"set":{}})");
  EXPECT_EQ(apply_state_delta(b, *same), b);
}

TEST(Delta, NamesWithQuotesBackslashesAndBracketsAreReadAsText) {
  const std::string a =
      R"({"game":1,"version":0,"players":{"fire":{"name":"a \"[{\\"},"water":null},"chat":"}"})";
  const std::string b =
      R"({"game":1,"version":0,"players":{"fire":{"name":"a \"[{\\"},"water":{"name":"\\\""}},"chat":"}"})";
  auto d = state_delta_json(a, b);
  ASSERT_TRUE(d);
  EXPECT_EQ(
      *d,
      R"({"type":"delta","base":[1,0],"set":{"players":{"fire":{"name":"a \"[{\\"},"water":{"name":"\\\""}}}})");
  EXPECT_EQ(apply_state_delta(a, *d), b);
}

TEST(Delta, IsRefusedForAnotherStateAndNotMadeAcrossShapes) {
  const std::string a = R"({"type":"state","game":1,"version":3,"turn":"fire"})";
  const std::string b = R"({"type":"state","game":1,"version":4,"turn":"water"})";
  const std::string c = R"({"type":"state","game":2,"version":0,"turn":"fire"})";
  auto d = state_delta_json(a, b);
  ASSERT_TRUE(d);
  EXPECT_FALSE(apply_state_delta(b, *d));  // its base is version 3 of game 1
  EXPECT_FALSE(apply_state_delta(c, *d));
  EXPECT_TRUE(state_delta_json(b, c));  // a rematch: game and version both change
  // Fields added, dropped or reordered: no delta (the full state goes).
  EXPECT_FALSE(state_delta_json(a, R"({"type":"state","game":1,"version":4})"));
  EXPECT_FALSE(state_delta_json(a, R"({"type":"state","version":4,"game":1,"turn":"fire"})"));
  EXPECT_FALSE(state_delta_json(a, "not json"));
  EXPECT_FALSE(apply_state_delta(a, R"({"type":"delta","base":[1,3],"set":{"turn":)"));
  EXPECT_FALSE(apply_state_delta(
      R"({"game":1,"version":3,"board":{"pieces":[]}})",
      R"({"type":"delta","base":[1,3],"set":{},"board":{"remove":[0],"insert":[]}})"));
}

TEST(ShortActions, EveryKindHasAShortFormThatGivesBackTheSameText) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"kind":"step","from":[1,5],"to":[0,4]})", "1,5-0,4"},
      {R"({"kind":"jump","from":[2,2],"to":[4,4]})", "2,2x4,4"},
      {R"({"kind":"step","from":[10,11],"to":[9,0]})", "10,11-9,0"},
      {R"({"kind":"end_turn"})", "end"},
      {R"({"kind":"drop","column":3,"piece":"normal"})", "d3"},
      {R"({"kind":"drop","column":11,"piece":"bomb"})", "d11b"},
      {R"({"kind":"detonate","at":[3,4]})", "*3,4"},
  };
  for (const auto& [object, short_form] : cases) {
    EXPECT_EQ(short_action(object), short_form) << object;
    EXPECT_EQ(long_action(short_form), object) << short_form;
  }
}

TEST(ShortActions, TextsThatAreNotExactlyAnActionKeepTheirObject) {
  for (const char* object : {R"({"kind":"step","from":[1,5],"to":[0,4],"x":1})",  // a field more
                             R"({"kind":"step","to":[0,4],"from":[1,5]})",        // another order
                             R"({"kind":"step", "from":[1,5],"to":[0,4]})",       // spacing
                             R"({"kind":"step","from":[01,5],"to":[0,4]})",       // a leading zero
                             R"({"kind":"drop","column":3,"piece":"shield"})",    // no such drop
                             R"({"kind":"castle"})", R"(["step"])", "1", ""}) {
    EXPECT_FALSE(short_action(object)) << object;
  }
  for (const char* bad : {"", "end_turn", "1,5", "1,5-0", "1,5-0,4,2", "a,b-c,d", "d", "db", "d-1",
                          "*3", "*3,", "1,5+0,4", "0001,5-0,4"}) {
    EXPECT_FALSE(long_action(bad)) << bad;
  }
}

TEST(ShortActions, ADeltaWritesLegalAndLastActionsShortAndApplyingWritesThemOut) {
  const std::string a =
      R"({"type":"state","game":1,"version":3,"turn":"fire",)"
      R"("legal":[{"kind":"step","from":[1,5],"to":[0,4]},{"kind":"end_turn"}],"last":null})";
  const std::string b =
      R"({"type":"state","game":1,"version":4,"turn":"water",)"
      R"("legal":[{"kind":"jump","from":[2,2],"to":[4,4]},{"kind":"odd"}],)"
      R"("last":{"side":"fire","actions":[{"kind":"step","from":[1,5],"to":[0,4]}],"complete":true}})";
  auto d = state_delta_json(a, b, ActionForm::Short);
  ASSERT_TRUE(d);
  EXPECT_EQ(*d, R"({"type":"delta","base":[1,3],"set":{"version":4,"turn":"water",)"
                R"("legal":["2,2x4,4",{"kind":"odd"}],)"
                R"("last":{"side":"fire","actions":["1,5-0,4"],"complete":true}}})");
  EXPECT_EQ(apply_state_delta(a, *d), b);
  // Back to null, and a short form that stands for no action.
  auto back = state_delta_json(b, a, ActionForm::Short);
  ASSERT_TRUE(back);
  EXPECT_EQ(apply_state_delta(b, *back), a);
  EXPECT_FALSE(apply_state_delta(a, R"({"type":"delta","base":[1,3],"set":{"legal":["1,5"]}})"));
}

// Plays random games in one room and checks what every member would hold: a compact member that
// is sent a delta applies it to the state it had, and must get exactly the state sent to everyone
// else. A and B play, C watches, all three compact (A and C with short actions); D watches with
// full states; more spectators
// come (compact or not) and go, players ask for the state again, offer draws, and play rematches.
class RandomRoom {
 public:
  RandomRoom(VariantId v, std::uint64_t seed) : rng_(seed) {
    CreateMsg create;
    create.variant = std::string(variant_key(v));
    room_.emplace(
        "K7QF2M", std::get<GameSetup>(resolve_create(create)), Limits{},
        [n = 0]() mutable { return std::to_string(++n) + std::string(31, '0'); }, seed);
    room_->set_compact(A, StateForm::ShortDelta);
    deliver(A, room_->seat_creator(A, "Ann", SeatChoice{SeatKind::Side, Side::First}, {}));
    join(B, "any", StateForm::Delta);
    join(C, "spectator", StateForm::ShortDelta);
    join(D, "spectator", StateForm::Full);
  }

  // One random request; false once `games` games have ended.
  void play(int games) {
    while (finished_ < games) step();
  }
  int deltas = 0, fulls = 0, short_deltas = 0;

 private:
  static constexpr MemberId A = 1, B = 2, C = 3, D = 4;

  void step() {
    const Game& g = room_->game();
    if (g.over()) {
      ++finished_;
      send(A, RematchMsg{});
      send(B, RematchMsg{});
      return;
    }
    const int roll = static_cast<int>(rng_() % 100);
    const MemberId mover = room_->seat_of(A) == g.turn() ? A : B;
    if (roll < 3) {
      send(roll == 0 ? A : C, SyncMsg{});
    } else if (roll < 5) {
      join(next_member_++, "spectator", static_cast<StateForm>(rng_() % 3));
    } else if (roll < 7 && !spectators_.empty()) {
      const MemberId m = spectators_.back();
      spectators_.pop_back();
      if (roll == 5) {
        send(m, LeaveMsg{});
      } else {
        deliver(m, room_->disconnect(m));
      }
    } else if (roll < 8 && room_->version() > 0) {
      send(mover, OfferDrawMsg{});
      send(mover == A ? B : A, AnswerDrawMsg{false});
    } else if (steps_in_game_++ > 400) {
      steps_in_game_ = 0;
      send(mover, ResignMsg{});
    } else {
      const auto legal = g.legal();
      send(mover, ActMsg{legal[rng_() % legal.size()], room_->version()});
    }
  }

  void join(MemberId m, const char* seat, StateForm form) {
    JoinMsg j;
    j.room = "K7QF2M";
    j.seat = seat;
    j.compact = form;
    send(m, j);
    if (std::string(seat) == "spectator" && m > D) spectators_.push_back(m);
    if (form != StateForm::Full) form_[m] = form;
  }

  void send(MemberId m, MessageBody body) {
    deliver(m, room_->handle(m, ClientMessage{{}, std::move(body)}));
  }

  // What RoomHost::dispatch does with the members' connections, and what each client would do.
  void deliver(MemberId sender, const Outcome& o) {
    if (o.sender == Membership::Joined) members_.insert(sender);
    if (o.sender == Membership::Left) members_.erase(sender);
    for (const auto& out : o.messages) {
      const auto& full = out.full();
      const bool state = full->starts_with(R"({"type":"state")");
      if (out.to) {
        if (state) held_[*out.to] = *full;
        if (out.detach) members_.erase(*out.to);
        continue;
      }
      for (MemberId m : members_) {
        const auto& text = out.text_for(m);
        if (text != out.delta.text && text != out.short_delta.text) {
          if (state) held_[m] = *text;
          ++fulls;
          continue;
        }
        ASSERT_TRUE(form_.count(m)) << "a delta for member " << m << ", who asked for none";
        const bool short_form = text == out.short_delta.text;
        ASSERT_EQ(short_form, form_[m] == StateForm::ShortDelta) << "member " << m;
        short_deltas += short_form;
        // The room's delta, made from values, is the one the texts make.
        ASSERT_EQ(
            state_delta_json(held_[m], *full, short_form ? ActionForm::Short : ActionForm::Object),
            *text);
        auto next = apply_state_delta(held_[m], *text);
        ASSERT_TRUE(next) << "member " << m << " cannot apply " << *text << "\nto " << held_[m];
        ASSERT_EQ(*next, *full) << "the delta " << *text;
        held_[m] = std::move(*next);
        ++deltas;
      }
    }
  }

  std::mt19937_64 rng_;
  std::optional<Room> room_;
  std::set<MemberId> members_;
  std::map<MemberId, StateForm> form_{
      {A, StateForm::ShortDelta}, {B, StateForm::Delta}, {C, StateForm::ShortDelta}};
  std::map<MemberId, std::string> held_;
  std::vector<MemberId> spectators_;
  MemberId next_member_ = D + 1;
  int finished_ = 0, steps_in_game_ = 0;
};

// Each variant's games in kShards tests of their own seeds, so that the long bomb games do not make
// one test that runs near its limit on a busy machine.
class DeltaEveryVariant : public ::testing::TestWithParam<std::tuple<VariantId, int>> {};

// 1,200 games over the four variants in optimized builds (about 25 s, 18 of them the long bomb
// games); ASan, 5-10 times slower, plays a sixth of them, and TSan, 30 times slower on this
// single-threaded test, a twenty-fifth (all 300 took clang ASan 174 s for bomb alone).
constexpr int kShards = 4;
constexpr int kGamesPerShard = bc::test::kTsan ? 3 : bc::test::kAsan ? 12 : 75;

TEST_P(DeltaEveryVariant, DeltasOfRandomGamesRebuildEveryStateByteForByte) {
  const auto [variant, shard] = GetParam();
  RandomRoom room(variant, 20261124 + 100 * static_cast<int>(variant) + shard);
  room.play(kGamesPerShard);
  EXPECT_GT(room.deltas, 10 * kGamesPerShard);
  EXPECT_GT(room.short_deltas, 5 * kGamesPerShard);  // A's and C's
  EXPECT_GT(room.fulls, kGamesPerShard);             // D's, and each newcomer's first
}

INSTANTIATE_TEST_SUITE_P(AllVariants, DeltaEveryVariant,
                         ::testing::Combine(::testing::ValuesIn(kAllVariants),
                                            ::testing::Range(0, kShards)),
                         [](const auto& p) {
                           return std::string(variant_key(std::get<0>(p.param))) + "_" +
                                  std::to_string(std::get<1>(p.param) + 1) + "of" +
                                  std::to_string(kShards);
                         });

}  // namespace
}  // namespace bc::server

// The protocol layer: parsing client text (never throwing), resolving create requests in the
// documented order, serializing core values; plus the small pieces (room ids, static paths, rate).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "../support/short_action.hpp"
#include "server/host/metrics.hpp"
#include "server/host/registry.hpp"
#include "server/net/static_files.hpp"
#include "server/room/rate_limit.hpp"
#include "server/wire/json.hpp"
#include "server/wire/limits.hpp"
#include "server/wire/stored.hpp"

namespace bc::server {
namespace {

using json = nlohmann::json;

ParseError parse_error(std::string_view text) {
  auto r = parse_client_message(text);
  if (!std::holds_alternative<ParseError>(r))
    throw std::runtime_error("parsed: " + std::string(text));
  return std::get<ParseError>(r);
}

ClientMessage parse_ok(const json& j) {
  auto r = parse_client_message(j.dump());
  if (auto* e = std::get_if<ParseError>(&r)) throw std::runtime_error(e->error.message);
  return std::get<ClientMessage>(r);
}

ErrorCode create_error(const json& create) {
  auto msg = parse_ok(create);
  auto r = resolve_create(std::get<CreateMsg>(msg.body));
  if (!std::holds_alternative<Error>(r)) return static_cast<ErrorCode>(255);
  return std::get<Error>(r).code;
}

// The fields of every state are written straight into its text; they must be what the JSON trees
// of the other messages dump, byte for byte.
TEST(WireJson, TheStateWritersWriteWhatTheTreesDump) {
  auto written = [](auto write) {
    std::string out;
    Writer w{out};
    write(w);
    return out;
  };
  for (VariantId v : kAllVariants) {
    Options changed = default_options(v);
    changed.draw_turns = 0;
    changed.width = 9;
    changed.connect = 5;
    changed.misere = true;
    changed.superbomb = true;
    for (const Options& o : {default_options(v), changed}) {
      EXPECT_EQ(written([&](Writer& w) { w.options(v, o); }), dump(options_json(v, o)));
    }
    std::vector<std::optional<Result>> results{std::nullopt};
    for (int r = 0; r <= static_cast<int>(Reason::Abandoned); ++r) {
      for (std::optional<Side> winner : {std::optional<Side>(), std::optional<Side>(Side::First),
                                         std::optional<Side>(Side::Second)}) {
        results.push_back(Result{winner, static_cast<Reason>(r)});
      }
    }
    for (const auto& r : results) {
      EXPECT_EQ(written([&](Writer& w) { w.result(v, r); }), dump(result_json(v, r)));
    }
    const std::string invalid_utf8 = "bad \xff\xfe name";
    for (const std::string& name :
         {std::string("Ann"), std::string("Bo\"b \\ {x}"), std::string("Zo\u00eb \u706b"),
          invalid_utf8, std::string("tab\tnew\nline\x01")}) {
      const std::array<std::optional<PlayerView>, 2> players{PlayerView{name, true, std::nullopt},
                                                             PlayerView{"Comp", false, 7}};
      EXPECT_EQ(written([&](Writer& w) { w.players(v, players); }), dump(players_json(v, players)));
      const std::array<std::optional<PlayerView>, 2> one{std::nullopt,
                                                         PlayerView{name, false, std::nullopt}};
      EXPECT_EQ(written([&](Writer& w) { w.players(v, one); }), dump(players_json(v, one)));
    }
    EXPECT_EQ(written([&](Writer& w) { w.bombs(v, {2, 0}); }), dump(bombs_json(v, {2, 0})));
  }
}

// The short forms a state's writer gives straight from actions are what shortening the action
// objects it writes gives, for every kind and for numbers too long for a short form.
TEST(WireJson, ShortActionsFromActionsAreThoseReadFromTheirTexts) {
  std::vector<Action> actions{Action::end_turn()};
  for (int n : {0, 7, 10, 999, 1000, -1}) {
    actions.push_back(Action::step({n, 1}, {2, n}));
    actions.push_back(Action::jump({3, n}, {n, 5}));
    actions.push_back(Action::detonate({n, 4}));
    for (Kind k : {Kind::Normal, Kind::Shield, Kind::Bomb}) actions.push_back(Action::drop(n, k));
  }
  std::string written, expected = "[";
  Writer{written}.short_actions(actions);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (i) expected += ',';
    const std::string object = action_json(actions[i]);
    if (auto s = short_action(object)) {
      expected += '"' + *s + '"';
    } else {
      expected += object;
    }
  }
  expected += ']';
  EXPECT_EQ(written, expected);
  EXPECT_NE(written.find(R"({"kind":"drop","column":7,"piece":"shield"})"), std::string::npos)
      << "a shield drop has no short form";
}

// `act`, most of what clients send, is read without a JSON tree when it has the common narrow
// form; every text either way means exactly what the tree reads, and anything outside that form
// (escapes, floats, negative or long numbers, keys twice or unknown) is left to the tree.
TEST(Parse, ActReadWithoutATreeIsWhatTheTreeReads) {
  const std::vector<std::string> taken{
      R"({"type":"act","action":{"kind":"step","from":[1,2],"to":[0,3]},"version":12})",
      R"({"version":0,"action":{"to":[7,7],"kind":"jump","from":[5,5]},"type":"act","id":7})",
      R"( { "type" : "act" , "id" : "m-41" , "action" : { "kind" : "end_turn" } , "version" : 3 , "lag" : 120 } )",
      R"({"type":"act","action":{"kind":"drop","column":3},"version":5,"id":18446744073709551})",
      R"({"type":"act","action":{"kind":"drop","column":3,"piece":"bomb"},"version":5})",
      R"({"type":"act","action":{"kind":"detonate","at":[2,4]},"version":9,"lag":0})",
  };
  for (const auto& text : taken) {
    auto fast = parse_act_fast(text);
    ASSERT_TRUE(fast) << text;
    auto tree = parse_client_message_tree(text);
    auto* t = std::get_if<ClientMessage>(&tree);
    ASSERT_TRUE(t) << text;
    EXPECT_EQ(fast->id, t->id) << text;
    const auto& a = std::get<ActMsg>(fast->body);
    const auto& b = std::get<ActMsg>(t->body);
    EXPECT_EQ(a.action, b.action) << text;
    EXPECT_EQ(a.version, b.version) << text;
    EXPECT_EQ(a.lag, b.lag) << text;
  }
  const std::vector<std::string> left{
      R"({"type":"act","action":{"kind":"step","from":[1,2],"to":[0,3]}})",
      R"({"type":"act","action":{"kind":"step","from":[1,2],"to":[0,3]},"version":1.0})",
      R"({"type":"act","action":{"kind":"step","from":[-1,2],"to":[0,3]},"version":1})",
      R"({"type":"act","action":{"kind":"step","from":[1,2],"to":[0,3]},"version":01})",
      R"({"type":"act","action":{"kind":"step","from":[1,2],"to":[0,3],"at":[1,1]},"version":1})",
      R"({"type":"act","action":{"kind":"fly","from":[1,2],"to":[0,3]},"version":1})",
      R"({"type":"act","action":{"kind":"drop","column":3,"piece":"rock"},"version":1})",
      R"({"type":"act","action":{"kind":"end_turn"},"version":1,"version":2})",
      R"({"type":"act","action":{"kind":"end_turn"},"version":1,"lag":60001})",
      R"({"type":"act","action":{"kind":"end_turn"},"version":1,"lag":null})",
      R"({"type":"act","action":{"kind":"end_turn"},"version":1,"id":"a\"b"})",
      R"({"type":"act","action":{"kind":"end_turn"},"version":1,"id":-4})",
      R"({"type":"act","action":{"kind":"end_turn"},"version":1,"room":"K7QF2M"})",
      R"({"type":"chat","action":{"kind":"end_turn"},"version":1})",
      R"({"type":"act","action":{"kind":"end_turn"},"version":1}x)",
      R"({"type":"act","action":{"kind":"end_turn"},"version":1)",
      "{\"type\":\"act\",\"action\":{\"kind\":\"end_turn\"},\"version\":1,\"id\":\"\xc3\xa9\"}",
  };
  for (const auto& text : left) EXPECT_FALSE(parse_act_fast(text)) << text;
}

TEST(Parse, NotJsonIsABadMessage) {
  for (std::string_view t : {"", "{", "not json", "{\"type\":\"chat\",}", "\xff\xfe"}) {
    EXPECT_EQ(parse_error(t).error.code, ErrorCode::BadMessage) << t;
  }
}

TEST(Parse, NotAnObjectOrNoStringTypeIsABadMessage) {
  for (std::string_view t : {"[]", "42", "\"act\"", "null", "{}", "{\"type\":5}", "{\"type\":null}",
                             "{\"type\":[\"act\"]}"}) {
    EXPECT_EQ(parse_error(t).error.code, ErrorCode::BadMessage) << t;
  }
}

TEST(Parse, UnknownTypeKeepsTheId) {
  auto e = parse_error(R"({"type":"dance","id":"x1"})");
  EXPECT_EQ(e.error.code, ErrorCode::UnknownType);
  EXPECT_EQ(std::get<std::string>(e.id), "x1");
  json reply = json::parse(error_json(e.id, e.error, e.type));
  EXPECT_EQ(reply["type"], "error");
  EXPECT_EQ(reply["code"], "unknown_type");
  EXPECT_EQ(reply["id"], "x1");
  EXPECT_FALSE(reply["message"].get<std::string>().empty());
}

TEST(Parse, NumericIdsSurvive) {
  EXPECT_EQ(std::get<std::int64_t>(parse_error(R"({"type":"x","id":-3})").id), -3);
  EXPECT_EQ(std::get<std::uint64_t>(parse_error(R"({"type":"x","id":7})").id), 7u);
  json reply = json::parse(ok_json(RequestId{std::uint64_t{7}}, "act"));
  EXPECT_EQ(reply["id"], 7);
}

TEST(Parse, WrongFieldTypesAreBadMessages) {
  for (std::string_view t : {
           R"({"type":"create"})",  // no variant
           R"({"type":"create","variant":3})",
           R"({"type":"create","variant":"bomb","options":[1]})",
           R"({"type":"create","variant":"bomb","name":{}})",
           R"({"type":"join"})",  // no room
           R"({"type":"join","room":"ABCDEF","token":5})",
           R"({"type":"act","version":0})",                                       // no action
           R"({"type":"act","action":{"kind":"step","from":[1,2],"to":[2,3]}})",  // no version
           R"({"type":"act","action":{"kind":"step","from":[1,2],"to":[2,3]},"version":"0"})",
           R"({"type":"act","action":{"kind":"step","from":[1],"to":[2,3]},"version":0})",
           R"({"type":"act","action":{"kind":"step","from":["a",2],"to":[2,3]},"version":0})",
           R"({"type":"act","action":"step","version":0})",
           R"({"type":"act","action":{"kind":1},"version":0})",
           R"({"type":"act","action":{"kind":"drop"},"version":0})",
           R"({"type":"act","action":{"kind":"drop","column":1.5},"version":0})",
           R"({"type":"act","action":{"kind":"detonate","at":null},"version":0})",
           R"({"type":"act","action":{"kind":"step","from":[1,2],"to":[2,3]},"version":1e400})",
           R"({"type":"answer_draw"})",
           R"({"type":"chat"})",
           R"({"type":"chat","text":["hi"]})",
       }) {
    EXPECT_EQ(parse_error(t).error.code, ErrorCode::BadMessage) << t;
  }
}

TEST(Parse, HugeNumbersDoNotWrap) {
  EXPECT_EQ(
      parse_error(
          R"({"type":"act","action":{"kind":"step","from":[99999999999,2],"to":[2,3]},"version":0})")
          .error.code,
      ErrorCode::BadMessage);
  EXPECT_EQ(
      parse_error(R"({"type":"act","action":{"kind":"end_turn"},"version":18446744073709551615})")
          .error.code,
      ErrorCode::BadMessage);
}

TEST(Parse, UnknownFieldsAreIgnored) {
  auto m = parse_ok({{"type", "chat"}, {"text", "hi"}, {"colour", "red"}});
  EXPECT_EQ(std::get<ChatMsg>(m.body).text, "hi");
}

TEST(Parse, CompactIsABooleanOrTheLevel0To2) {
  const std::pair<json, StateForm> cases[] = {
      {nullptr, StateForm::Full}, {false, StateForm::Full}, {true, StateForm::Delta},
      {0, StateForm::Full},       {1, StateForm::Delta},    {2, StateForm::ShortDelta}};
  for (const auto& [value, form] : cases) {
    auto join = parse_ok({{"type", "join"}, {"room", "K7QF2M"}, {"compact", value}});
    EXPECT_EQ(std::get<JoinMsg>(join.body).compact, form) << value;
    auto create = parse_ok({{"type", "create"}, {"variant", "bomb"}, {"compact", value}});
    EXPECT_EQ(std::get<CreateMsg>(create.body).compact, form) << value;
  }
  for (const json& bad : {json(3), json(-1), json(1.5), json("2"), json::array()}) {
    const auto e = parse_error(json{{"type", "join"}, {"room", "K7QF2M"}, {"compact", bad}}.dump());
    EXPECT_EQ(e.error.code, ErrorCode::BadMessage) << bad;
    EXPECT_NE(e.error.message.find("compact"), std::string::npos) << e.error.message;
  }
}

TEST(Parse, AnActionOfUnknownKindIsWellFormedButNamesNothing) {
  auto m = parse_ok({{"type", "act"}, {"action", {{"kind", "teleport"}}}, {"version", 3}});
  const auto& a = std::get<ActMsg>(m.body);
  EXPECT_FALSE(a.action.has_value());
  EXPECT_EQ(a.version, 3);
}

TEST(Parse, EveryRequestType) {
  EXPECT_EQ(message_type(parse_ok({{"type", "create"}, {"variant", "bomb"}}).body), "create");
  EXPECT_EQ(message_type(parse_ok({{"type", "join"}, {"room", "X"}}).body), "join");
  EXPECT_EQ(message_type(parse_ok({{"type", "resign"}}).body), "resign");
  EXPECT_EQ(message_type(parse_ok({{"type", "offer_draw"}}).body), "offer_draw");
  EXPECT_EQ(message_type(parse_ok({{"type", "answer_draw"}, {"accept", false}}).body),
            "answer_draw");
  EXPECT_EQ(message_type(parse_ok({{"type", "rematch"}}).body), "rematch");
  EXPECT_EQ(message_type(parse_ok({{"type", "leave"}}).body), "leave");
  EXPECT_EQ(message_type(parse_ok({{"type", "sync"}}).body), "sync");
  auto j = std::get<JoinMsg>(parse_ok({{"type", "join"}, {"room", "X"}}).body);
  EXPECT_EQ(j.seat, "any") << "join defaults to any seat";
  auto c = std::get<CreateMsg>(parse_ok({{"type", "create"}, {"variant", "bomb"}}).body);
  EXPECT_EQ(c.seat, "random") << "create defaults to a random seat";
}

TEST(Parse, DeepNestingIsRefusedNotFatal) {
  std::string deep(4000, '[');
  EXPECT_EQ(parse_error(deep).error.code, ErrorCode::BadMessage);
  std::string nested = R"({"type":"chat","text":"x","junk":)" + std::string(2000, '[') +
                       std::string(2000, ']') + "}";
  EXPECT_NO_THROW(parse_client_message(nested));
}

// The texts of actions and pieces, byte for byte as docs/PROTOCOL.md writes them (states compose
// them on the stack, not through the writer's appends).
TEST(Actions, TheirTextsAreExactlyThoseOfTheProtocol) {
  EXPECT_EQ(action_json(Action::step({1, 2}, {2, 3})),
            R"({"kind":"step","from":[1,2],"to":[2,3]})");
  EXPECT_EQ(action_json(Action::jump({2, 2}, {4, 4})),
            R"({"kind":"jump","from":[2,2],"to":[4,4]})");
  EXPECT_EQ(action_json(Action::end_turn()), R"({"kind":"end_turn"})");
  EXPECT_EQ(action_json(Action::drop(3, Kind::Bomb)),
            R"({"kind":"drop","column":3,"piece":"bomb"})");
  EXPECT_EQ(action_json(Action::detonate({4, 0})), R"({"kind":"detonate","at":[4,0]})");
  EXPECT_EQ(action_json(Action::step({-2147483647 - 1, 2147483647}, {0, 0})),
            R"({"kind":"step","from":[-2147483648,2147483647],"to":[0,0]})");
  for (VariantId v : kAllVariants) {
    const Game g = std::get<Game>(Game::create(v, default_options(v)));
    StateView view;
    view.room = "K7QF2M";
    view.game = &g;
    std::string pieces;
    Writer{pieces}.pieces(v, g.pieces());
    EXPECT_NE(state_json(view).find(R"("pieces":)" + pieces + "}"), std::string::npos)
        << variant_key(v);
  }
}

TEST(Actions, RoundTripEveryKind) {
  for (const Action& a :
       {Action::step({1, 2}, {2, 3}), Action::jump({2, 2}, {4, 4}), Action::end_turn(),
        Action::drop(3, Kind::Bomb), Action::drop(0, Kind::Normal), Action::detonate({4, 0})}) {
    auto text = action_json(a);
    auto back = parse_action_text(text);
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(*back, a) << text;
  }
  EXPECT_EQ(json::parse(action_json(Action::step({1, 2}, {2, 3}))),
            json({{"kind", "step"}, {"from", {1, 2}}, {"to", {2, 3}}}));
  EXPECT_EQ(json::parse(action_json(Action::drop(3, Kind::Bomb))),
            json({{"kind", "drop"}, {"column", 3}, {"piece", "bomb"}}));
}

// ---------------------------------------------------------------------------------------------
// create: unknown_variant -> bad_options -> bad_position

TEST(Create, UnknownVariant) {
  EXPECT_EQ(create_error({{"type", "create"}, {"variant", "chess"}}), ErrorCode::UnknownVariant);
  // Checked before the options and the position.
  EXPECT_EQ(
      create_error(
          {{"type", "create"}, {"variant", "chess"}, {"options", {{"x", 1}}}, {"position", 5}}),
      ErrorCode::UnknownVariant);
}

TEST(Create, BadOptions) {
  EXPECT_EQ(create_error({{"type", "create"}, {"variant", "bomb"}, {"options", {{"width", 9}}}}),
            ErrorCode::BadOptions)
      << "bomb has no width";
  EXPECT_EQ(
      create_error({{"type", "create"}, {"variant", "kaboom"}, {"options", {{"width", 1000}}}}),
      ErrorCode::BadOptions);
  EXPECT_EQ(
      create_error({{"type", "create"}, {"variant", "kaboom"}, {"options", {{"width", "7"}}}}),
      ErrorCode::BadOptions);
  EXPECT_EQ(create_error({{"type", "create"}, {"variant", "kaboom"}, {"options", {{"misere", 1}}}}),
            ErrorCode::BadOptions);
  EXPECT_EQ(
      create_error({{"type", "create"}, {"variant", "kaboom"}, {"options", {{"bombs", true}}}}),
      ErrorCode::BadOptions);
  // Options are checked before the position.
  EXPECT_EQ(
      create_error(
          {{"type", "create"}, {"variant", "bomb"}, {"options", {{"nope", 1}}}, {"position", 5}}),
      ErrorCode::BadOptions);
}

TEST(Create, GoodOptionsAreApplied) {
  auto msg = parse_ok({{"type", "create"},
                       {"variant", "kaboom"},
                       {"options", {{"width", 8}, {"height", 7}, {"misere", true}}}});
  auto r = resolve_create(std::get<CreateMsg>(msg.body));
  ASSERT_TRUE(std::holds_alternative<GameSetup>(r));
  const auto& s = std::get<GameSetup>(r);
  EXPECT_EQ(s.options.width, 8);
  EXPECT_EQ(s.options.height, 7);
  EXPECT_TRUE(s.options.misere);
  EXPECT_EQ(s.game.width(), 8);
}

TEST(Create, BadPositions) {
  auto bad = [](const json& pos, const char* variant = "bomb") {
    return create_error({{"type", "create"}, {"variant", variant}, {"position", pos}});
  };
  EXPECT_EQ(bad(5), ErrorCode::BadPosition);
  EXPECT_EQ(bad(json::object()), ErrorCode::BadPosition) << "no pieces";
  EXPECT_EQ(bad({{"pieces", {{{"at", {1, 1}}}}}}), ErrorCode::BadPosition) << "no side";
  EXPECT_EQ(bad({{"pieces", {{{"at", {1, 1}}, {"side", "black"}}}}}), ErrorCode::BadPosition)
      << "not a side of bomb";
  EXPECT_EQ(bad({{"pieces", {{{"at", {1, 1}}, {"side", "fire"}, {"kind", "rock"}}}}}),
            ErrorCode::BadPosition);
  EXPECT_EQ(
      bad({{"pieces", {{{"at", {0, 1}}, {"side", "fire"}}, {{"at", {3, 3}}, {"side", "water"}}}}}),
      ErrorCode::BadPosition)
      << "not a playable square";
  EXPECT_EQ(
      bad({{"pieces", {{{"at", {8, 0}}, {"side", "fire"}}, {{"at", {3, 3}}, {"side", "water"}}}}}),
      ErrorCode::BadPosition)
      << "off the board";
  EXPECT_EQ(
      bad({{"pieces", {{{"at", {2, 2}}, {"side", "fire"}}, {{"at", {2, 2}}, {"side", "water"}}}}}),
      ErrorCode::BadPosition)
      << "overlap";
  EXPECT_EQ(
      bad({{"turn", "purple"},
           {"pieces", {{{"at", {2, 2}}, {"side", "fire"}}, {{"at", {5, 5}}, {"side", "water"}}}}}),
      ErrorCode::BadPosition);
  EXPECT_EQ(bad({{"pieces", {{{"at", {0, 1}}, {"side", "x"}}, {{"at", {1, 0}}, {"side", "o"}}}}},
                "kaboom"),
            ErrorCode::BadPosition)
      << "a floating kaboom piece";
  EXPECT_EQ(bad({{"pieces", json::array()}, {"bombs", {{"z", 1}}}}, "kaboom"),
            ErrorCode::BadPosition);
}

TEST(Create, GoodPositionIsTheStart) {
  json pos = {
      {"turn", "o"},
      {"bombs", {{"x", 0}, {"o", 2}}},
      {"pieces",
       {{{"at", {0, 0}}, {"side", "x"}}, {{"at", {0, 1}}, {"side", "o"}, {"kind", "bomb"}}}}};
  auto msg = parse_ok({{"type", "create"}, {"variant", "kaboom"}, {"position", pos}});
  auto r = resolve_create(std::get<CreateMsg>(msg.body));
  ASSERT_TRUE(std::holds_alternative<GameSetup>(r)) << std::get<Error>(r).message;
  const auto& s = std::get<GameSetup>(r);
  EXPECT_EQ(s.game.turn(), Side::Second);
  EXPECT_EQ(s.game.bombs_left(), (std::array<int, 2>{0, 2}));
  EXPECT_EQ(s.game.pieces().size(), 2u);
  EXPECT_EQ(fresh_game(s), s.game);
}

TEST(Create, Seats) {
  EXPECT_EQ(std::get<SeatChoice>(resolve_seat(VariantId::Bomb, "water", true)).side, Side::Second);
  EXPECT_EQ(std::get<SeatChoice>(resolve_seat(VariantId::Classic, "black", true)).side,
            Side::First);
  EXPECT_EQ(std::get<SeatChoice>(resolve_seat(VariantId::Bomb, "random", true)).kind,
            SeatKind::Random);
  EXPECT_EQ(std::get<SeatChoice>(resolve_seat(VariantId::Bomb, "any", false)).kind, SeatKind::Any);
  EXPECT_EQ(std::get<SeatChoice>(resolve_seat(VariantId::Bomb, "spectator", false)).kind,
            SeatKind::Spectator);
  EXPECT_EQ(std::get<Error>(resolve_seat(VariantId::Bomb, "black", true)).code,
            ErrorCode::BadMessage);
}

// ---------------------------------------------------------------------------------------------
// Server messages

TEST(Welcome, NamesTheNodeOnlyInACluster) {
  EXPECT_FALSE(json::parse(welcome_json(Limits{})).contains("node")) << "one node: as before";
  EXPECT_EQ(json::parse(welcome_json(Limits{}, "node-b"))["node"], "node-b");
}

TEST(Welcome, ListsEveryVariantWithItsOptions) {
  json w = json::parse(welcome_json(Limits{}));
  EXPECT_EQ(w["type"], "welcome");
  EXPECT_EQ(w["protocol"], 1);
  EXPECT_EQ(w["server"]["name"], "bombcheckers");
  ASSERT_EQ(w["variants"].size(), kAllVariants.size());
  for (std::size_t i = 0; i < kAllVariants.size(); ++i) {
    const auto v = kAllVariants[i];
    const json& j = w["variants"][i];
    EXPECT_EQ(j["id"], variant_key(v));
    EXPECT_EQ(j["name"], variant_title(v));
    EXPECT_EQ(j["sides"], json({side_name(v, Side::First), side_name(v, Side::Second)}));
    // The page offers PDN or the text record from this, not from a list of its own.
    EXPECT_EQ(j["notation"], v == VariantId::Kaboom ? "text" : "pdn");
    // And draws and plays it by its family, not by its id.
    EXPECT_EQ(j["family"], is_checkers(v) ? "checkers" : "connect");
    auto specs = option_specs(v);
    ASSERT_EQ(j["options"].size(), specs.size());
    for (std::size_t k = 0; k < specs.size(); ++k) {
      const json& o = j["options"][k];
      EXPECT_EQ(o["name"], specs[k].name);
      EXPECT_EQ(o["type"], specs[k].type == OptionType::Bool ? "bool" : "int");
      EXPECT_EQ(o["min"], specs[k].min);
      EXPECT_EQ(o["max"], specs[k].max);
      if (specs[k].type == OptionType::Bool) {
        EXPECT_EQ(o["default"], specs[k].def != 0);
      } else {
        EXPECT_EQ(o["default"], specs[k].def);
      }
    }
  }
  EXPECT_EQ(w["limits"]["max_message_bytes"], 8192);
  EXPECT_EQ(w["limits"]["creates_per_address_per_minute"], 10);
  EXPECT_EQ(w["limits"]["joins_per_address_per_minute"], 60);
  EXPECT_EQ(w["limits"]["chat_burst"], 5);
  EXPECT_EQ(w["limits"]["chat_max_chars"], 500);
}

// The state is written straight into text (no JSON tree): over random games of every variant, with
// every optional part present or not, it is valid JSON in the library's own compact form, and its
// board and legal list are the game's.
TEST(State, WrittenTextIsCompactJsonOfTheGame) {
  std::mt19937 rng(11);
  for (VariantId v : kAllVariants) {
    Game g = std::get<Game>(Game::create(v, default_options(v)));
    std::optional<LastTurn> last;
    for (int ply = 0; ply < 120 && !g.over(); ++ply) {
      const auto legal = g.legal();
      const Action a = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
      Applied r = g.apply(a).value();
      const Effects& fx = r.effects;
      const Side mover = g.turn();
      g = r.next;
      if (!last || last->complete) last = LastTurn{};
      last->side = mover;
      last->actions.push_back(a);
      last->captured.insert(last->captured.end(), fx.captured.begin(), fx.captured.end());
      last->exploded.insert(last->exploded.end(), fx.exploded.begin(), fx.exploded.end());
      last->promoted.insert(last->promoted.end(), fx.promoted.begin(), fx.promoted.end());
      last->complete = fx.turn_over;

      StateView view;
      view.room = "ABCDEF";
      view.game = &g;
      view.version = ply + 1;
      view.status = ply % 9 == 0 ? RoomStatus::Waiting : RoomStatus::Playing;
      view.last = ply % 5 == 0 ? nullptr : &last;
      view.players[0] = PlayerView{"Ann \"the\" \xff\n", true, std::nullopt};
      if (ply % 3)
        view.players[1] = PlayerView{"Bob", false, ply % 2 ? std::optional<int>(4) : std::nullopt};
      view.spectators = ply % 4;
      view.moves = ply / 2;
      view.game_number = 1 + ply % 3;
      if (ply % 7 == 0) view.draw_offer = Side::Second;
      view.rematch = {ply % 2 == 0, ply % 3 == 0};
      const std::string text = state_json(view);
      const auto parsed = nlohmann::ordered_json::parse(text, nullptr, false);
      ASSERT_FALSE(parsed.is_discarded()) << text;
      ASSERT_EQ(parsed.dump(), text);
      ASSERT_EQ(parsed["version"], ply + 1);
      ASSERT_EQ(parsed["board"]["pieces"].size(), g.pieces().size());
      if (view.status == RoomStatus::Playing) {
        const auto now = g.legal();
        ASSERT_EQ(parsed["legal"].size(), now.size());
        for (std::size_t i = 0; i < now.size(); ++i) {
          ASSERT_EQ(parsed["legal"][i].dump(), action_json(now[i]));
        }
      } else {
        ASSERT_TRUE(parsed["legal"].empty());
      }
      ASSERT_EQ(parsed["players"][std::string(side_name(v, Side::First))]["name"],
                "Ann \"the\" \xef\xbf\xbd\n");
      ASSERT_EQ(parsed["last"].is_null(), view.last == nullptr);
      ASSERT_EQ(parsed.contains("bombs"), v == VariantId::Kaboom);
    }
  }
}

TEST(Text, CleanStripsControlsAndTrims) {
  EXPECT_EQ(clean_text("  a\tb\nc\x7f\u0085d  "), "abcd");
  EXPECT_EQ(clean_text("h\xc3\xa9llo"), "h\xc3\xa9llo");
  EXPECT_EQ(clean_text("\xff"), "\xef\xbf\xbd") << "invalid UTF-8 becomes U+FFFD";
  EXPECT_EQ(utf8_length("\u20ac\u20acx"), 3u);
  EXPECT_EQ(clean_name("", 32), "Anonymous");
  EXPECT_EQ(clean_name("\u20ac\u20ac\u20ac", 2), "\u20ac\u20ac");
}

TEST(Text, InvalidUtf8NeverBreaksSerialization) {
  json message;
  EXPECT_NO_THROW(message = json::parse(chat_json("\xff\xfe", "spectator", "bad \xc3")));
  EXPECT_EQ(message.value("text", ""), "bad \xef\xbf\xbd") << message.dump();
}

// ---------------------------------------------------------------------------------------------
// Room ids, static files, rate limits, metrics

TEST(RoomIds, SixCharsFromTheUnambiguousAlphabet) {
  EXPECT_EQ(kRoomIdAlphabet.find_first_of("0O1IL"), std::string_view::npos);
  for (std::uint64_t bits : {0ull, 1ull, 123456789ull, ~0ull}) {
    auto id = make_room_id(bits);
    EXPECT_EQ(id.size(), 6u);
    EXPECT_EQ(id.find_first_not_of(kRoomIdAlphabet), std::string::npos);
  }
  EXPECT_EQ(normalize_room_id("k7qf2m"), "K7QF2M");
  EXPECT_FALSE(normalize_room_id("K7QF2"));
  EXPECT_FALSE(normalize_room_id("K7QF2O")) << "O is not in the alphabet";
  EXPECT_FALSE(normalize_room_id("../../"));
}

class StaticFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    // The process id: ctest runs each test in a process of its own, several at once, and under
    // TSan (no address randomisation) two that start in the same millisecond had the same seed and
    // `this`, so the same folder (a symlink that "exists", TSan stage of CI).
    base_ = std::filesystem::temp_directory_path() /
            ("bc-static-" + std::to_string(::getpid()) + "-" +
             std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::remove_all(base_);  // one a killed run left behind
    root_ = base_ / "web";
    std::filesystem::create_directories(root_ / "img");
    std::ofstream(root_ / "index.html") << "<html></html>";
    std::ofstream(root_ / "img" / "a.png") << "png";
    std::ofstream(root_ / ".secret") << "hidden";
    std::ofstream(base_ / "outside.txt") << "secret";
    std::filesystem::create_symlink(base_ / "outside.txt", root_ / "link.txt");
    root_ = std::filesystem::canonical(root_);
  }
  void TearDown() override { std::filesystem::remove_all(base_); }
  std::filesystem::path base_, root_;
};

TEST_F(StaticFiles, ServesFilesAndIndexes) {
  EXPECT_EQ(find_static_file(root_, "/").status, StaticLookup::Found);
  EXPECT_EQ(find_static_file(root_, "/").path.filename(), "index.html");
  EXPECT_EQ(find_static_file(root_, "/img/a.png?v=3").status, StaticLookup::Found);
  EXPECT_EQ(find_static_file(root_, "/img/").status, StaticLookup::NotFound)
      << "no index.html there";
  EXPECT_EQ(find_static_file(root_, "/nope.js").status, StaticLookup::NotFound);
  EXPECT_EQ(find_static_file(root_, "/img%2fa.png").status, StaticLookup::Refused);
  EXPECT_EQ(find_static_file(root_, "/im%67/a.png").status, StaticLookup::Found)
      << "ordinary escapes decode";
}

TEST_F(StaticFiles, RefusesEverythingThatCouldLeaveTheRoot) {
  for (std::string_view t :
       {"/../outside.txt", "/img/../../outside.txt", "/%2e%2e/outside.txt", "/%2E%2E/outside.txt",
        "/..%2foutside.txt", "/.%2e/outside.txt", "//etc/passwd", "/..\\outside.txt",
        "/%5c..%5coutside.txt", "/.secret", "/link.txt", "/img/%00", "/%zz", "relative.txt",
        "/c:/windows", "/%"}) {
    EXPECT_NE(find_static_file(root_, t).status, StaticLookup::Found) << t;
  }
}

TEST(ContentTypes, ByExtension) {
  EXPECT_EQ(content_type("a/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type("app.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type("x.CSS"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type("i.svg"), "image/svg+xml");
  EXPECT_EQ(content_type("i.png"), "image/png");
  EXPECT_EQ(content_type("engine/core.wasm"), "application/wasm");
  EXPECT_EQ(content_type("favicon.ico"), "image/x-icon");
  EXPECT_EQ(content_type("d.json"), "application/json");
  EXPECT_EQ(content_type("app.webmanifest"), "application/manifest+json");
  EXPECT_EQ(content_type("blob"), "application/octet-stream");
}

TEST(RateLimit, BurstThenRefill) {
  const auto t0 = TokenBucket::Clock::now();
  TokenBucket b(20, 40, t0);
  int taken = 0;
  for (int i = 0; i < 100; ++i) taken += b.take(t0) ? 1 : 0;
  EXPECT_EQ(taken, 40);
  EXPECT_FALSE(b.take(t0 + std::chrono::milliseconds(10)));
  EXPECT_TRUE(b.take(t0 + std::chrono::milliseconds(60)));  // 1.2 tokens came back
  int later = 0;
  for (int i = 0; i < 100; ++i) later += b.take(t0 + std::chrono::seconds(100)) ? 1 : 0;
  EXPECT_EQ(later, 40) << "never more than the burst";
}

TEST(Metrics, PrometheusText) {
  Metrics m;
  m.refused(ErrorCode::StaleVersion);
  m.refused(ErrorCode::StaleVersion);
  m.actions_accepted = 5;
  m.move_to_broadcast.observe(std::chrono::microseconds(300));
  m.move_to_broadcast.observe(std::chrono::seconds(5));
  RoomCounts rc;
  rc.by_status = {1, 2, 3};
  std::string text = m.prometheus(rc);
  EXPECT_NE(text.find("bc_refusals_total{code=\"stale_version\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("bc_refusals_total{code=\"bad_token\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("bc_actions_accepted_total 5\n"), std::string::npos);
  EXPECT_NE(text.find("bc_rooms{status=\"playing\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("bc_move_broadcast_seconds_bucket{le=\"0.0005\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("bc_move_broadcast_seconds_bucket{le=\"+Inf\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("bc_move_broadcast_seconds_count 2\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE bc_move_broadcast_seconds histogram"), std::string::npos);
}

}  // namespace
}  // namespace bc::server

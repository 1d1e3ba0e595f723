#include "server/players/profiles.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "bc/core.hpp"
#include "bc/players/speed.hpp"

namespace bc::server {

namespace {

using ojson = nlohmann::ordered_json;

constexpr int kRecentGames = 30;
constexpr int kHistoryGames = 500;  // points of the rating chart, per player
constexpr int kTopOfEach = 10;      // the leaderboard of every perf: its best ten

AccountAnswer json_answer(int status, const ojson& j) {
  return AccountAnswer{status, j.dump(), std::nullopt, 0};
}

ojson perf_parts(std::string_view perf) {
  const auto colon = perf.find(':');
  ojson j{{"perf", perf}, {"variant", perf.substr(0, colon)}};
  j["speed"] = colon == std::string_view::npos ? ojson(nullptr) : ojson(perf.substr(colon + 1));
  return j;
}

std::string_view score_word(int score) {
  return score == 2 ? "won" : score == 1 ? "drawn" : "lost";
}

}  // namespace

std::vector<std::string> all_perfs() {
  std::vector<std::string> out;
  for (VariantId v : kAllVariants) {
    for (players::Speed s : players::kSpeeds) {
      out.push_back(std::string(variant_key(v)) + ":" + std::string(players::speed_name(s)));
    }
  }
  return out;
}

AccountAnswer profile_answer(store::Store& store, std::string_view name, std::int64_t now_ms) {
  auto player = store.player_named(Accounts::fold(name));
  if (!player || Accounts::name_problem(name)) {
    return json_answer(404, ojson{{"error", "not_found"}, {"message", "no player of that name"}});
  }
  const auto params = players::Glicko2Params::lichess();
  ojson ratings = ojson::array();
  int wins = 0, draws = 0, losses = 0;
  for (const auto& r : store.ratings(player->id)) {
    const players::Rating rating{r.rating, r.deviation, r.volatility,
                                 r.updated_ms > 0 ? std::optional(r.updated_ms) : std::nullopt};
    const double deviation = players::current_deviation(rating, now_ms, params);
    ojson e = perf_parts(r.perf);
    e["rating"] = std::lround(r.rating);
    e["deviation"] = std::lround(deviation);
    e["provisional"] = deviation >= params.provisional_deviation;
    e["games"] = r.wins + r.draws + r.losses;
    e["wins"] = r.wins;
    e["draws"] = r.draws;
    e["losses"] = r.losses;
    ratings.push_back(std::move(e));
    wins += r.wins;
    draws += r.draws;
    losses += r.losses;
  }
  // The chart: each perf's rating after each game, oldest first.
  std::map<std::string, ojson> history;
  const auto rated = store.rated_games(player->id, "", kHistoryGames);
  for (auto it = rated.rbegin(); it != rated.rend(); ++it) {
    auto& points = history[it->perf];
    if (points.is_null()) points = ojson::array();
    points.push_back(ojson::array({it->ended_ms, std::lround(it->after)}));
  }
  ojson charts = ojson::array();
  for (auto& [perf, points] : history) charts.push_back(ojson{{"perf", perf}, {"points", points}});
  // The latest games, with their opponents' names (a guest has none).
  std::map<std::string, ojson> names;
  ojson games = ojson::array();
  for (std::size_t i = 0; i < rated.size() && i < static_cast<std::size_t>(kRecentGames); ++i) {
    const auto& g = rated[i];
    auto known = names.find(g.opponent);
    if (known == names.end()) {
      auto o = store.player(g.opponent);
      known =
          names.emplace(g.opponent, o && !o->name.empty() ? ojson(o->name) : ojson(nullptr)).first;
    }
    ojson e = perf_parts(g.perf);
    e["room"] = g.room;
    e["game"] = g.game_no;
    e["url"] = "/r/" + g.room;
    e["ended_ms"] = g.ended_ms;
    e["side"] = g.side;
    e["opponent"] = known->second;
    e["result"] = score_word(g.score);
    e["before"] = std::lround(g.before);
    e["after"] = std::lround(g.after);
    games.push_back(std::move(e));
  }
  ojson j{{"name", player->name},
          {"bot", player->bot},
          {"created_ms", player->created_ms},
          {"counts", ojson{{"wins", wins}, {"draws", draws}, {"losses", losses}}},
          {"ratings", std::move(ratings)},
          {"history", std::move(charts)},
          {"games", std::move(games)}};
  return json_answer(200, j);
}

AccountAnswer leaderboard_answer(store::Store& store, std::string_view perf, int limit,
                                 std::int64_t now_ms) {
  const auto params = players::Glicko2Params::lichess();
  // The ranked (a deviation under the provisional bound, as grown to today) and, apart, the best
  // of those still provisional, so that a new server's page is not empty.
  auto board = [&](const std::string& p, int n) {
    ojson ranked = ojson::array();
    ojson provisional = ojson::array();
    for (const auto& r : store.leaderboard(p, params.max_deviation + 1, 1000)) {
      const players::Rating rating{
          r.rating.rating, r.rating.deviation, r.rating.volatility,
          r.rating.updated_ms > 0 ? std::optional(r.rating.updated_ms) : std::nullopt};
      const double deviation = players::current_deviation(rating, now_ms, params);
      auto& list = deviation < params.provisional_deviation ? ranked : provisional;
      if (list.size() >= static_cast<std::size_t>(n)) continue;
      ojson e{{"name", r.name},
              {"rating", std::lround(r.rating.rating)},
              {"deviation", std::lround(deviation)},
              {"games", r.rating.wins + r.rating.draws + r.rating.losses}};
      if (r.bot) e["bot"] = true;
      if (&list == &ranked) e["rank"] = ranked.size() + 1;
      list.push_back(std::move(e));
    }
    ojson j;
    j["players"] = std::move(ranked);
    j["provisional"] = std::move(provisional);
    return j;
  };
  if (!perf.empty()) {
    const auto perfs = all_perfs();
    if (std::find(perfs.begin(), perfs.end(), perf) == perfs.end()) {
      return json_answer(404, ojson{{"error", "not_found"},
                                    {"message",
                                     "no such perf: give a variant and a speed like "
                                     "bomb:blitz"}});
    }
    ojson j = perf_parts(perf);
    ojson b = board(std::string(perf), std::clamp(limit, 1, 200));
    j["players"] = std::move(b["players"]);
    j["provisional"] = std::move(b["provisional"]);
    return json_answer(200, j);
  }
  ojson all = ojson::array();
  for (const auto& p : all_perfs()) {
    ojson b = board(p, kTopOfEach);
    if (b["players"].empty() && b["provisional"].empty()) continue;
    ojson e = perf_parts(p);
    e["players"] = std::move(b["players"]);
    e["provisional"] = std::move(b["provisional"]);
    all.push_back(std::move(e));
  }
  return json_answer(200, ojson{{"leaderboards", std::move(all)}});
}

}  // namespace bc::server

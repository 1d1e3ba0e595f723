#include "server/host/puzzles.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "bc/ai_notation.hpp"
#include "bc/ai_puzzles.hpp"
#include "server/wire/http.hpp"
#include "server/wire/json.hpp"
#include "server/wire/stored.hpp"

namespace bc::server {

namespace {

constexpr int kFormat = 1;

std::string hex(std::uint64_t v, int digits) {
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, v >>= 4)
    out[static_cast<std::size_t>(i)] = "0123456789abcdef"[v & 15];
  return out;
}

// FNV-1a over the text: stable across builds and machines, unlike std::hash.
std::uint64_t fnv(std::string_view text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string kind_of(const Game& start) {
  return ai::puzzle_is_exact(start) ? "kaboom" : "ending";
}

Position position_of(const Game& g) {
  Position p;
  p.pieces = g.pieces();
  p.turn = g.turn();
  p.bombs = g.bombs_left();
  return p;
}

ojson actions_json(const std::vector<Action>& actions) {
  std::string text;
  Writer w{text};
  w.actions(actions);
  return ojson::parse(text);
}

Game after(const Game& g, const Turn& t) {
  Game next = g;
  for (const Action& a : t.actions) next = next.apply(a)->next;
  return next;
}

ojson to_json(const Puzzle& p, bool whole) {
  const Game& start = p.setup.game;
  const VariantId v = p.setup.variant;
  const ojson setup = ojson::parse(setup_json(p.setup));
  ojson j;
  j["id"] = p.id;
  j["kind"] = p.kind;
  j["variant"] = setup["variant"];
  j["options"] = setup["options"];
  j["rules"] = setup["rules"];
  j["text"] = ai::format_position(start);
  j["turn"] = std::string(side_name(v, start.turn()));
  const int remoteness = static_cast<int>(p.line.size());
  j["remoteness"] = remoteness;
  j["difficulty"] = ai::puzzle_difficulty(remoteness);
  j["source"] = p.source;
  if (!whole) return j;
  j["position"] = setup["position"];
  ojson line = ojson::array();
  Game g = start;
  for (std::size_t ply = 0; ply < p.line.size(); ++ply) {
    const Turn& t = p.line[ply];
    ojson step;
    step["side"] = std::string(side_name(v, g.turn()));
    step["actions"] = actions_json(t.actions);
    step["text"] = ai::format_turn(t);
    if (ply < p.also.size() && !p.also[ply].empty()) {
      ojson also = ojson::array();
      for (const Turn& a : p.also[ply]) {
        also.push_back(ojson{{"actions", actions_json(a.actions)}, {"text", ai::format_turn(a)}});
      }
      step["also"] = std::move(also);
    }
    g = after(g, t);
    step["position"] = ai::format_position(g);
    line.push_back(std::move(step));
  }
  j["line"] = std::move(line);
  return j;
}

std::string answer_error(std::string_view code, std::string_view message) {
  return http_error_json(code, message);
}

// One puzzle of a file, checked: its setup through create's checks, its line through the rules.
std::variant<Puzzle, std::string> read_puzzle(const json& j) {
  if (!j.is_object()) return std::string("is not an object");
  json setup = json::object();
  for (const char* key : {"variant", "options", "rules", "position"}) {
    if (auto it = j.find(key); it != j.end()) setup[key] = *it;
  }
  if (!setup.contains("position")) return std::string("has no `position`");
  auto s = parse_setup_json(setup.dump());
  if (auto* e = std::get_if<Error>(&s)) return "is refused: " + e->message;
  Puzzle p{"", "", "", std::get<GameSetup>(std::move(s)), {}, {}};
  p.id = puzzle_id(p.setup.game);
  p.kind = kind_of(p.setup.game);
  if (j.value("id", std::string()) != p.id) return "has the id of another position (" + p.id + ")";
  if (j.value("kind", std::string()) != p.kind) return "is of kind " + p.kind;
  p.source = j.value("source", std::string("generated"));
  const auto line = j.find("line");
  if (line == j.end() || !line->is_array() || line->empty()) return std::string("has no `line`");
  Game g = p.setup.game;
  for (const json& step : *line) {
    const std::string text = step.is_object() ? step.value("text", std::string()) : "";
    auto turn = ai::parse_turn(g, text);
    if (auto* e = std::get_if<std::string>(&turn)) {
      return "has a turn `" + text + "` that is not legal there: " + *e;
    }
    std::vector<Turn> also;
    if (const auto a = step.find("also"); step.is_object() && a != step.end()) {
      if (!a->is_array()) return std::string("has an `also` that is not a list");
      for (const json& alt : *a) {
        const std::string alt_text = alt.is_object() ? alt.value("text", std::string()) : "";
        auto other = ai::parse_turn(g, alt_text);
        if (auto* e = std::get_if<std::string>(&other)) return "has an `also` turn refused: " + *e;
        also.push_back(std::get<Turn>(std::move(other)));
      }
    }
    p.also.push_back(std::move(also));
    p.line.push_back(std::get<Turn>(std::move(turn)));
    g = after(g, p.line.back());
  }
  if (!g.over() || !g.result()->winner || *g.result()->winner != p.setup.game.turn()) {
    return std::string("has a line that does not end in the win of the side to move");
  }
  return p;
}

}  // namespace

std::string puzzle_id(const Game& start) {
  const ojson options = options_json(start.variant(), start.options());
  const std::string key = std::string(variant_key(start.variant())) + "|" + dump(options) + "|" +
                          ai::format_position(start);
  return (ai::puzzle_is_exact(start) ? "kb-" : "en-") + hex(fnv(key), 10);
}

Puzzle make_puzzle(const Game& start, ai::PuzzleLine line, std::string source) {
  GameSetup setup{start.variant(), start.options(), position_of(start), start, std::nullopt,
                  false,           false,           std::nullopt,       {}};
  return Puzzle{puzzle_id(start), kind_of(start),        std::move(source),
                std::move(setup), std::move(line.turns), std::move(line.also)};
}

std::string puzzle_json(const Puzzle& p, bool whole) {
  return dump(to_json(p, whole));
}

std::string puzzles_file_json(const std::vector<Puzzle>& puzzles) {
  std::string out = "{\"format\":" + std::to_string(kFormat) + ",\"puzzles\":[\n";
  for (std::size_t i = 0; i < puzzles.size(); ++i) {
    out += puzzle_json(puzzles[i], true);
    out += i + 1 < puzzles.size() ? ",\n" : "\n";
  }
  out += "]}\n";
  return out;
}

std::variant<std::vector<Puzzle>, std::string> parse_puzzles_file(std::string_view text) {
  const json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::string("the file is not a JSON object");
  if (j.value("format", 0) != kFormat) {
    return "the file's `format` is not " + std::to_string(kFormat);
  }
  const auto list = j.find("puzzles");
  if (list == j.end() || !list->is_array()) return std::string("the file has no `puzzles` list");
  std::vector<Puzzle> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    auto p = read_puzzle((*list)[i]);
    if (auto* why = std::get_if<std::string>(&p)) {
      const json& id = (*list)[i].is_object() ? (*list)[i].value("id", json("?")) : json("?");
      return "puzzle " + std::to_string(i + 1) + " (" + id.dump() + ") " + *why;
    }
    for (const Puzzle& q : out) {
      if (q.id == std::get<Puzzle>(p).id) return "puzzle " + q.id + " is in the file twice";
    }
    out.push_back(std::get<Puzzle>(std::move(p)));
  }
  return out;
}

PuzzleCollection::PuzzleCollection(std::vector<Puzzle> puzzles) : puzzles_(std::move(puzzles)) {
  for (const Puzzle& p : puzzles_) {
    whole_.push_back(puzzle_json(p, true));
    summary_.push_back(puzzle_json(p, false));
  }
}

std::variant<PuzzleCollection, std::string> PuzzleCollection::load(
    const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return PuzzleCollection{};
  std::ifstream in(file, std::ios::binary);
  if (!in) return "cannot read " + file.string();
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = parse_puzzles_file(text.str());
  if (auto* why = std::get_if<std::string>(&parsed)) return file.string() + ": " + *why;
  return PuzzleCollection(std::get<std::vector<Puzzle>>(std::move(parsed)));
}

PuzzleAnswer PuzzleCollection::list(const std::optional<std::string>& variant,
                                    const std::optional<std::string>& kind,
                                    const std::optional<std::string>& difficulty) const {
  if (variant && !variant_from_key(*variant)) {
    return {400,
            answer_error("bad_request", "`variant` is one of bomb, classic, triple_king, kaboom")};
  }
  if (kind && *kind != "kaboom" && *kind != "ending") {
    return {400, answer_error("bad_request", "`kind` is kaboom or ending")};
  }
  int level = 0;
  if (difficulty) {
    if (difficulty->size() != 1 || (*difficulty)[0] < '1' || (*difficulty)[0] > '5') {
      return {400, answer_error("bad_request", "`difficulty` is 1 to 5")};
    }
    level = (*difficulty)[0] - '0';
  }
  std::size_t kaboom = 0;
  std::size_t ending = 0;
  std::string items;
  std::size_t count = 0;
  for (std::size_t i = 0; i < puzzles_.size(); ++i) {
    const Puzzle& p = puzzles_[i];
    (p.kind == "kaboom" ? kaboom : ending) += 1;
    if (variant && variant_key(p.setup.variant) != *variant) continue;
    if (kind && p.kind != *kind) continue;
    if (level != 0 && ai::puzzle_difficulty(static_cast<int>(p.line.size())) != level) continue;
    if (count++ > 0) items += ",";
    items += summary_[i];
  }
  return {200, "{\"count\":" + std::to_string(count) +
                   ",\"kinds\":{\"kaboom\":" + std::to_string(kaboom) +
                   ",\"ending\":" + std::to_string(ending) + "},\"puzzles\":[" + items + "]}"};
}

PuzzleAnswer PuzzleCollection::one(std::string_view id) const {
  for (std::size_t i = 0; i < puzzles_.size(); ++i) {
    if (puzzles_[i].id == id) return {200, whole_[i]};
  }
  return {404, answer_error("not_found", "no puzzle has that id")};
}

}  // namespace bc::server

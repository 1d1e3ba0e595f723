// The puzzle collection (docs/PUZZLES.md): read and checked at start from its JSON file, answered
// by GET /api/puzzles and /api/puzzles/{id}, and written by `bombcheckers puzzles`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bc/ai_puzzles.hpp"
#include "bc/core.hpp"
#include "server/wire/setup.hpp"

namespace bc::server {

struct Puzzle {
  std::string id;      // "kb-" or "en-" and ten hex digits of the start's hash
  std::string kind;    // "kaboom" (the exact solver's) or "ending" (the search's)
  std::string source;  // "generated", or "game ROOM#N"
  GameSetup setup;     // variant, options and the start as a custom position
  std::vector<Turn> line;
  std::vector<std::vector<Turn>> also;  // by ply: the solver's other winning turns there
};

// A puzzle of a line found at `start` (bc/ai_puzzles.hpp); its id and kind follow from the start.
Puzzle make_puzzle(const Game& start, ai::PuzzleLine line, std::string source);
// The id the start's puzzle has: the same position (variant, options, pieces, side) never twice.
std::string puzzle_id(const Game& start);

// One puzzle: the whole of it, or its summary (no `position`, no `line`).
std::string puzzle_json(const Puzzle& p, bool whole);
// The collection file's text, a puzzle a line: {"format":1,"puzzles":[...]}.
std::string puzzles_file_json(const std::vector<Puzzle>& puzzles);
// A file's puzzles, each replayed through the rules (its line's turns read from their text and
// legal, its id its start's); or what is wrong, naming the puzzle.
std::variant<std::vector<Puzzle>, std::string> parse_puzzles_file(std::string_view text);

struct PuzzleAnswer {
  int status = 200;  // 200, 400 or 404
  std::string body;  // JSON; an error's is {"error","message"}
};

class PuzzleCollection {
 public:
  PuzzleCollection() = default;
  explicit PuzzleCollection(std::vector<Puzzle> puzzles);
  // A missing file is an empty collection; an unreadable or bad one is its reason.
  static std::variant<PuzzleCollection, std::string> load(const std::filesystem::path& file);

  // GET /api/puzzles?variant=&kind=&difficulty= (each filter absent, or its query value)
  PuzzleAnswer list(const std::optional<std::string>& variant,
                    const std::optional<std::string>& kind,
                    const std::optional<std::string>& difficulty) const;
  // GET /api/puzzles/{id}
  PuzzleAnswer one(std::string_view id) const;
  std::size_t size() const { return puzzles_.size(); }
  const std::vector<Puzzle>& puzzles() const { return puzzles_; }

 private:
  std::vector<Puzzle> puzzles_;
  std::vector<std::string> whole_;    // puzzle_json(p, true), made once
  std::vector<std::string> summary_;  // puzzle_json(p, false)
};

}  // namespace bc::server

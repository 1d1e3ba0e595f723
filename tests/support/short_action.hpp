// Short actions (docs/PROTOCOL.md, "Short actions"): in the deltas of a member that asked for
// `"compact":2`, each action of `legal` and `last.actions` is a short string instead of the object
// state_json writes, and the client writes the object out again, byte for byte:
//   step "1,5-0,4"   jump "2,2x4,4"   end_turn "end"   drop "d3" (a bomb: "d3b")   detonate "*3,4"
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace bc::server {

// The short form of an action's text exactly as state_json writes it (without quotes); nullopt
// when it has none (a delta then carries the object as it is).
std::optional<std::string> short_action(std::string_view object);
// The same appended to `out`, without allocating; false (and `out` unchanged) when it has none.
bool append_short_action(std::string_view object, std::string& out);

// The action text a short form stands for (given without its quotes); nullopt if it is not one.
std::optional<std::string> long_action(std::string_view short_form);

}  // namespace bc::server

// The checkers variants' rules under a revision: each variant's table (CheckersRules, in its
// record in bc/variants.hpp) with the changes of earlier revisions (docs/RULES.md, Revisions).
#pragma once

#include "bc/core.hpp"
#include "bc/variants.hpp"

namespace bc {

// The rules of a checkers variant under a revision (1..kRulesRevision).
constexpr CheckersRules checkers_rules(VariantId v, int revision = kRulesRevision) {
  CheckersRules r = variant_record(v).rules;
  r.revision = revision;
  r.turn_limit = revision >= 3 ? kTurnLimit : 0;
  // Revision 1: B8 and T5b before 2026-11-24.
  r.far_row_step_explodes = r.piece_kinds && revision == 1;
  r.lands_past_own_after_capture = r.triple_kings && revision == 1;
  return r;
}

}  // namespace bc

// The checkers variants' rules as data: one entry per variant, each flag naming the RULES.md clause
// it implements (docs/RULES.md lists the tests of each). The checkers engine reads these flags,
// never the variant id; the computer opponent reads them too.
#pragma once

#include "bc/core.hpp"

namespace bc {

struct CheckersRules {
  VariantId variant = VariantId::Classic;
  int revision = kRulesRevision;       // Options::rules: the revision a game is played under
  bool piece_kinds = false;            // B2, B7: shields, and bombs that explode when they jump
  bool capture_compulsory = true;      // K2, T2 (B4: optional in bomb)
  bool continuation_optional = false;  // B5: a capture sequence may stop (end_turn)
  bool largest_capture = false;        // T2: only the sequences removing the most pieces
  bool flying_kings = false;           // T3: kings capture along the whole diagonal
  bool triple_kings = false;           // T4, T5: a king on its own back row is crowned again
  bool crowning_ends_turn = false;     // K4: a man crowned by a jump stops there
  int turn_limit = 0;                  // C7 (revision 3 on): turns after which the game is drawn
  // Revision 1 only (docs/RULES.md, Revisions): a bomb stepping onto the far row exploded (B8),
  // and a triple king could land past its own pieces after a capture (T5b).
  bool far_row_step_explodes = false;
  bool lands_past_own_after_capture = false;
};

// The rules of a checkers variant under a revision (1..kRulesRevision).
constexpr CheckersRules checkers_rules(VariantId v, int revision = kRulesRevision) {
  CheckersRules r;
  r.variant = v;
  r.revision = revision;
  r.turn_limit = revision >= 3 ? kTurnLimit : 0;
  switch (v) {
    case VariantId::Bomb:
      r.piece_kinds = true;
      r.capture_compulsory = false;
      r.continuation_optional = true;
      r.far_row_step_explodes = revision == 1;
      break;
    case VariantId::Classic:
      r.crowning_ends_turn = true;
      break;
    case VariantId::TripleKing:
      r.largest_capture = true;
      r.flying_kings = true;
      r.triple_kings = true;
      r.lands_past_own_after_capture = revision == 1;
      break;
    case VariantId::Kaboom:
      break;
  }
  return r;
}

}  // namespace bc

// The compact form of `state` (docs/PROTOCOL.md, "Compact states"): after a full state, the server
// sends each change as a `delta` from the state this page holds. Applying one gives the same
// state, field for field and in the same order, as the full `state` the server sent to others.
// The page asks for short actions too (`compact=2`): `legal` and `last.actions` then come as
// strings such as "1,5-0,4", written out here as the objects the full state has.

// The state `delta` stands for, or null when it is not a delta of `state` (then ask for a full one).
export function applyDelta(state, delta) {
  const base = delta?.base;
  if (!state || !Array.isArray(base) || state.game !== base[0] || state.version !== base[1]) return null;
  const next = { ...state }; // the same keys in the same order
  for (const [key, value] of Object.entries(delta.set ?? {})) {
    if (!(key in next)) return null;
    next[key] = value;
  }
  if (Array.isArray(next.legal) && next.legal !== state.legal) {
    next.legal = longActions(next.legal);
    if (!next.legal) return null;
  }
  if (Array.isArray(next.last?.actions) && next.last !== state.last) {
    const actions = longActions(next.last.actions);
    if (!actions) return null;
    next.last = { ...next.last, actions };
  }
  if (delta.board) {
    const pieces = editPieces(state.board?.pieces, delta.board);
    if (!pieces) return null;
    next.board = { ...state.board, pieces };
  }
  return next;
}

// Removals by index in the old list, then insertions at their index in the new one, in order.
function editPieces(pieces, edit) {
  if (!Array.isArray(pieces) || !Array.isArray(edit.remove) || !Array.isArray(edit.insert)) return null;
  const removed = new Set(edit.remove);
  const out = pieces.filter((_, i) => !removed.has(i));
  if (out.length !== pieces.length - removed.size) return null;
  for (const entry of edit.insert) {
    const [at, piece] = Array.isArray(entry) ? entry : [];
    if (!Number.isInteger(at) || at < 0 || at > out.length) return null;
    out.splice(at, 0, piece);
  }
  return out;
}

// Each short action of a list as its object; null if one stands for no action.
function longActions(list) {
  const out = list.map((a) => (typeof a === 'string' ? longAction(a) : a));
  return out.includes(null) ? null : out;
}

const N = '(0|[1-9][0-9]{0,2})';
const HOP = new RegExp(`^${N},${N}([-x])${N},${N}$`);
const DROP = new RegExp(`^d${N}(b?)$`);
const DETONATE = new RegExp(`^\\*${N},${N}$`);

// The action a short form stands for (docs/PROTOCOL.md, "Short actions"), with its fields in the
// order of the full state, or null.
export function longAction(s) {
  if (s === 'end') return { kind: 'end_turn' };
  let m = HOP.exec(s);
  if (m) return { kind: m[3] === '-' ? 'step' : 'jump', from: [+m[1], +m[2]], to: [+m[4], +m[5]] };
  m = DROP.exec(s);
  if (m) return { kind: 'drop', column: +m[1], piece: m[2] ? 'bomb' : 'normal' };
  m = DETONATE.exec(s);
  if (m) return { kind: 'detonate', at: [+m[1], +m[2]] };
  return null;
}

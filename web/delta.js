// The compact form of `state` (docs/PROTOCOL.md, "Compact states"): after a full state, the server
// sends each change as a `delta` from the state this page holds. Applying one gives the same
// state, field for field and in the same order, as the full `state` the server sent to others.

// The state `delta` stands for, or null when it is not a delta of `state` (then ask for a full one).
export function applyDelta(state, delta) {
  const base = delta?.base;
  if (!state || !Array.isArray(base) || state.game !== base[0] || state.version !== base[1]) return null;
  const next = { ...state }; // the same keys in the same order
  for (const [key, value] of Object.entries(delta.set ?? {})) {
    if (!(key in next)) return null;
    next[key] = value;
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

// The position after a turn, for exploring on the analysis board. The server's `analyse` lists
// every legal turn of a position (so the page never decides what is legal), but not the positions
// they lead to; until it does (a `position` in each turn's entry, which explore.js takes when
// present), this works them out from docs/RULES.md: C3 (a jump removes the piece jumped), C4 and
// T4 (crowning at every hop, triple kings on their own back row), B7 (a bomb that captures blows
// up the 3x3 block round it, shields excepted), T3/T5b (a flying capture removes the opposing
// pieces it passes), X2 (a drop falls), X3 (a detonation and its chain, then the columns close).
// The next `analyse` of the result is the server's check of it. Pure functions, no page.

import { sidesOf, sortPieces } from './position_text.js';

const key = (sq) => `${sq[0]},${sq[1]}`;

/**
 * Plays `actions` (one complete turn, as the server listed it) on `pos`. Returns
 * {pos, captured, exploded}: the position after it (the other side to move) and the squares of
 * the pieces taken and blown up, for the board's marks and effects.
 */
export function applyTurn(pos, actions, options = {}) {
  const board = new Map(pos.pieces.map((p) => [key(p.at), { ...p, at: [...p.at] }]));
  const [first, second] = sidesOf(pos.variant);
  const mover = pos.turn;
  const bombs = pos.bombs ? { ...pos.bombs } : null;
  const fx = { captured: [], exploded: [] };
  for (const a of actions) {
    if (a.kind === 'drop') drop(board, a, mover, bombs);
    else if (a.kind === 'detonate') detonate(board, a.at, pos, !!options.superbomb, fx);
    else if (a.kind === 'step' || a.kind === 'jump') hop(board, a, pos.variant, mover === first, fx);
  }
  const next = { ...pos, turn: mover === first ? second : first, pieces: sortPieces([...board.values()]), bombs };
  return { pos: next, ...fx };
}

function drop(board, a, mover, bombs) {
  let y = 0;
  while (board.has(key([a.column, y]))) y++;
  const bomb = a.piece === 'bomb';
  board.set(key([a.column, y]), { at: [a.column, y], side: mover, kind: bomb ? 'bomb' : 'normal', rank: 'man' });
  if (bomb && bombs) bombs[mover] = Math.max(0, (bombs[mover] ?? 0) - 1);
}

// X3: the bomb, and what is next to it (or its row and column); bombs caught go off too; then
// every column closes its gaps.
function detonate(board, at, pos, superbomb, fx) {
  const gone = new Set([key(at)]);
  const queue = [at];
  while (queue.length) {
    const [bx, by] = queue.shift();
    const hits = [];
    if (superbomb) {
      for (let x = 0; x < pos.width; x++) hits.push([x, by]);
      for (let y = 0; y < pos.height; y++) hits.push([bx, y]);
    } else {
      hits.push([bx - 1, by], [bx + 1, by], [bx, by - 1], [bx, by + 1]);
    }
    for (const sq of hits) {
      const p = board.get(key(sq));
      if (!p || gone.has(key(sq))) continue;
      gone.add(key(sq));
      if (p.kind === 'bomb') queue.push(sq);
    }
  }
  for (const k of gone) {
    const p = board.get(k);
    if (p) fx.exploded.push(p.at);
    board.delete(k);
  }
  const pieces = [...board.values()].sort((a, b) => a.at[1] - b.at[1]);
  board.clear();
  const heights = new Map();
  for (const p of pieces) {
    const y = heights.get(p.at[0]) ?? 0;
    heights.set(p.at[0], y + 1);
    p.at = [p.at[0], y];
    board.set(key(p.at), p);
  }
}

function hop(board, a, variant, firstSide, fx) {
  const p = board.get(key(a.from));
  if (!p) return;
  board.delete(key(a.from));
  p.at = [...a.to];
  if (a.kind === 'jump') {
    // Every opposing piece on the diagonal between the two squares is taken (one, or a triple
    // king's pair); own pieces a triple king crosses stay.
    const dx = Math.sign(a.to[0] - a.from[0]);
    const dy = Math.sign(a.to[1] - a.from[1]);
    for (let x = a.from[0] + dx, y = a.from[1] + dy; x !== a.to[0]; x += dx, y += dy) {
      const q = board.get(key([x, y]));
      if (q && q.side !== p.side) {
        board.delete(key([x, y]));
        fx.captured.push([x, y]);
      }
    }
  }
  board.set(key(p.at), p);
  if (a.kind === 'jump' && p.kind === 'bomb') {
    for (let x = p.at[0] - 1; x <= p.at[0] + 1; x++) {
      for (let y = p.at[1] - 1; y <= p.at[1] + 1; y++) {
        const q = board.get(key([x, y]));
        if (q && q.kind !== 'shield') {
          board.delete(key([x, y]));
          fx.exploded.push([x, y]);
        }
      }
    }
    return;
  }
  const far = firstSide ? 7 : 0;
  if (p.rank === 'man' && p.at[1] === far) p.rank = 'king';
  else if (variant === 'triple_king' && p.rank === 'king' && p.at[1] === 7 - far) p.rank = 'triple_king';
}

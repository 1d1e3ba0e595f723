// The minimal board game of the Colyseus side of the peer benchmark (README.md): rules shared by
// colyseus_server.mjs (which validates every move with them) and loadgen.mjs (whose clients pick a
// legal move from the synced state, as a Colyseus client with rules of its own would).
//
// 8x8 board, cell index = y * 8 + x, dark squares are those with x + y even (as in bombcheckers:
// [0,0] is playable). Cells: 0 empty, 1 a piece of side 0, 2 a piece of side 1. Side 0 starts on
// rows 0..2 and moves up (+y), side 1 on rows 5..7 and moves down. A move is one diagonal step
// forward onto an empty square, or a jump diagonally forward over an opposing piece onto the empty
// square behind it (the jumped piece is captured). Captures are mandatory (if any jump exists,
// only jumps are legal); no multi-jumps. A piece that reaches the far row leaves the board (it has
// "scored"). A side with no legal move loses: the board is reset for a new game, so a closed loop
// never runs out of moves. Every game ends: each move takes a piece one row forward or off the board.

export const SIZE = 8;
export const EMPTY = 0;

export function initialBoard(out = new Uint8Array(64)) {
  out.fill(EMPTY);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      if ((x + y) % 2 !== 0) continue;
      if (y <= 2) out[y * SIZE + x] = 1;
      else if (y >= 5) out[y * SIZE + x] = 2;
    }
  }
  return out;
}

// Every legal move of `side` (0 or 1) on `cells` (any indexable of 64 numbers), as a flat list
// [from0, to0, from1, to1, ...] (captures only, when there is one).
export function legalMoves(cells, side) {
  const mine = side + 1, theirs = 2 - side, dy = side === 0 ? 1 : -1;
  const steps = [], jumps = [];
  for (let i = 0; i < 64; i++) {
    if (cells[i] !== mine) continue;
    const x = i & 7, y = i >> 3, y1 = y + dy;
    if (y1 < 0 || y1 >= SIZE) continue;
    for (let dx = -1; dx <= 1; dx += 2) {
      const x1 = x + dx;
      if (x1 < 0 || x1 >= SIZE) continue;
      const c1 = cells[y1 * SIZE + x1];
      if (c1 === EMPTY) {
        steps.push(i, y1 * SIZE + x1);
      } else if (c1 === theirs) {
        const x2 = x1 + dx, y2 = y1 + dy;
        if (x2 >= 0 && x2 < SIZE && y2 >= 0 && y2 < SIZE && cells[y2 * SIZE + x2] === EMPTY) jumps.push(i, y2 * SIZE + x2);
      }
    }
  }
  return jumps.length ? jumps : steps;
}

export function isLegal(cells, side, from, to) {
  const moves = legalMoves(cells, side);
  for (let k = 0; k < moves.length; k += 2) if (moves[k] === from && moves[k + 1] === to) return true;
  return false;
}

// Applies a legal move; returns the list of [index, newValue] cell changes.
export function applyMove(cells, side, from, to) {
  const changes = [[from, EMPTY]];
  const fy = from >> 3, ty = to >> 3;
  if (Math.abs(ty - fy) === 2) changes.push([(from + to) >> 1, EMPTY]); // the jumped piece
  const farRow = side === 0 ? SIZE - 1 : 0;
  changes.push([to, ty === farRow ? EMPTY : side + 1]);
  for (const [i, v] of changes) cells[i] = v;
  return changes;
}

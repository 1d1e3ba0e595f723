// Positions as text, for the analysis board's import and export (pure functions, no page):
//
// - The FEN-like line of the command-line tools (ai/include/bc/ai_notation.hpp), which
//   `bombcheckers analyse --fen` reads: <to-move>:<first side's pieces>:<second side's pieces>
//   [:<a>,<b>]. Pieces are squares (file letter, rank from 1: "c3" is [2,2]) with prefixes K king,
//   T triple king, S shield, B bomb ("KSe5"), sorted by rank then file as the server sorts them;
//   Kaboom adds the bombs each side has left to drop (always written). "start" is the start.
// - Kaboom's Gamesman string (the original document): "(x 1 1 ---- ---- -o-- xx*-)": the side to
//   move, x's and o's bombs left, then the rows from the top, a cell each: x, o, * (x's bomb),
//   @ (o's bomb), - (empty; an en dash is read as one too). The rows give the board's size.
//
// A position here: {variant, width, height, turn, pieces: [{at, side, kind, rank}], bombs}, with
// `bombs` {x, o} for Kaboom and null for checkers. The wire form (`create`'s and `analyse`'s
// `position`) is toWire's.

import { isConnect } from './variants.js';

export const SIDES = {
  bomb: ['fire', 'water'],
  classic: ['black', 'white'],
  triple_king: ['black', 'white'],
  kaboom: ['x', 'o'],
};

// A Kaboom-like variant (the connect family, variants.js): its positions are a grid of columns.
export const isKaboom = (variant) => isConnect(variant);
export const sidesOf = (variant) => SIDES[variant] ?? SIDES.bomb;

/** A refusal of a text, with words for the person who typed it. */
export class PositionTextError extends Error {}
const fail = (message) => {
  throw new PositionTextError(message);
};

const RANK_PREFIX = { king: 'K', triple_king: 'T' };
const KIND_PREFIX = { shield: 'S', bomb: 'B' };

/** Whether a checkers square is one of the playable (dark) ones. */
export const playable = ([x, y]) => (x + y) % 2 === 0;

export function squareName([x, y]) {
  return `${String.fromCharCode(97 + x)}${y + 1}`;
}

/** The pieces in the server's order (by rank, then file), each with every field. */
export function sortPieces(pieces) {
  return pieces
    .map((p) => ({ at: [p.at[0], p.at[1]], side: p.side, kind: p.kind ?? 'normal', rank: p.rank ?? 'man' }))
    .sort((a, b) => a.at[1] - b.at[1] || a.at[0] - b.at[0]);
}

/** The board size of a variant with these options. */
export function boardSize(variant, options = {}) {
  if (!isKaboom(variant)) return { width: 8, height: 8 };
  return { width: options.width ?? 7, height: options.height ?? 6 };
}

/** The start position (core's checkers_start and kaboom_start). */
export function startPosition(variant, options = {}) {
  const { width, height } = boardSize(variant, options);
  const [first, second] = sidesOf(variant);
  if (isKaboom(variant)) {
    const n = options.bombs ?? 1;
    return { variant, width, height, turn: first, pieces: [], bombs: { x: n, o: n } };
  }
  // Bomb checkers (B2): the back row normal, then a row of shields, then a row of bombs.
  const kinds = variant === 'bomb' ? ['normal', 'shield', 'bomb'] : ['normal', 'normal', 'normal'];
  const pieces = [];
  for (let y = 0; y < 8; y++) {
    for (let x = y % 2; x < 8; x += 2) {
      if (y < 3) pieces.push({ at: [x, y], side: first, kind: kinds[y], rank: 'man' });
      if (y > 4) pieces.push({ at: [x, y], side: second, kind: kinds[7 - y], rank: 'man' });
    }
  }
  return { variant, width, height, turn: first, pieces: sortPieces(pieces), bombs: null };
}

// ---- the FEN-like line ------------------------------------------------------------------------

function pieceToken(p) {
  return `${RANK_PREFIX[p.rank] ?? ''}${KIND_PREFIX[p.kind] ?? ''}${squareName(p.at)}`;
}

export function formatFen(pos) {
  const sides = sidesOf(pos.variant);
  const lists = sides.map((s) =>
    sortPieces(pos.pieces)
      .filter((p) => p.side === s)
      .map(pieceToken)
      .join(','),
  );
  let text = `${pos.turn}:${lists[0]}:${lists[1]}`;
  if (isKaboom(pos.variant)) text += `:${pos.bombs?.x ?? 0},${pos.bombs?.o ?? 0}`;
  return text;
}

// A whole number of one to three digits (the C++ parser's parse_small_int), else null.
function smallInt(s) {
  return /^[0-9]{1,3}$/.test(s) ? Number(s) : null;
}

function parseSquare(s, size) {
  const m = /^([a-l])([0-9]{1,3})$/.exec(s);
  const rank = m ? Number(m[2]) : 0;
  if (!m || rank < 1) return null;
  const sq = [m[1].charCodeAt(0) - 97, rank - 1];
  if (sq[0] >= size.width || sq[1] >= size.height) {
    fail(`square ${s} is off the ${size.width}x${size.height} board`);
  }
  return sq;
}

function parseToken(tok, side, variant, size) {
  const piece = { at: null, side, kind: 'normal', rank: 'man' };
  let i = 0;
  for (; i < tok.length && tok[i] >= 'A' && tok[i] <= 'Z'; i++) {
    const c = tok[i];
    if (c === 'K') piece.rank = 'king';
    else if (c === 'T') piece.rank = 'triple_king';
    else if (c === 'S') piece.kind = 'shield';
    else if (c === 'B') piece.kind = 'bomb';
    else fail(`unknown piece prefix in '${tok}' (K, T, S or B)`);
  }
  piece.at = parseSquare(tok.slice(i), size);
  if (!piece.at) fail(`bad square in '${tok}' (a file letter and a rank: c3)`);
  if (!isKaboom(variant) && !playable(piece.at)) fail(`${squareName(piece.at)} is not a playable (dark) square`);
  return piece;
}

/**
 * Reads the FEN-like line for `variant`; `options` gives a Kaboom board's size (the text does
 * not) and the bombs of "start". Throws PositionTextError.
 */
export function parseFen(text, variant, options = {}) {
  const t = String(text).trim();
  if (t === 'start') return startPosition(variant, options);
  const fields = t.split(':');
  if (fields.length !== 3 && fields.length !== 4) {
    fail('a position is <to-move>:<first pieces>:<second pieces>[:<bombs>,<bombs>]');
  }
  const sides = sidesOf(variant);
  const turn = { 1: sides[0], 2: sides[1] }[fields[0]] ?? (sides.includes(fields[0]) ? fields[0] : null);
  if (!turn) fail(`unknown side to move '${fields[0]}' (${sides.join(' or ')})`);
  const size = boardSize(variant, options);
  const pieces = [];
  const taken = new Set();
  sides.forEach((side, i) => {
    for (const tok of fields[i + 1].split(/[, ]/).filter(Boolean)) {
      const p = parseToken(tok, side, variant, size);
      const k = squareName(p.at);
      if (taken.has(k)) fail(`two pieces on ${k}`);
      taken.add(k);
      pieces.push(p);
    }
  });
  let bombs = null;
  if (isKaboom(variant)) bombs = { x: 0, o: 0 };
  if (fields.length === 4) {
    const counts = fields[3].split(',');
    const a = counts.length === 2 ? smallInt(counts[0]) : null;
    const b = counts.length === 2 ? smallInt(counts[1]) : null;
    if (a === null || b === null) fail('bombs in hand are written <first>,<second>, for example 1,0');
    if (isKaboom(variant)) bombs = { x: a, o: b };
  }
  return { variant, ...size, turn, pieces: sortPieces(pieces), bombs };
}

// ---- Kaboom's Gamesman string -----------------------------------------------------------------

const CELL = { x: { normal: 'x', bomb: '*' }, o: { normal: 'o', bomb: '@' } };
const FROM_CELL = {
  x: ['x', 'normal'],
  o: ['o', 'normal'],
  '*': ['x', 'bomb'],
  '@': ['o', 'bomb'],
  '-': null,
  '\u2013': null,
};

export function formatGamesman(pos) {
  const rows = [];
  for (let y = pos.height - 1; y >= 0; y--) {
    const row = Array(pos.width).fill('-');
    for (const p of pos.pieces) if (p.at[1] === y) row[p.at[0]] = CELL[p.side]?.[p.kind] ?? '?';
    rows.push(row.join(''));
  }
  return `(${pos.turn} ${pos.bombs?.x ?? 0} ${pos.bombs?.o ?? 0} ${rows.join(' ')})`;
}

/** Reads a Gamesman string (a Kaboom position, board size included). Throws PositionTextError. */
export function parseGamesman(text) {
  const m = /^\(\s*(.*?)\s*\)$/s.exec(String(text).trim());
  if (!m) fail('a Gamesman position is written in brackets: (x 1 1 ---- ---- -o-- xx*-)');
  const [who, xb, ob, ...rows] = m[1].split(/\s+/);
  const turn = who?.toLowerCase();
  if (turn !== 'x' && turn !== 'o') fail(`the player to move is x or o, not '${who ?? ''}'`);
  const bx = smallInt(xb ?? '');
  const bo = smallInt(ob ?? '');
  if (bx === null || bo === null) fail("after the player come x's and o's bombs left, two whole numbers");
  if (!rows.length) fail('the board is missing: its rows, top row first (---- ---- -o-- xx*-)');
  const width = [...rows[0]].length;
  if (width > 12 || rows.length > 12) fail('a board is at most 12 columns and 12 rows');
  const height = rows.length;
  const pieces = [];
  rows.forEach((row, i) => {
    const cells = [...row];
    if (cells.length !== width)
      fail(`row ${i + 1} from the top has ${cells.length} cells, not ${width} like the first`);
    cells.forEach((c, x) => {
      if (!(c in FROM_CELL)) fail(`'${c}' is not a cell: x, o, * (x's bomb), @ (o's bomb) or - (empty)`);
      const what = FROM_CELL[c];
      if (what) pieces.push({ at: [x, height - 1 - i], side: what[0], kind: what[1], rank: 'man' });
    });
  });
  return { variant: 'kaboom', width, height, turn, pieces: sortPieces(pieces), bombs: { x: bx, o: bo } };
}

/**
 * Reads either notation: a leading '(' is a Gamesman string (Kaboom only), anything else the
 * FEN-like line. Returns {pos, format: 'gamesman' | 'fen'}.
 */
export function parsePositionText(text, variant, options = {}) {
  const t = String(text).trim();
  if (!t) fail('there is no position text to load');
  if (t.startsWith('(')) {
    if (!isKaboom(variant)) fail('a Gamesman string (in brackets) is a Kaboom position; pick Kaboom first');
    return { pos: parseGamesman(t), format: 'gamesman' };
  }
  return { pos: parseFen(t, variant, options), format: 'fen' };
}

// ---- the wire form ----------------------------------------------------------------------------

/** `create`'s and `analyse`'s `position`. */
export function toWire(pos) {
  const wire = { pieces: sortPieces(pos.pieces), turn: pos.turn };
  if (isKaboom(pos.variant)) wire.bombs = { x: pos.bombs?.x ?? 0, o: pos.bombs?.o ?? 0 };
  return wire;
}

/** A position from a state (or anything with `board` and `turn`, `bombs` for Kaboom). */
export function fromState(state) {
  const variant = state.variant;
  const width = state.board?.width ?? 8;
  const height = state.board?.height ?? 8;
  const bombs = isKaboom(variant) ? { x: state.bombs?.x ?? 0, o: state.bombs?.o ?? 0 } : null;
  return { variant, width, height, turn: state.turn, pieces: sortPieces(state.board?.pieces ?? []), bombs };
}

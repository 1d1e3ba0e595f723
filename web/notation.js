// The originals' notations, as a display choice (pure functions, no page):
//
// - Triple-king checkers (docs/RULES.md T8) names squares `(row, column)`, both from 0, row 0 at
//   the top: row = 7 - y, column = x. Turns are written like the project's: "(5,2)–(4,3)",
//   captures "(5,0)×(3,2)×(1,4)".
// - Kaboom's Gamesman (the original write-up) writes positions as "(x 1 1 ------- ...)"
//   (position_text.js's formatGamesman). Gamesman's text interfaces number columns from 1, so
//   this notation does too: a drop is its column ("4"), a bomb drop adds the bomb's symbol of the
//   position string ("4*" for x, "4@" for o), and a detonation names the bomb's column and its row
//   counted from 1 at the top, the order in which the string writes the rows ("detonate col 3
//   row 6"). The board's edges then show those numbers.
//
// Every other variant has one notation, the project's a1–h8 ("algebraic"; Kaboom's "standard":
// "↓4", "bomb ↓4", "detonate c1").

import { t } from './i18n.js';
import { boardSize, formatGamesman, fromState, squareName } from './position_text.js';
import { isConnect } from './variants.js';

export const NOTATIONS = {
  triple_king: [
    { id: 'algebraic', label: 'a1–h8' },
    { id: 'rowcol', label: '(row, column)' },
  ],
  kaboom: [
    { id: 'standard', label: 'Standard' },
    { id: 'gamesman', label: 'Gamesman' },
  ],
};

/** The notations a variant offers (empty when it has only the project's own). */
export function notationChoices(variant) {
  return NOTATIONS[variant] ?? [];
}

/** The notation to use: `wanted` if the variant offers it, else the variant's default. */
export function notationOf(variant, wanted) {
  const list = notationChoices(variant);
  if (list.some((n) => n.id === wanted)) return wanted;
  return list[0]?.id ?? (isConnect(variant) ? 'standard' : 'algebraic');
}

// ---- squares ----------------------------------------------------------------------------------

/** "c3": file letter, rank from 1. */
export const algebraicName = squareName;

/** T8: "(row,column)" of [x, y] on a board of `height` rows (8 for checkers). */
export function rowColName([x, y], height = 8) {
  return `(${height - 1 - y},${x})`;
}

/** The square of "(row, column)" (spaces allowed), or null when it is not one on the board. */
export function parseRowCol(text, { width = 8, height = 8 } = {}) {
  const m = /^\(\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)$/.exec(String(text).trim());
  if (!m) return null;
  const row = Number(m[1]);
  const col = Number(m[2]);
  if (row >= height || col >= width) return null;
  return [col, height - 1 - row];
}

/** Gamesman's cell of [x, y]: its column and its row from the top, both from 1. */
export function gamesmanCell([x, y], height) {
  return { col: x + 1, row: height - y };
}

/** The square of a Gamesman column and row (from 1, rows from the top), or null off the board. */
export function fromGamesmanCell({ col, row }, { width, height }) {
  if (!(col >= 1 && col <= width && row >= 1 && row <= height)) return null;
  return [col - 1, height - row];
}

/** The name of a square in a notation (Kaboom's standard and the checkers default: "c3"). */
export function squareIn(notation, sq, dims = {}) {
  const height = dims.height ?? 8;
  if (notation === 'rowcol') return rowColName(sq, height);
  if (notation === 'gamesman') {
    const { col, row } = gamesmanCell(sq, height);
    return `col ${col} row ${row}`;
  }
  return algebraicName(sq);
}

// ---- turns ------------------------------------------------------------------------------------

const BOMB_SYMBOL = { x: '*', o: '@' };

/**
 * One turn in words, for the move list: "c3–d4", "c3×e5×c7", "(5,2)–(4,3)", "↓4", "bomb ↓4",
 * "detonate b1"; in Gamesman "4", "4*", "detonate col 2 row 6". `last` is {side, actions};
 * `dims` the board's {width, height}.
 */
export function formatTurn(last, notation = 'algebraic', dims = {}) {
  const acts = (last?.actions ?? []).filter((a) => a.kind !== 'end_turn');
  const name = (sq) => squareIn(notation, sq, dims);
  const parts = [];
  const hops = acts.filter((a) => a.from && a.to);
  if (hops.length) {
    const jump = hops.some((a) => a.kind === 'jump');
    parts.push([hops[0].from, ...hops.map((a) => a.to)].map(name).join(jump ? '×' : '–'));
  }
  const gamesman = notation === 'gamesman';
  for (const a of acts) {
    if (a.kind === 'drop') {
      const col = a.column + 1;
      if (gamesman) parts.push(a.piece === 'bomb' ? `${col}${BOMB_SYMBOL[last.side] ?? '*'}` : `${col}`);
      else parts.push(a.piece === 'bomb' ? `bomb ↓${col}` : `↓${col}`);
    }
    if (a.kind === 'detonate' && a.at) parts.push(`detonate ${name(a.at)}`);
  }
  return parts.join(' ') || '…';
}

// ---- the board's edges ------------------------------------------------------------------------

/**
 * The labels along the board's edges in screen order: `cols` along the bottom from the left,
 * `rows` along the left from the top; null for none (Kaboom's standard grid has none).
 */
export function edgeLabels(variant, notation, { width = 8, height = 8 } = {}, flipped = false) {
  const kaboom = isConnect(variant);
  if (kaboom && notation !== 'gamesman') return null;
  const flip = flipped && !kaboom;
  const xs = Array.from({ length: width }, (_, c) => (flip ? width - 1 - c : c));
  const ys = Array.from({ length: height }, (_, r) => (flip ? r : height - 1 - r));
  if (notation === 'gamesman') {
    return { cols: xs.map((x) => String(x + 1)), rows: ys.map((y) => String(height - y)) };
  }
  if (notation === 'rowcol') {
    return { cols: xs.map((x) => String(x)), rows: ys.map((y) => String(height - 1 - y)) };
  }
  return { cols: xs.map((x) => String.fromCharCode(97 + x)), rows: ys.map((y) => String(y + 1)) };
}

/** The edges in words, for screen readers. */
export function edgeWords(labels) {
  if (!labels) return '';
  const span = (l) => (l.length > 1 ? t('edges.span', { a: l[0], b: l[l.length - 1] }) : (l[0] ?? ''));
  return t('edges.words', { cols: span(labels.cols), rows: span(labels.rows) });
}

// ---- Gamesman positions -----------------------------------------------------------------------

/** The Gamesman string of a Kaboom state or snapshot (`fallbackTurn` when it names none). */
export function gamesmanOf(state, fallbackTurn = 'x') {
  return formatGamesman(fromState({ ...state, variant: 'kaboom', turn: state.turn ?? fallbackTurn }));
}

// ---- plain-text exports -----------------------------------------------------------------------

const NOTATION_NOTE = {
  rowcol: "Squares are (row,column), both from 0, row 0 at the top (the original document's).",
  gamesman:
    "Columns count from 1 at the left; a detonation names its bomb's column and its row from 1 at the top (Gamesman).",
  standard: 'Drops name their column from 1 at the left; squares are a1 at the bottom left.',
  algebraic: 'Squares are a1 at the bottom left to h8 at the top right.',
};

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : '');
const sideWord = (side) => (side === 'x' || side === 'o' ? side.toUpperCase() : cap(side));

/**
 * A game's turns as plain text, one a line, in a notation. `game`: {title, sides, players
 * ({side: name}), options_text, result (words), turns ([{side, actions}]), variant, options}.
 */
export function moveListText(game, notation) {
  const dims = boardSize(game.variant, game.options ?? {});
  const lines = [game.title];
  for (const side of game.sides ?? []) lines.push(`${sideWord(side)}: ${game.players?.[side] || '?'}`);
  if (game.options_text) lines.push(`Options: ${game.options_text}`);
  const label = notationChoices(game.variant).find((n) => n.id === notation)?.label;
  lines.push(`Notation: ${label ? `${label}. ` : ''}${NOTATION_NOTE[notation] ?? ''}`.trim());
  if (game.result) lines.push(`Result: ${game.result}`);
  lines.push('');
  game.turns.forEach((t, i) => lines.push(`${i + 1}. ${sideWord(t.side)} ${formatTurn(t, notation, dims)}`));
  return `${lines.join('\n')}\n`;
}

/** A Kaboom game as its Gamesman positions, from the start, one a line. `positions`: the states
 *  by version (a Map or a list), each with its board, turn and bombs. */
export function gamesmanSequence(positions) {
  const list =
    positions instanceof Map ? [...positions.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]) : positions;
  // A state that names no side to move (a finished game's may not) has the other side of the one
  // before it to move.
  let turn = 'o';
  return `${list
    .map((s) => {
      turn = s.turn ?? (turn === 'x' ? 'o' : 'x');
      return gamesmanOf({ ...s, turn });
    })
    .join('\n')}\n`;
}

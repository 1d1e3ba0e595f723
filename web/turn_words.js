// Turns and positions in words, for the screen reader's announcements and the text board, and the
// moves a player may type (pure functions, no page). Every word comes from the catalogue (i18n.js).
//
// A typed move is matched against the legal actions, never applied as typed: each action has the
// names it may be typed by ("c3-d4", "c3xd4", PDN's "11-15" on an 8x8 board, Kaboom's "4",
// "4 bomb", "detonate c3"), and a typed text picks the action one of whose names it is, or the
// only action one of whose names it begins.

import { sideWord, t } from './i18n.js';
import { squareName } from './position_text.js';

/** A piece in words: "Fire king with a shield"; `disc`: a Kaboom piece, which has no rank. */
export function pieceWords(p, disc = false) {
  const rank = t(p.rank && !disc ? `piece.${p.rank}` : 'piece.disc');
  const what = p.kind && p.kind !== 'normal' ? t('piece.with', { what: rank, extra: t(`piece.${p.kind}`) }) : rank;
  return t('piece.desc', { side: sideWord(p.side), what });
}

/** A square and what is on it: "c3: Fire man". */
export function squareWords(sq, piece, name = squareName, disc = false) {
  return t('sq.desc', { square: name(sq), content: piece ? pieceWords(piece, disc) : t('sq.empty') });
}

/**
 * One turn in words: "Water: e3 to d4, takes c5; the bomb explodes, 3 pieces removed". `last` is a
 * state's {side, actions, captured, exploded, promoted}; `name` names a square.
 */
export function turnWords(last, name = squareName) {
  if (!last) return '';
  const side = sideWord(last.side);
  const acts = (last.actions ?? []).filter((a) => a.kind !== 'end_turn');
  const parts = [];
  const hops = acts.filter((a) => a.from && a.to);
  if (hops.length) {
    const path = [hops[0].from, ...hops.map((a) => a.to)];
    parts.push(t('ann.step', { side, from: name(path[0]), to: path.slice(1).map(name).join(', ') }));
  }
  for (const a of acts) {
    if (a.kind === 'drop')
      parts.push(t(a.piece === 'bomb' ? 'ann.drop_bomb' : 'ann.drop', { side, column: a.column + 1 }));
    if (a.kind === 'detonate' && a.at) parts.push(t('ann.detonate', { side, square: name(a.at) }));
  }
  let text = parts.join(', ');
  const captured = last.captured ?? [];
  if (captured.length) text += `, ${t('ann.takes', { squares: captured.map(name).join(', ') })}`;
  if (last.promoted?.length) text += `, ${t('ann.crowned')}`;
  const exploded = last.exploded ?? [];
  if (exploded.length) text += `; ${t('ann.explodes', { count: exploded.length })}`;
  return text;
}

// ---- typed moves -------------------------------------------------------------------------------

/** PDN's number (1-32) of a square of an 8x8 board (docs/PERSISTENCE.md, "PDN mapping"). */
export const pdnNumber = ([x, y]) => 4 * y + Math.floor((7 - x) / 2) + 1;

/** A typed move made comparable: lower case, one space, "×" ":" as "x", dashes and arrows as "-". */
export function normalize(text) {
  return String(text)
    .toLowerCase()
    .replace(/[×:]/g, 'x')
    .replace(/[–—→]/g, '-')
    .replace(/↓/g, '')
    .replace(/\s*([-x])\s*(?=[a-z0-9(])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A step's or a jump's PDN numbers ("11-15", "11x18") on an 8x8 board, else null. */
export function pdnName(a, { width = 8, height = 8 } = {}) {
  if (!(a.kind === 'step' || a.kind === 'jump') || width !== 8 || height !== 8) return null;
  return `${pdnNumber(a.from)}${a.kind === 'jump' ? 'x' : '-'}${pdnNumber(a.to)}`;
}

/** The names an action may be typed by (normalized); the first is the one to show. */
export function actionNames(a, { width = 8, height = 8 } = {}) {
  if (a.kind === 'step' || a.kind === 'jump') {
    const sep = a.kind === 'jump' ? 'x' : '-';
    const names = [`${squareName(a.from)}${sep}${squareName(a.to)}`, `${squareName(a.from)}-${squareName(a.to)}`];
    names.push(`${squareName(a.from)}x${squareName(a.to)}`);
    if (width === 8 && height === 8) {
      const [f, to] = [pdnNumber(a.from), pdnNumber(a.to)];
      names.push(`${f}${sep}${to}`, `${f}-${to}`, `${f}x${to}`);
    }
    return [...new Set(names)];
  }
  if (a.kind === 'drop') {
    const c = a.column + 1;
    return a.piece === 'bomb' ? [`${c} bomb`, `bomb ${c}`, `${c}*`, `${c}@`] : [`${c}`];
  }
  if (a.kind === 'detonate') return [`detonate ${squareName(a.at)}`, `d ${squareName(a.at)}`];
  if (a.kind === 'end_turn') return ['end turn', 'end'];
  return [];
}

/**
 * The action typed as `text` among `legal`: {action, rest} (rest: the squares of a multi-hop
 * capture still to go, typed as "c3xe5xc7"), or {candidates} when the text fits several or none.
 */
export function matchTyped(text, legal, dims = {}) {
  const norm = normalize(text);
  if (!norm) return { candidates: [] };
  const named = legal.map((action) => ({ action, names: actionNames(action, dims) }));
  const exact = named.filter((n) => n.names.includes(norm));
  if (exact.length === 1) return { action: exact[0].action, rest: [] };
  // "c3xe5xc7", "11x18x25": the first hop now, the others as the sequence goes on.
  const parts = norm.split(/(?<=[0-9])[-x](?=[a-z0-9])/);
  if (parts.length > 2) {
    const first = matchTyped(`${parts[0]}-${parts[1]}`, legal, dims);
    if (first.action) return { action: first.action, rest: parts.slice(1) };
  }
  const begun = named.filter((n) => n.names.some((name) => name.startsWith(norm)));
  if (begun.length === 1) return { action: begun[0].action, rest: [] };
  return { candidates: (begun.length ? begun : exact).map((n) => n.action) };
}

/** Whether a typed square ("e5", "18") is `sq`. */
export function isTypedSquare(typed, sq) {
  return typed === squareName(sq) || typed === String(pdnNumber(sq));
}

// Questions about the client's state (whose turn, which side this page plays, what it may do),
// asked of a view of it: the store's read-only `app` (context.js binds them to it) or the view a
// reducer is given while it changes the slices. They read and never change.

import { DEFAULT_SIDES } from '../ui.js';
import { same } from '../squares.js';

/** A variant's two sides, as the server's welcome names them. */
export function sidesOf(a, variant) {
  const v = a.variants.find((x) => x.id === variant);
  const sides = v?.sides?.map((s) => (typeof s === 'string' ? s : (s.id ?? s.name)));
  return sides?.length === 2 ? sides : (DEFAULT_SIDES[variant] ?? ['fire', 'water']);
}

export function isPlayer(a) {
  const s = a.state;
  return !!s && !!a.seat && sidesOf(a, s.variant).includes(a.seat);
}

/** Whether this page holds both seats of a one-screen room, and so plays for the side to move. */
export function atOneScreen(a) {
  return a.oneScreen && isPlayer(a);
}

/** The side this page plays for now: its seat, or at one screen the side to move. */
export function mySide(a) {
  return atOneScreen(a) ? a.state.turn : a.seat;
}

export function myLegal(a) {
  const s = a.state;
  if (!s || a.replay || a.pending || a.replaced || !isPlayer(a) || s.status !== 'playing' || s.turn !== mySide(a))
    return [];
  return Array.isArray(s.legal) ? s.legal : [];
}

/** The piece that must or may go on capturing: the only mover while a sequence is under way. */
export function sequencePiece(a) {
  const s = a.state;
  const legal = myLegal(a);
  if (!legal.length) return null;
  const midTurn = legal.some((x) => x.kind === 'end_turn') || (s.last && s.last.side === s.turn);
  if (!midTurn) return null;
  const froms = legal.filter((x) => x.from);
  if (froms.length && froms.every((x) => same(x.from, froms[0].from))) return froms[0].from;
  return null;
}

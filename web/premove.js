// Premoves: during the other side's turn a player picks their next move as they pick any move (a
// piece, then where it goes; in Kaboom a column, or one of their bombs). It is drawn on the board
// and kept; on the first state where the turn is theirs it is sent at once if it is one of that
// state's `legal` actions, and dropped without a word if not. One step only: a step, a first hop
// or a drop, never a whole multi-jump. Escape or a right click cancels it.

import { t } from './i18n.js';
import { sideName } from './ui.js';
import { app, dispatch } from './store/store.js';
import { atOneScreen, board, hint, isPlayer, myLegal, pieceAt, same } from './context.js';
import { act } from './acts.js';
import { key } from './squares.js';
import { loadEngine } from './engine.js';
import { isConnect } from './variants.js';

/** Whether a click on the board now picks a premove: the other side is to move in our game (never
 *  at one screen, where every turn is played here). */
export function premoveTime() {
  const s = app.state;
  return (
    !!s &&
    isPlayer() &&
    !atOneScreen() &&
    s.status === 'playing' &&
    s.turn !== app.seat &&
    !app.replay &&
    !app.replaced &&
    !app.pending
  );
}

const setPremove = (premove) => dispatch({ type: 'want/premove', premove });

/** A click during the other side's turn. */
export function premoveClick(sq) {
  const s = app.state;
  const p = pieceAt(sq);
  const mine = !!p && p.side === app.seat;
  const pm = app.premove;
  if (isConnect(s.variant)) {
    const action =
      mine && p.kind === 'bomb' ? { kind: 'detonate', at: sq } : { kind: 'drop', column: sq[0], piece: 'normal' };
    setPremove(premoveKey() === premoveKey({ action }) ? null : { action });
  } else if (mine) {
    // The piece picked again, with nowhere to go yet: put down.
    setPremove(pm && same(pm.from, sq) && !pm.to ? null : { from: sq, to: null });
  } else if (pm?.from) {
    setPremove({ from: pm.from, to: sq });
  } else {
    hint(t('premove.their_turn', { side: sideName(s.turn) }));
    board.flash(sq);
    return;
  }
  if (app.premove?.from && !app.premove.to) hint(t('premove.pick_target'));
  else if (app.premove) {
    hint(t('premove.set'));
    checkPremove(app.premove);
  }
}

/**
 * The rules core's check of a premove just made: one that no turn of the other side can make
 * legal (a man's step backwards, a square out of reach, a full column nothing can empty) is taken
 * back at once, saying so, rather than dropped without a word when the turn comes.
 */
async function checkPremove(pm) {
  const s = app.state;
  // From mid-turn (the other side in a capture sequence) the core starts from no position.
  if (!s || s.mid_turn) return;
  const engine = await loadEngine().catch(() => null);
  if (!engine || app.premove !== pm || app.state !== s) return;
  const actions = pm.action
    ? [pm.action]
    : [
        { kind: 'step', from: pm.from, to: pm.to },
        { kind: 'jump', from: pm.from, to: pm.to },
      ];
  const pos = { variant: s.variant, turn: s.turn, pieces: s.board.pieces, bombs: s.bombs };
  if (engine.legalAfterAReply(pos, s.options ?? {}, actions) !== false) return;
  setPremove(pm.action ? null : { from: pm.from, to: null });
  hint(pm.action ? t('premove.never_legal') : t('premove.never_legal_move'));
  board.flash(pm.to ?? pm.action.at ?? [pm.action.column, 0]);
}

/** Drops the premove; true if there was one. */
export function cancelPremove() {
  if (!app.premove) return false;
  setPremove(null);
  return true;
}

/** The premove in short, as the board's data-premove says it: "2,2-3,3", "2,2-", "d3", "*1,0". */
export function premoveKey(pm = app.premove) {
  if (!pm) return '';
  if (pm.action?.kind === 'drop') return `d${pm.action.column}`;
  if (pm.action?.kind === 'detonate') return `*${key(pm.action.at)}`;
  return `${key(pm.from)}-${pm.to ? key(pm.to) : ''}`;
}

/** What the board marks: the premove's squares, or the column of a premoved drop. */
export function premoveMarks() {
  const pm = app.premove;
  if (!pm) return null;
  if (pm.action?.kind === 'drop') return { squares: [], column: pm.action.column };
  if (pm.action?.kind === 'detonate') return { squares: [pm.action.at], column: null };
  return { squares: [pm.from, pm.to].filter(Boolean), column: null };
}

/** The legal action a premove stands for, if it is one. */
function actionOf(pm, legal) {
  const a = pm.action;
  if (a?.kind === 'drop') return legal.find((x) => x.kind === 'drop' && x.column === a.column && x.piece === a.piece);
  if (a?.kind === 'detonate') return legal.find((x) => x.kind === 'detonate' && same(x.at, a.at));
  if (!pm.to) return null;
  return legal.find((x) => same(x.from, pm.from) && same(x.to, pm.to));
}

/**
 * After a new state: once the turn is ours, the premove is played at once if it is legal, and
 * dropped if not (a piece picked with nowhere to go stays picked, if it can move). It is kept
 * while the other side is still to move, and dropped when the game is not being played.
 */
export function playPremove() {
  const pm = app.premove;
  const s = app.state;
  if (!pm) return;
  if (!s || s.status !== 'playing' || !isPlayer() || app.replaced || app.replay) {
    setPremove(null);
    return;
  }
  if (s.turn !== app.seat || app.pending) return;
  setPremove(null);
  const legal = myLegal();
  const a = actionOf(pm, legal);
  if (a) act(a);
  else if (pm.from && !pm.to && legal.some((x) => same(x.from, pm.from)))
    dispatch({ type: 'want/select', square: pm.from });
}

// Solving a puzzle (docs/PUZZLES.md, "The page"): the player's clicks make a turn from the actions
// the rules core (engine.js) says are legal, with no server asked; a complete turn (a multi-jump is
// one) is compared with the line's next by its actions. The right one is answered by the line's
// reply after a short pause, a wrong one is taken back at once; "Show solution" plays the line.

import { t } from './i18n.js';
import { dispatch, puzzle as pz } from './store/store.js';
import { loadEngine, sameAction } from './engine.js';
import { isKaboom, sortPieces } from './position_text.js';
import { same } from './squares.js';
import { turnText } from './ui.js';
import { drawPuzzleBoard, pzBoard } from './puzzle_board.js';

const REPLY_MS = 500; // the pause before the line's reply: time to see one's own turn land
const SOLUTION_MS = 900; // between the solution's turns

let engine = null;
let failed = false;
let timer = 0;
let legalCache = { shown: -1, legal: [] };

/** The rules core, loaded with the first puzzle. */
export async function loadCore() {
  try {
    engine ??= await loadEngine();
  } catch {
    failed = true;
  }
  return engine;
}

export const coreFailed = () => failed;

/** Stops the line playing itself (a reply or the solution under way). */
export function stopTimers() {
  clearTimeout(timer);
  timer = 0;
}

/**
 * The actions from `base` ({variant, ...} with the puzzle's options): {state, effects, pos}, the
 * position after them; null when the core refuses one.
 */
function playFrom(base, actions) {
  const p = pz.puzzle;
  let start;
  try {
    start = engine.position(p.variant, p.options ?? {}, base);
  } catch {
    return null;
  }
  const r = actions.length ? start.play(actions) : { game: start, effects: [] };
  if (!r) {
    start.free();
    return null;
  }
  const state = r.game.state();
  if (r.game !== start) r.game.free();
  start.free();
  const pos = { ...base, turn: state.turn, pieces: sortPieces(state.board.pieces) };
  if (isKaboom(p.variant)) pos.bombs = state.bombs;
  const all = (k) => r.effects.flatMap((e) => e[k] ?? []);
  const last = { side: base.turn, actions, captured: all('captured'), exploded: all('exploded') };
  return { state, pos, last };
}

/** What the player may do now: the legal actions of the turn under way, none while the line
 *  plays itself or once it is over. */
export function legalNow() {
  if (!engine || !pz.base || !['solving', 'wrong', 'also'].includes(pz.mode)) return [];
  if (legalCache.shown !== pz.shown) {
    const r = playFrom(pz.base, pz.partial);
    legalCache = { shown: pz.shown, legal: r && !r.state.result ? r.state.legal : [] };
  }
  return legalCache.legal;
}

export const redraw = () => drawPuzzleBoard(legalNow());

/** A click on square `sq` of the board. Returns words for a click that does nothing, or null. */
export function clickSquare(sq) {
  if (!['solving', 'wrong', 'also'].includes(pz.mode)) return null;
  const legal = legalNow();
  if (!legal.length) return engine ? null : t('pz.core_loading');
  if (isKaboom(pz.puzzle.variant)) {
    const a =
      legal.find((x) => x.kind === 'detonate' && same(x.at, sq)) ??
      legal.find((x) => x.kind === 'drop' && x.column === sq[0] && (x.piece === 'bomb') === pz.bomb);
    if (a) return act(a);
    pzBoard.flash(sq);
    return pz.bomb ? t('pz.no_bomb_there') : t('input.column_full');
  }
  const to = pz.selected && legal.find((x) => same(x.from, pz.selected) && same(x.to, sq));
  if (to) return act(to);
  if (legal.some((x) => same(x.from, sq)) && !pz.partial.length) {
    dispatch({ type: 'puzzle/select', square: same(sq, pz.selected) ? null : sq });
    redraw();
    return null;
  }
  pzBoard.flash(sq);
  return pz.partial.length ? t('pz.go_on') : t('pz.pick');
}

/** The "End turn" of an optional capture sequence, when the core offers it. */
export function endTurn() {
  const a = legalNow().find((x) => x.kind === 'end_turn');
  if (a) act(a);
}

/** One action of the player's turn: a hop of a multi-jump waits for the next, a complete turn is
 *  judged. */
function act(action) {
  const actions = [...pz.partial, action];
  const r = playFrom(pz.base, actions);
  if (!r) return t('pz.core_refused');
  if (r.state.mid_turn && r.state.turn === pz.base.turn && !r.state.result) {
    dispatch({ type: 'puzzle/partial', actions, pos: r.pos, last: r.last, selected: r.state.jumper ?? action.to });
    redraw();
    return null;
  }
  const line = pz.puzzle.line ?? [];
  const want = line[pz.step];
  const right = want && sameTurn(want.actions, actions);
  if (!right) {
    // Past the first turn, another winning turn is not wrong: the line just takes its fastest.
    const also = (want?.also ?? []).some((t) => sameTurn(t.actions, actions));
    const text = turnText({ side: pz.base.turn, actions });
    dispatch({ type: 'puzzle/wrong', text, pos: pz.base, last: pz.last, also });
    redraw();
    // Taken back at once: a flash where it ended shows which turn that was.
    const end = action.to ?? action.at ?? (action.kind === 'drop' ? [action.column, dropRow(action.column)] : null);
    if (end) pzBoard.flash(end);
    return null;
  }
  const done = pz.step + 1 >= line.length;
  dispatch({ type: 'puzzle/step', pos: r.pos, last: r.last, mode: done ? 'solved' : 'reply' });
  redraw();
  if (!done) later(REPLY_MS, reply);
  return null;
}

/** The cell a piece dropped in `column` of the position shown would land in. */
function dropRow(column) {
  return Math.min(pz.pos.height - 1, pz.pos.pieces.filter((p) => p.at[0] === column).length);
}

/** Whether two turns are the same actions (an `end_turn` at the end counts too). */
function sameTurn(a, b) {
  return a.length === b.length && a.every((x, i) => sameAction(x, b[i]));
}

function later(ms, fn) {
  stopTimers();
  const id = pz.puzzle?.id;
  timer = setTimeout(() => {
    timer = 0;
    if (pz.puzzle?.id === id) fn();
  }, ms);
}

/** The line's next turn on the board, as the mode says what follows it. */
function playLineTurn(mode) {
  const t = pz.puzzle.line[pz.step];
  const r = t && playFrom(pz.base, t.actions);
  if (!r) {
    failed = true; // a line the core cannot play: said by the page as the core's failure
    dispatch({ type: 'puzzle/solution', pos: null });
    return false;
  }
  dispatch({ type: 'puzzle/step', pos: r.pos, last: r.last, mode });
  redraw();
  return true;
}

function reply() {
  const done = pz.step + 1 >= pz.puzzle.line.length;
  playLineTurn(done ? 'solved' : 'solving');
}

/** "Show solution": the line from the position shown, a turn at a time. */
export function showSolution() {
  stopTimers();
  dispatch({ type: 'puzzle/solution', pos: pz.base, last: pz.last });
  redraw();
  const next = () => {
    if (pz.mode !== 'solution' || pz.step >= pz.puzzle.line.length) return;
    if (playLineTurn('solution')) later(SOLUTION_MS, next);
  };
  later(SOLUTION_MS / 2, next);
}

export function retry() {
  dispatch({ type: 'puzzle/retry' });
  redraw();
}

/** Back to the puzzle's start. */
export function restart() {
  stopTimers();
  dispatch({ type: 'puzzle/restart' });
  redraw();
}

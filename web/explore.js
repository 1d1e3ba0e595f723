// Exploring on the analysis board: every legal turn of the position shown comes from the server's
// `analyse` with its value, and is played by clicking (a piece, then each square of its hops; a
// Kaboom column, or a bomb to set it off) or from the list of turns, best first. The turns played
// make a line to step back and forth in.

import { t as tr } from './i18n.js'; // `t` is a turn here
import { $, h, sideChip, sideName, turnText } from './ui.js';
import { dispatch } from './store/store.js';
import { same } from './squares.js';
import { edBoard, edCanvas, say, setValue, showPosition, unsay } from './editor_board.js';
import { analyse, ed, edSides, editorView, positionWords, refusal } from './editor_state.js';
import { loadEngine } from './engine.js';
import { isKaboom, parseFen } from './position_text.js';
import { tieRank, valueColour, valueWords } from './values.js';

// line: [{pos, turn}] from the position set up (turn null) on; at: the index shown. path: the
// piece picked and the squares of its hops so far, {from, hops}.
const ex = { line: [], at: 0, analysis: null, path: null, seq: 0 };

export function enterExplore(pos) {
  loadCore();
  dispatch({ type: 'analysis/explore' });
  ex.line = [{ pos, turn: null }];
  ex.at = 0;
  $('#ed-setup').hidden = true;
  $('#ed-explore-card').hidden = false;
  edCanvas.dataset.mode = 'explore';
  say('');
  show(false);
}

/** Back to the editor, with the position shown. */
export function leaveExplore() {
  const pos = ex.line[ex.at]?.pos ?? ed.pos;
  dispatch({ type: 'analysis/setup' });
  ex.seq++;
  $('#ed-setup').hidden = false;
  $('#ed-explore-card').hidden = true;
  edCanvas.dataset.mode = 'setup';
  editorView.setPosition(pos);
}

$('#ed-edit').addEventListener('click', leaveExplore);
$('#ed-back').addEventListener('click', () => go(ex.at - 1));
$('#ed-forward').addEventListener('click', () => go(ex.at + 1));
$('#ed-bomb-drop').addEventListener('change', renderChoices);

/** Keys while exploring: arrows step through the line, Escape drops a piece picked. */
export function exploreKey(key) {
  if (key === 'ArrowLeft') go(ex.at - 1);
  else if (key === 'ArrowRight') go(ex.at + 1);
  else if (key === 'Home') go(0);
  else if (key === 'End') go(ex.line.length - 1);
  else if (key === 'Escape' && ex.path) {
    ex.path = null;
    renderChoices();
  } else return false;
  return true;
}

function go(i) {
  if (i < 0 || i >= ex.line.length || i === ex.at) return;
  ex.at = i;
  show(false);
}

/** Shows the position at `ex.at` and asks the server about it. */
async function show(animate) {
  const { pos, turn } = ex.line[ex.at];
  dispatch({ type: 'analysis/shown', pos });
  ex.analysis = null;
  ex.path = null;
  showPosition(pos, { last: turn, animate });
  editorView.positionShown(pos);
  edCanvas.dataset.ply = String(ex.at);
  edCanvas.dataset.analysed = 'false';
  renderChoices();
  renderLine();
  const seq = ++ex.seq;
  if (turn?.over) {
    setValue(turn.over, valueColour(turn.value));
    edCanvas.dataset.analysed = 'true';
    return;
  }
  setValue(tr('ed.thinking'));
  try {
    const a = await analyse(pos, true);
    if (seq !== ex.seq) return;
    ex.analysis = a;
    unsay('explore');
    setValue(positionWords(a), valueColour(a.value));
  } catch (err) {
    if (seq !== ex.seq) return;
    setValue('');
    say(refusal(err), 'error', 'explore');
  }
  edCanvas.dataset.analysed = 'true';
  renderChoices();
}

// ---- the turns of the position ----------------------------------------------------------------

const turns = () => ex.analysis?.moves ?? [];

/** Larger is better for the side making the turn: wins soonest, then ties (nearest their end first),
 *  estimates, losses latest. */
function rank(v) {
  if (!v) return 0;
  if (v.outcome === 'win') return 3e6 - v.remoteness;
  if (v.outcome === 'lose') return -3e6 + v.remoteness;
  if (v.outcome === 'tie') return tieRank(v);
  return Math.max(-1e6, Math.min(1e6, v.score ?? 0));
}
const best = (entries) => entries.reduce((b, e) => (!b || rank(e.value) > rank(b.value) ? e : b), null);

/** The turns that go along the path picked so far. */
function alongPath() {
  const { from, hops } = ex.path;
  return turns().filter((t) => same(t.actions[0]?.from, from) && hops.every((sq, i) => same(t.actions[i]?.to, sq)));
}

/** A turn that ends where the path is now: no more hops (an end_turn may close it). */
const endsHere = (t, n) => t.actions.length === n || (t.actions.length === n + 1 && t.actions[n].kind === 'end_turn');

function renderChoices() {
  const kaboom = isKaboom(ed.variant);
  const bombBox = $('#ed-bomb-box');
  const bombDrops = turns().filter((t) => t.actions[0]?.kind === 'drop' && t.actions[0].piece === 'bomb');
  bombBox.hidden = !kaboom;
  $('#ed-bomb-drop').disabled = !bombDrops.length;
  if (!bombDrops.length) $('#ed-bomb-drop').checked = false;
  const marks = [];
  let selected = null;
  if (kaboom) {
    const bomb = $('#ed-bomb-drop').checked;
    const pos = ex.line[ex.at].pos;
    for (const t of turns()) {
      const a = t.actions[0];
      if (a.kind === 'detonate') marks.push({ sq: a.at, colour: valueColour(t.value), shape: 'ring' });
      if (a.kind === 'drop' && (a.piece === 'bomb') === bomb) {
        const y = pos.pieces.filter((p) => p.at[0] === a.column).length;
        marks.push({ sq: [a.column, y], colour: valueColour(t.value), shape: 'slot' });
      }
    }
  } else if (!ex.path) {
    const byFrom = new Map();
    for (const t of turns()) {
      const k = String(t.actions[0]?.from);
      byFrom.set(k, [...(byFrom.get(k) ?? []), t]);
    }
    for (const list of byFrom.values())
      marks.push({ sq: list[0].actions[0].from, colour: valueColour(best(list).value), shape: 'ring' });
  } else {
    selected = ex.path.from;
    const n = ex.path.hops.length;
    for (const sq of ex.path.hops) marks.push({ sq, colour: 'rgba(140, 230, 255, 0.8)', shape: 'dot' });
    const next = new Map();
    for (const t of alongPath()) {
      const a = t.actions[n];
      if (a?.to) next.set(String(a.to), [...(next.get(String(a.to)) ?? []), t]);
    }
    for (const list of next.values())
      marks.push({ sq: list[0].actions[n].to, colour: valueColour(best(list).value), shape: 'dot' });
  }
  edBoard.setUi({ selected });
  edBoard.setMarks(marks);
  edCanvas.dataset.selected = selected ? selected.join(',') : '';
  renderTurnList();
}

function renderTurnList() {
  const mover = ex.line[ex.at].pos.turn;
  const list = ex.path ? alongPath() : turns();
  const items = [...list]
    .sort((a, b) => rank(b.value) - rank(a.value))
    .map((t) => {
      const text = turnText({ actions: t.actions });
      const words = valueWords(t.value, mover, edSides());
      return h(
        'li',
        {},
        h(
          'button.ed-turn',
          {
            type: 'button',
            dataset: { turn: text },
            onclick: () => play(t),
            title: words,
          },
          h('span.ed-swatch', { style: `background:${valueColour(t.value)}`, 'aria-hidden': 'true' }),
          h('span.ed-turn-text', {}, text),
          h('span.ed-turn-value', {}, words),
        ),
      );
    });
  if (ex.path && alongPath().some((t) => endsHere(t, ex.path.hops.length)) && ex.path.hops.length) {
    items.unshift(
      h(
        'li',
        {},
        h(
          'button.btn.small',
          { type: 'button', onclick: () => play(alongPath().find((t) => endsHere(t, ex.path.hops.length))) },
          tr('ed.end_turn_here'),
        ),
      ),
    );
  }
  if (!items.length) items.push(h('li.muted', {}, ex.analysis ? tr('ed.no_turns') : '…'));
  $('#ed-turns').replaceChildren(...items);
}

// ---- playing ----------------------------------------------------------------------------------

/** A click on the board while exploring. */
export function exploreClick(sq) {
  if (!ex.analysis) {
    say(ex.line[ex.at].turn?.over ? tr('ed.over_here') : tr('ed.wait_answer'), 'info');
    return;
  }
  if (isKaboom(ed.variant)) {
    const bomb = $('#ed-bomb-drop').checked;
    const t =
      turns().find((x) => x.actions[0].kind === 'detonate' && same(x.actions[0].at, sq)) ??
      turns().find(
        (x) =>
          x.actions[0].kind === 'drop' && x.actions[0].column === sq[0] && (x.actions[0].piece === 'bomb') === bomb,
      );
    if (t) play(t);
    else edBoard.flash(sq);
    return;
  }
  if (ex.path) {
    const n = ex.path.hops.length;
    const via = alongPath().filter((t) => same(t.actions[n]?.to, sq));
    if (via.length) {
      ex.path.hops.push(sq);
      const goOn = via.filter((t) => t.actions[n + 1]?.to);
      if (!goOn.length) play(via.find((t) => endsHere(t, n + 1)) ?? via[0]);
      else renderChoices();
      return;
    }
    if (n === 0 && same(sq, ex.path.from)) {
      ex.path = null;
      renderChoices();
      return;
    }
  }
  if ((!ex.path || !ex.path.hops.length) && turns().some((t) => same(t.actions[0]?.from, sq))) {
    ex.path = { from: sq, hops: [] };
    renderChoices();
    return;
  }
  edBoard.flash(sq);
}

/** The piece a drop in the column of `sq` would make, if there is such a drop; else null. */
export function exploreGhost(sq) {
  const bomb = $('#ed-bomb-drop').checked;
  const ok =
    sq &&
    turns().some(
      (t) => t.actions[0].kind === 'drop' && t.actions[0].column === sq[0] && (t.actions[0].piece === 'bomb') === bomb,
    );
  return ok ? { side: ex.line[ex.at].pos.turn, kind: bomb ? 'bomb' : 'normal', rank: 'man' } : null;
}

// The rules core (web/engine.js): the position after a turn, which `analyse` lists but does not
// play. Loaded when exploring begins, so it is there by the first click.
let engine = null;
let engineReady = null;
const loadCore = () =>
  (engineReady ??= loadEngine().then(
    (e) => (engine = e),
    () => null,
  ));

/** Plays a turn of the list: the line goes on from the position shown. */
async function play(t) {
  const before = ex.line[ex.at].pos;
  let after;
  let fx = { captured: [], exploded: [] };
  // The rules core gives the turn's effects too (what to animate); the server's text of the
  // position after the turn (analyse's moves' `position`) stands in when the core cannot.
  const core = engine ?? (await loadCore());
  const applied = core?.applyTurn(before, t.actions, ed.options);
  if (applied) ({ pos: after, ...fx } = applied);
  else if (typeof t.position === 'string') {
    try {
      after = { ...parseFen(t.position, before.variant, ed.options), width: before.width, height: before.height };
    } catch {
      after = null;
    }
  }
  if (!after) {
    say(core ? tr('ed.core_refused') : tr('ed.core_missing'));
    return;
  }
  const v = t.value;
  const over = v?.outcome && v.remoteness === 1 ? endWords(v, before.turn) : null;
  const turn = {
    side: before.turn,
    actions: t.actions,
    captured: fx.captured,
    exploded: fx.exploded,
    promoted: [],
    complete: true,
    over,
    value: v,
  };
  ex.line = [...ex.line.slice(0, ex.at + 1), { pos: after, turn }];
  ex.at += 1;
  show(true);
}

function endWords(v, mover) {
  const other = edSides().find((s) => s !== mover);
  if (v.outcome === 'tie') return tr('ed.over_tie');
  return tr('ed.over_won', { side: sideName(v.outcome === 'win' ? mover : other) });
}

/** The turns played, to click back to. */
function renderLine() {
  const items = ex.line.map((step, i) =>
    h(
      `li${i === ex.at ? '.current' : ''}`,
      {},
      h(
        'button.move',
        { type: 'button', onclick: () => go(i), 'aria-current': i === ex.at ? 'step' : null },
        i === 0
          ? h('span', {}, tr('html.start_position'))
          : [h('span.num', {}, `${i}.`), sideChip(step.turn.side), h('span', {}, turnText(step.turn))],
      ),
    ),
  );
  $('#ed-history').replaceChildren(...items);
  $('#ed-back').disabled = ex.at === 0;
  $('#ed-forward').disabled = ex.at >= ex.line.length - 1;
}

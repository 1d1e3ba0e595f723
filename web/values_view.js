// The Values toggle of the game and replay views (PROTOCOL.md, Analysis). Where analysis is allowed
// (a finished game, a game against the computer, the replay of a finished game) and the toggle is
// on, the server analyses the position shown; its value is said in words under the status line,
// and the turns from it are coloured on the board in Gamesman's colours (green wins, yellow ties,
// red loses; estimates shaded): a checkers piece by the best of its turns and, once selected, each
// square it can hop to by the best of the turns through it; a Kaboom column's drop buttons (a
// piece and a bomb) and the cell it lands in, and each bomb that can go off. Also the "Hints used"
// badge of a game that was analysed while it was played, and (value_chart.js) the chart of a
// finished game's values. During a game between two people the players see none; a spectator of an
// unrated one may see its values a few turns behind, on the chart alone (watch_values.js).

import { t } from './i18n.js';
import { $, h, sideName } from './ui.js';
import { app } from './store/store.js';
import { board, canvas, same, sidesOf } from './context.js';
import { requestAnalysis, tieRank, valueColour, valueWords } from './values.js';
import { viewState } from './replay_view.js';
import { forgetChartErrors, renderValueChart } from './value_chart.js';
import { askLagged, forgetLaggedErrors, laggedValues, watchLag, watchValuesAllowed } from './watch_values.js';

const STORE_KEY = 'bc.values'; // '1' when the toggle is on, per browser
const CACHE_MAX = 400; // answers kept, by room, game and version
const TRANSIENT = new Set(['rate_limited', 'timeout', 'offline']); // asked again after a while
const RETRY_MS = 6000;
const REPLAY_DELAY_MS = 180; // a replay stepped through quickly asks only where it stops

export function valuesOn() {
  try {
    return localStorage.getItem(STORE_KEY) === '1';
  } catch {
    return false;
  }
}

function setValuesOn(on) {
  try {
    localStorage.setItem(STORE_KEY, on ? '1' : '0');
  } catch {
    // a browser that keeps nothing: the toggle lasts as long as the page
  }
}

export const isComputer = (p) => !!(p && (p.ai ?? p.computer));

/** Whether the server would analyse the game shown (and so whether the toggle shows). */
export function analysisAllowed() {
  const s = app.state;
  if (!s || !app.room || app.replaced) return false;
  if (app.replay && app.replay.game !== app.gameNo) return true; // an earlier game: over
  if (s.status === 'finished') return true;
  if (s.status !== 'playing') return false;
  return sidesOf(s.variant).some((side) => isComputer(s.players?.[side]));
}

/** The position on the board: the live one, or the replay's. */
export function shownPosition() {
  const s = app.state;
  if (!s || !app.room || !Number.isInteger(s.version)) return null;
  const r = app.replay;
  const game = r ? r.game : app.gameNo;
  return { room: app.room, game, version: r ? r.version : s.version, earlier: game !== app.gameNo };
}

const keyOf = (pos) => `${pos.room}#${pos.game}#${pos.version}`;

// ---- asking -----------------------------------------------------------------------------------

const cache = new Map(); // key -> {status: 'loading' | 'ready' | 'error', answer, error, retryAt}
let timer = 0;
let timerKey = '';

function shownKey() {
  const pos = shownPosition();
  return pos ? keyOf(pos) : '';
}

/** The answer (or the request under way) for a position; asks for it when there is none. */
function entryFor(pos) {
  const k = keyOf(pos);
  const e = cache.get(k);
  if (e && !(e.retryAt && Date.now() >= e.retryAt)) return e;
  if (timerKey !== k) {
    clearTimeout(timer);
    timerKey = k;
    timer = setTimeout(
      () => {
        timerKey = '';
        if (shownKey() === k && valuesOn() && analysisAllowed()) ask(pos);
      },
      app.replay ? REPLAY_DELAY_MS : 0,
    );
  }
  return { status: 'loading' };
}

function ask(pos) {
  const k = keyOf(pos);
  const e = { status: 'loading' };
  cache.delete(k);
  cache.set(k, e);
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value);
  const fields = { version: pos.version };
  if (pos.earlier) fields.game = pos.game;
  requestAnalysis(fields)
    .then(
      (answer) => {
        e.status = 'ready';
        e.answer = answer;
      },
      (err) => {
        e.status = 'error';
        e.error = err ?? {};
        if (TRANSIENT.has(e.error.code)) {
          e.retryAt = Date.now() + RETRY_MS;
          setTimeout(() => {
            if (shownKey() === k) renderValues();
          }, RETRY_MS + 50);
        }
      },
    )
    .then(() => {
      // An answer about a position no longer shown stays in the cache, unseen.
      if (shownKey() === k) renderValues();
    });
}

// ---- comparing values -------------------------------------------------------------------------

/** A number that orders values for the side they belong to: a quick win first, a late loss last. */
export function valueRank(v) {
  if (!v) return -Infinity;
  if (v.outcome === 'win') return 1e7 - (v.remoteness ?? 0);
  if (v.outcome === 'lose') return -1e7 + (v.remoteness ?? 0);
  if (v.outcome === 'tie') return tieRank(v);
  if (v.kind === 'solved') return 0;
  return Math.max(-1e6, Math.min(1e6, v.score ?? 0));
}

/** A word for tests and styles: win, lose, tie or estimate. */
export const valueClass = (v) => v?.outcome ?? (v?.kind === 'solved' ? 'tie' : 'estimate');

/**
 * What the answer colours: board marks ({sq, colour, shape, value}), the drop buttons' values by
 * "column:piece", and the End turn button's value. Each is the best value of the turns it starts.
 */
function marksOf(answer, view) {
  const best = new Map();
  const put = (k, item) => {
    const cur = best.get(k);
    if (!cur || valueRank(item.value) > valueRank(cur.value)) best.set(k, item);
  };
  const selected = app.replay ? null : app.selected;
  const pieces = view.board?.pieces ?? [];
  const rows = view.board?.height ?? 6;
  for (const m of answer.moves ?? []) {
    const a = m.actions?.[0];
    if (!a || !m.value) continue;
    if (a.kind === 'drop') {
      const piece = a.piece === 'bomb' ? 'bomb' : 'normal';
      put(`drop@${a.column}:${piece}`, { column: a.column, piece, value: m.value });
      const y = pieces.filter((p) => p.at[0] === a.column).length;
      if (piece === 'normal' && y < rows)
        put(`cell@${a.column},${y}`, { sq: [a.column, y], shape: 'cell', value: m.value });
    } else if (a.kind === 'detonate' && a.at) {
      put(`cell@${a.at}`, { sq: a.at, shape: 'cell', value: m.value });
    } else if (a.kind === 'end_turn') {
      put('end_turn', { value: m.value });
    } else if (a.from) {
      put(`piece@${a.from}`, { sq: a.from, shape: 'piece', value: m.value });
      if (a.to && selected && same(a.from, selected))
        put(`target@${a.to}`, { sq: a.to, shape: 'target', value: m.value });
    }
  }
  const marks = [];
  const drops = new Map();
  let endTurn = null;
  for (const [k, item] of best) {
    if (k.startsWith('drop@')) drops.set(`${item.column}:${item.piece}`, item.value);
    else if (k === 'end_turn') endTurn = item.value;
    else marks.push({ ...item, colour: valueColour(item.value) });
  }
  return { marks, drops, endTurn };
}

// ---- drawing ----------------------------------------------------------------------------------

let marksKey = '';
function showMarks(marks) {
  // For tests and the curious: "piece:2,2:win target:3,3:lose ..." on the canvas.
  canvas.dataset.valueMarks = marks
    .map((m) => `${m.shape}:${m.sq.join(',')}:${valueClass(m.value)}`)
    .sort()
    .join(' ');
  const k = marks.map((m) => `${m.shape}:${m.sq.join(',')}:${m.colour}`).join(' ');
  if (k === marksKey) return;
  marksKey = k;
  board.setUi({ valueMarks: marks.map(({ sq, colour, shape }) => ({ sq, colour, shape })) });
}

/** Colours a button by a value (or takes the colour off), with the value in its label. */
function paintButton(btn, value, words) {
  if (btn.dataset.label === undefined) btn.dataset.label = btn.getAttribute('aria-label') ?? '';
  if (btn.dataset.title === undefined) btn.dataset.title = btn.title ?? '';
  if (!value) {
    if (!btn.classList.contains('valued')) return;
    btn.classList.remove('valued');
    delete btn.dataset.value;
    btn.style.removeProperty('--value');
    if (btn.dataset.label) btn.setAttribute('aria-label', btn.dataset.label);
    btn.title = btn.dataset.title;
    return;
  }
  btn.classList.add('valued');
  btn.dataset.value = valueClass(value);
  btn.style.setProperty('--value', valueColour(value));
  if (btn.dataset.label) btn.setAttribute('aria-label', `${btn.dataset.label}: ${words}`);
  btn.title = `${btn.dataset.label || btn.textContent}: ${words}`;
}

function paintButtons(drops, endTurn, turn, sides) {
  const words = (v) => valueWords(v, turn, sides);
  for (const btn of document.querySelectorAll('#drops button.drop')) {
    const v = drops?.get(`${btn.dataset.column}:${btn.dataset.piece}`) ?? null;
    paintButton(btn, v, v ? words(v) : '');
  }
  paintButton($('#end-turn'), endTurn, endTurn ? words(endTurn) : '');
}

/** The line under the status: a spinner, the value in words, or why there is none. Rebuilt only
 *  when what it says changes (a live region: a screen reader hears each change). */
let lineKey = '';
function showLine(state, content, data = {}) {
  const line = $('#values-line');
  const k = JSON.stringify([
    state,
    data,
    content.map((el) => el && [el.className, el.title, el.textContent, el.getAttribute('style')]),
  ]);
  if (k === lineKey) return;
  lineKey = k;
  line.hidden = state === 'off' || state === 'hidden';
  line.dataset.state = state;
  delete line.dataset.value;
  delete line.dataset.code;
  Object.assign(line.dataset, data);
  line.replaceChildren(...content.filter(Boolean));
}

/** The "Hints used" badge: the versions of the game shown analysed while it was being played. */
function renderHintsBadge() {
  const r = app.replay;
  const hints = r && r.game !== app.gameNo ? r.record?.hints : app.state?.hints;
  const badge = $('#hints-badge');
  const list = Array.isArray(hints) ? hints : [];
  badge.hidden = list.length === 0;
  badge.dataset.versions = list.join(' ');
  if (list.length) {
    badge.title = t('values.hints_at', { count: list.length, list: list.join(', ') });
  }
}

/** After a render of the game (and when an answer comes): the toggle, the words, the colours. */
export function renderValues() {
  const s = app.state;
  renderHintsBadge();
  const allowed = analysisAllowed();
  const watching = !allowed && watchValuesAllowed();
  const on = valuesOn();
  const btn = $('#values-toggle');
  btn.hidden = !allowed && !watching;
  btn.setAttribute('aria-pressed', String(on));
  labelToggle(btn, watching);
  if (watching) {
    renderBehind(on);
    return;
  }
  const pos = allowed && on ? shownPosition() : null;
  if (!pos) {
    clearTimeout(timer);
    timerKey = '';
    canvas.dataset.values = allowed ? 'off' : 'hidden';
    canvas.dataset.valueVersion = '';
    showLine(allowed ? 'off' : 'hidden', []);
    showMarks([]);
    paintButtons(null, null);
    renderValueChart(false);
    return;
  }
  const sides = sidesOf(s.variant);
  const view = viewState() ?? s;
  // The computer's turn in a game under way passes by itself: its value comes after it.
  const computerTurn = !app.replay && s.status === 'playing' && isComputer(s.players?.[s.turn]);
  const e = computerTurn ? { status: 'waiting' } : entryFor(pos);
  canvas.dataset.values = e.status;
  canvas.dataset.valueVersion = e.status === 'ready' ? `${pos.game}:${pos.version}` : '';
  if (e.status === 'ready') {
    const a = e.answer;
    const { marks, drops, endTurn } = marksOf(a, view);
    const words = valueWords(a.value, a.turn, sides);
    // The swatch is the value for the side to move, as the board's colours are for the mover;
    // none once the game is over.
    const over = a.value?.remoteness === 0 && a.value?.outcome;
    showLine(
      'ready',
      [
        over
          ? null
          : h('span.value-swatch', {
              title: t('values.for_side', { side: sideName(a.turn) }),
              style: `--value: ${valueColour(a.value)}`,
            }),
        h(
          'span.value-words',
          { title: a.cached ? t('values.cached') : t('values.analysed_in', { ms: a.ms ?? 0 }) },
          words,
        ),
      ],
      { value: valueClass(a.value) },
    );
    showMarks(marks);
    paintButtons(drops, endTurn, a.turn, sides);
  } else {
    const text =
      e.status === 'waiting'
        ? t('values.after_computer')
        : e.status === 'loading'
          ? t('values.working')
          : errorText(e.error);
    showLine(
      e.status,
      [e.status === 'loading' ? h('span.spinner', { 'aria-hidden': 'true' }) : null, h('span.value-words', {}, text)],
      e.status === 'error' ? { code: e.error.code ?? '' } : {},
    );
    showMarks([]);
    paintButtons(null, null);
  }
  renderValueChart(true);
}

/** The toggle's words: a watcher's values come some turns behind the game. */
function labelToggle(btn, watching) {
  const text = watching ? `${t('html.values')} · ${t('values.behind', { count: watchLag() })}` : t('html.values');
  if (btn.textContent === text) return;
  btn.textContent = text;
  btn.title = watching ? t('values.chart_behind', { n: watchLag() }) : t('html.show_the_value_of_the_position');
}

/** A watcher's values: the chart of the positions some turns behind the game, nothing on the board. */
function renderBehind(on) {
  clearTimeout(timer);
  timerKey = '';
  canvas.dataset.valueVersion = '';
  showMarks([]);
  paintButtons(null, null);
  if (!on) {
    canvas.dataset.values = 'off';
    showLine('off', []);
    renderValueChart(false);
    return;
  }
  askLagged(renderValues);
  const e = laggedValues();
  canvas.dataset.values = 'lagged';
  const turns = t('values.turns', { count: e.lag });
  const text =
    e.error && !e.values.length
      ? errorText(e.error)
      : Number.isInteger(e.upto)
        ? t('values.lag_upto', { turns, upto: e.upto })
        : t('values.lag_begins', { turns });
  showLine('lagged', [h('span.value-words', {}, text)], { lag: String(e.lag) });
  renderValueChart(true, e);
}

export function errorText(err) {
  if (err?.code === 'unknown_type') return t('values.no_analysis');
  return err?.message || t('values.unavailable');
}

$('#values-toggle').addEventListener('click', () => {
  setValuesOn(!valuesOn());
  // Turned on again: what was refused is asked again.
  for (const [k, e] of cache) if (e.status === 'error') cache.delete(k);
  forgetChartErrors();
  forgetLaggedErrors();
  renderValues();
});

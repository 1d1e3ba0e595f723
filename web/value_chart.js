// The value chart of a finished game (or one being replayed) under the move list: the value of
// every position (`analyse` with `history`), from the first side's point of view, as a line
// around a zero line with the first side's colour above it and the second's below, a marker at
// the position shown, and a red dot on the turn that threw the most away (when it threw away a
// win or a tie, or over 1.5 men of an estimate). A click on it, or the arrow keys when it has the
// focus, show that position in the replay.

import { t } from './i18n.js';
import { $, sideName } from './ui.js';
import { app } from './store/store.js';
import { sidesOf } from './context.js';
import { requestAnalysis, valueNumber, valueWords } from './values.js';
import { openReplay } from './replay_view.js';

const W = 300; // the chart's own units (its viewBox); it is drawn at the card's width
const H = 84;
const PAD = 7;
const MID = H / 2;
const RETRY_MS = 6000;
const PLAYING_REFRESH_MS = 5000; // a game under way asks again at most this often
const SIDE_COLOURS = {
  fire: '#ff7b2e',
  x: '#ff7b2e',
  water: '#3b9cff',
  o: '#3b9cff',
  black: '#9aa0ad',
  white: '#efe8da',
};
const BIG_FALL = 150; // hundredths of a man: an estimate's fall that counts as throwing it away

const histories = new Map(); // "room#game" -> {status, values, asked, at, error, retryAt}

/** Errors are forgotten when the toggle is pressed again: the chart asks again. */
export function forgetChartErrors() {
  for (const [k, e] of histories) if (e.status === 'error') histories.delete(k);
}

function historyOf(game) {
  const s = app.state;
  const k = `${app.room}#${game}`;
  const e = histories.get(k);
  const current = game === app.gameNo;
  const now = Date.now();
  // What the current game was when its history was asked for: it grows while the game goes on.
  const asked = current ? `${s.version}:${s.status}` : '';
  let stale = !e || (e.retryAt && now >= e.retryAt);
  // Asked again once the game has ended, and now and then while it goes on.
  if (e?.status === 'ready' && e.asked !== asked) {
    stale = s.status === 'finished' || now - e.at >= PLAYING_REFRESH_MS;
  }
  if (!stale) return e;
  const next = { status: 'loading', values: e?.values ?? null, asked, at: now };
  histories.set(k, next);
  const fields = { history: true };
  if (!current) fields.game = game;
  const room = app.room;
  requestAnalysis(fields)
    .then(
      (answer) => {
        const values = (answer.values ?? [])
          .filter((x) => Number.isInteger(x?.version))
          .sort((a, b) => a.version - b.version);
        Object.assign(next, { status: 'ready', values, at: Date.now() });
      },
      (err) => {
        Object.assign(next, {
          status: 'error',
          error: err ?? {},
          retryAt: ['rate_limited', 'timeout', 'offline'].includes(err?.code) ? Date.now() + RETRY_MS : 0,
        });
      },
    )
    .then(() => {
      if (app.room === room) renderValueChart(shownNow);
    });
  return next;
}

// ---- reading the values -----------------------------------------------------------------------

/** A value seen from the other side. */
function flip(v) {
  if (!v) return v;
  const outcome = v.outcome === 'win' ? 'lose' : v.outcome === 'lose' ? 'win' : v.outcome;
  return { ...v, outcome, score: typeof v.score === 'number' ? -v.score : v.score };
}

/** A value's class of outcome (2 win, 1 tie, 0 loss), or null for an estimate that proved none. */
function outcomeClass(v) {
  if (v.outcome === 'win') return 2;
  if (v.outcome === 'lose') return 0;
  if (v.outcome === 'tie' || v.kind === 'solved') return 1;
  return null;
}

/** How much the mover threw away going from `before` to `after` (both its own), or 0. */
function fallOf(before, after) {
  if (!before || !after) return 0;
  const a = outcomeClass(before);
  const b = outcomeClass(after);
  if (a !== null && b !== null) return a > b ? 100 * (a - b) : 0;
  if (a === 2 || b === 0) return 100; // a proved win let go, or a proved loss walked into
  if (a !== null || b !== null) return 0;
  const d = (before.score ?? 0) - (after.score ?? 0);
  return d > BIG_FALL ? d / 100 : 0;
}

/** The turn that threw the most away: {index, version, side}, or null when none threw much. */
export function biggestFall(values) {
  let best = null;
  for (let i = 1; i < values.length; i++) {
    const mover = values[i - 1].turn;
    const after = values[i].turn === mover ? values[i].value : flip(values[i].value);
    const fall = fallOf(values[i - 1].value, after);
    if (fall > 0 && (!best || fall > best.fall)) best = { index: i, version: values[i].version, side: mover, fall };
  }
  return best;
}

// ---- drawing ----------------------------------------------------------------------------------

const NS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of kids) if (c) el.append(c);
  return el;
}
const title = (text) => {
  const t = svg('title');
  t.textContent = text;
  return t;
};

let layout = null; // {game, versions, step}: for clicks
let drawnKey = '';

/** The chart's points: x, y and words of each position, from the first side's point of view. */
function pointsOf(values, sides) {
  const n = values.length;
  const step = n > 1 ? (W - 2 * PAD) / (n - 1) : 0;
  return values.map((e, i) => {
    const y = (e.turn === sides[1] ? -1 : 1) * valueNumber(e.value);
    return {
      x: n > 1 ? PAD + i * step : W / 2,
      y: MID - y * (MID - PAD),
      version: e.version,
      // A watcher's chart leaves a gap where the position was live elsewhere, never valued.
      gap: !e.value,
      words: e.value ? valueWords(e.value, e.turn, sides) : t('chart.not_valued'),
    };
  });
}

function drawChart(box, values, game, shown) {
  const s = app.state;
  const sides = sidesOf(s.variant);
  const pts = pointsOf(values, sides);
  const fall = biggestFall(values);
  const at = pts.reduce((k, p, i) => (p.version <= shown ? i : k), 0);
  const k = JSON.stringify([game, s.variant, values.length, values[values.length - 1]?.version, at, fall?.version]);
  box.dataset.points = String(pts.length);
  box.dataset.shown = String(pts[at]?.version ?? '');
  box.dataset.blunder = fall ? String(fall.version) : '';
  const summary =
    t('chart.summary', {
      n: pts.length,
      a: sideName(sides[0]),
      b: sideName(sides[1]),
      start: pts[0].words,
      end: pts[pts.length - 1].words,
    }) + (fall ? ` ${t('chart.blunder', { side: sideName(fall.side), version: fall.version })}` : '');
  box.setAttribute('aria-label', summary);
  box.setAttribute('aria-valuemin', String(pts[0].version));
  box.setAttribute('aria-valuemax', String(pts[pts.length - 1].version));
  box.setAttribute('aria-valuenow', String(pts[at].version));
  box.setAttribute('aria-valuetext', `Position ${pts[at].version}: ${pts[at].words}`);
  layout = { game, versions: pts.map((p) => p.version), step: pts.length > 1 ? pts[1].x - pts[0].x : 0 };
  if (k === drawnKey && box.querySelector('svg')) return;
  drawnKey = k;

  const line = pts
    .map((p, i) => (p.gap ? '' : `${i && !pts[i - 1].gap ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`))
    .filter(Boolean)
    .join(' ');
  const all = pts.map((p) => `L${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  const area = `M${pts[0].x.toFixed(1)},${MID} ${all} L${pts[pts.length - 1].x.toFixed(1)},${MID} Z`;
  const r = Math.max(1.4, Math.min(3, layout.step / 2.6 || 3));
  const cur = pts[at];
  const chart = svg(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, width: '100%', 'aria-hidden': 'true', focusable: 'false' },
    svg(
      'defs',
      {},
      svg('clipPath', { id: 'vc-above' }, svg('rect', { x: 0, y: 0, width: W, height: MID })),
      svg('clipPath', { id: 'vc-below' }, svg('rect', { x: 0, y: MID, width: W, height: MID })),
    ),
    svg('path', {
      d: area,
      class: 'area above',
      fill: SIDE_COLOURS[sides[0]] ?? '#ff7b2e',
      'clip-path': 'url(#vc-above)',
    }),
    svg('path', {
      d: area,
      class: 'area below',
      fill: SIDE_COLOURS[sides[1]] ?? '#3b9cff',
      'clip-path': 'url(#vc-below)',
    }),
    svg('line', { x1: 0, x2: W, y1: MID, y2: MID, class: 'zero' }),
    svg('line', { x1: cur.x, x2: cur.x, y1: 2, y2: H - 2, class: 'shown' }),
    svg('path', { d: line, class: 'line' }),
  );
  if (fall) {
    // A red dot under the point of the position the turn led to, and a label on its open side.
    const p = pts[fall.index];
    chart.append(
      svg(
        'circle',
        { cx: p.x, cy: p.y, r: r + 2.6, class: 'blunder', 'data-version': p.version },
        title(t('chart.threw', { version: p.version, side: sideName(fall.side), words: p.words })),
      ),
    );
    const label = svg('text', {
      x: Math.min(W - 22, Math.max(22, p.x)),
      y: p.y > MID ? p.y - 8 : p.y + 15,
      class: 'blunder-label',
      'text-anchor': 'middle',
    });
    label.textContent = 'blunder';
    chart.append(label);
  }
  for (const [i, p] of pts.entries()) {
    chart.append(
      svg(
        'circle',
        {
          cx: p.x,
          cy: p.y,
          r: i === at ? r + 1.6 : r,
          class: `pt${i === at ? ' current' : ''}${p.gap ? ' gap' : ''}`,
          'data-version': p.version,
        },
        title(`Position ${p.version}: ${p.words}`),
      ),
    );
  }
  box.replaceChildren(chart);
}

/** After a render: the chart of the game shown, when values are on and the game is over or replayed. */
let shownNow = false; // whether the latest render wanted the chart (an answer redraws it then)

export function renderValueChart(enabled, lagged = null) {
  shownNow = enabled;
  const box = $('#value-chart');
  const s = app.state;
  const r = app.replay;
  if (enabled && lagged && s && app.room) {
    laggedChart(box, lagged, r && r.game === app.gameNo ? r.version : null);
    return;
  }
  if (!enabled || !s || !app.room || !(r || s.status === 'finished')) {
    box.hidden = true;
    box.dataset.state = 'off';
    return;
  }
  const game = r ? r.game : app.gameNo;
  const e = historyOf(game);
  box.hidden = false;
  box.dataset.game = String(game);
  if (e.values?.length) {
    box.dataset.state = e.status === 'error' ? 'error' : 'ready';
    box.setAttribute('role', 'slider');
    box.tabIndex = 0;
    drawChart(box, e.values, game, r ? r.version : s.version);
    return;
  }
  const text =
    e.status === 'loading'
      ? ` ${t('chart.working')}`
      : e.error?.code === 'unknown_type'
        ? t('values.no_analysis')
        : e.error?.message || t('chart.unavailable');
  if (box.dataset.state === e.status && !box.querySelector('svg') && box.textContent === text) return;
  box.dataset.state = e.status;
  for (const a of ['role', 'tabindex', 'aria-valuemin', 'aria-valuemax', 'aria-valuenow', 'aria-valuetext'])
    box.removeAttribute(a);
  box.setAttribute('aria-label', t('chart.label'));
  layout = null;
  drawnKey = '';
  const spin = document.createElement('span');
  spin.className = 'spinner';
  spin.setAttribute('aria-hidden', 'true');
  box.replaceChildren(...(e.status === 'loading' ? [spin] : []), text);
}

/** A watcher's chart of the live game, some turns behind it (watch_values.js): it grows as the
 *  answers come; `shown` the replay's version when one of this game is looked at. */
function laggedChart(box, lagged, shown) {
  box.hidden = false;
  box.dataset.game = String(app.gameNo);
  box.dataset.lag = String(lagged.lag);
  const values = lagged.values;
  if (values.length) {
    box.dataset.state = 'lagged';
    box.setAttribute('role', 'slider');
    box.tabIndex = 0;
    drawChart(box, values, app.gameNo, shown ?? values[values.length - 1].version);
    return;
  }
  box.dataset.state = 'waiting';
  box.dataset.points = '0';
  layout = null;
  drawnKey = '';
  box.replaceChildren(t('chart.begins', { n: lagged.lag }));
}

// A click shows the nearest position in the replay.
$('#value-chart').addEventListener('click', (ev) => {
  const chart = ev.currentTarget.querySelector('svg');
  if (!layout || !chart) return;
  const rect = chart.getBoundingClientRect();
  if (rect.width <= 0) return;
  const x = ((ev.clientX - rect.left) * W) / rect.width;
  const i = layout.step > 0 ? Math.round((x - PAD) / layout.step) : 0;
  const version = layout.versions[Math.max(0, Math.min(layout.versions.length - 1, i))];
  if (version !== undefined) openReplay(version, layout.game);
});
// Its keys: the arrows, Home and End step through the game (input.js's replay keys); Enter on a
// finished game's chart opens the replay at the position marked.
$('#value-chart').addEventListener('keydown', (ev) => {
  if ((ev.key === 'Enter' || ev.key === ' ') && layout && !app.replay) {
    ev.preventDefault();
    openReplay(layout.versions[layout.versions.length - 1], layout.game);
  }
});

// The game's clocks, one in each player card, and the countdown of the first turns. Everything
// shown comes from the state's `clock` ({control, left, running, at}) and `abort_at` with the
// server's time (server_time.js), so a reload or a spectator shows what the players see. While a
// clock or the countdown runs they are repainted when their text next changes (each second, each
// tenth under 10 s), not at every animation frame: that kept a core busy for a ticking clock.

import { t } from './i18n.js';
import { $, h, icon, sideName } from './ui.js';
import { app } from './store/store.js';
import { atOneScreen, isPlayer, mySide } from './context.js';
import { serverNow } from './server_time.js';
import { playSound } from './sounds.js';
import { controlWords } from './time_control.js';

const LOW_MS = 20000; // the low-time look
const WARN_MS = 10000; // the low-time sound, once a turn, and tenths of a second

const pad = (n) => String(n).padStart(2, '0');

/** "05:00", "1:05:00", "00:09.4", or "2d 23h" for a correspondence clock. */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t >= 86400000) return `${Math.floor(t / 86400000)}d ${Math.floor((t % 86400000) / 3600000)}h`;
  if (t < WARN_MS) {
    const tenths = Math.floor(t / 100);
    return `00:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(t / 1000);
  const hours = Math.floor(s / 3600);
  const mmss = `${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return hours ? `${hours}:${mmss}` : mmss;
}

/** A side's time left in ms now, or null when the state has no clock for it. */
export function timeLeft(clock, side, now = serverNow()) {
  const left = clock?.left?.[side];
  if (!Number.isFinite(left)) return null;
  if (clock.running !== side) return left;
  return Math.max(0, left - Math.max(0, now - clock.at));
}

/** Whether the cards show the live clocks: not while replaying an earlier game of the room. */
function shown() {
  return !!app.state?.clock && !(app.replay && app.replay.game !== app.gameNo);
}

/** The clock for a player card, or null in an untimed game. */
export function clockEl(side) {
  if (!shown()) return null;
  const el = h(
    'span.clock',
    { role: 'timer', dataset: { side }, title: t('clock.time_of', { side: sideName(side) }) },
    h('span.sr-only', {}, `${t('clock.time_of', { side: sideName(side) })}: `),
    h('span.clock-time', {}),
  );
  paintClock(el, serverNow());
  return el;
}

const lastMs = new Map(); // side -> the time shown at the last paint, to hear it pass 10 s
let warnedAt = ''; // the turn (game:version) of the last low-time sound

function paintClock(el, now) {
  const s = app.state;
  const side = el.dataset.side;
  const ms = timeLeft(s.clock, side, now);
  if (ms === null) return;
  const text = formatClock(ms);
  const time = el.querySelector('.clock-time');
  if (time.textContent !== text) time.textContent = text;
  const running = s.clock.running === side;
  el.classList.toggle('running', running);
  el.classList.toggle('low', ms < LOW_MS && (running || ms === 0));
  el.classList.toggle('out', ms === 0);
  const before = lastMs.get(side);
  lastMs.set(side, ms);
  if (running && isPlayer() && side === mySide() && before >= WARN_MS && ms < WARN_MS) {
    const turn = `${app.gameNo}:${s.version}`;
    if (warnedAt !== turn) {
      warnedAt = turn;
      playSound('low');
    }
  }
}

function paintAbort(now) {
  const s = app.state;
  const note = $('#abort-note');
  const on = !!s && s.status === 'playing' && Number.isFinite(s.abort_at);
  if (!on) {
    note.hidden = true;
    return;
  }
  const secs = Math.max(0, Math.ceil((s.abort_at - now) / 1000));
  const mine = isPlayer() && s.turn === mySide();
  const who = mine && !atOneScreen() ? t('clock.you', { side: sideName(s.turn) }) : sideName(s.turn);
  const text = t('clock.must_move', { who, secs });
  if (note.textContent !== text) note.textContent = text;
  note.classList.toggle('mine', mine);
  note.hidden = false;
}

function paint() {
  const now = serverNow();
  if (shown()) for (const el of document.querySelectorAll('#game .clock[data-side]')) paintClock(el, now);
  paintAbort(now);
}

function ticking() {
  const s = app.state;
  return !!s && s.status === 'playing' && !$('#game').hidden && (!!s.clock?.running || Number.isFinite(s.abort_at));
}

/** Milliseconds until the next change of what paint() shows: the running clock's digits (a
 *  second, or a tenth under 10 s) or the countdown's seconds; at most a second. */
function untilNextChange(now) {
  const s = app.state;
  let next = 1000;
  const left = s.clock?.running ? timeLeft(s.clock, s.clock.running, now) : null;
  if (left > 0) next = Math.min(next, left % (left < WARN_MS ? 100 : 1000)); // the digits floor
  const abort = s.abort_at - now;
  if (abort > 0) next = Math.min(next, abort % 1000 || 1000); // the seconds round up
  return Math.max(10, next + 1); // +1: past the boundary, not on it
}

let timer = 0;
function tick() {
  timer = 0;
  paint();
  if (ticking()) timer = setTimeout(tick, untilNextChange(serverNow()));
}

/** After a render: the time control's label, the clocks and the countdown, ticking if one runs. */
export function renderClocks() {
  const s = app.state;
  const label = $('#time-control-label');
  label.hidden = !s?.clock;
  if (s?.clock) {
    label.replaceChildren(
      icon('clock'),
      ` ${s.clock.control}`,
      h('span.sr-only', {}, ` (${controlWords(s.clock.control)})`),
    );
    label.title = controlWords(s.clock.control);
  }
  if (!s) lastMs.clear();
  clearTimeout(timer);
  tick();
}

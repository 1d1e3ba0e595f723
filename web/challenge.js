// Bots on the page (docs/BOTS.md): the BOT mark by a bot's name, and on a bot's profile the
// Challenge button. Its dialog sends POST /api/challenge/{name} (variant, clock, rated, side), then
// waits for the bot's answer, asking GET /api/challenge/{id} every second: once the challenge has
// its room the page goes there and takes the seat kept for it; a decline, a cancel or an expiry is
// said in the dialog.

import { $, h, sideName, variantName } from './ui.js';
import { app, batch, dispatch, subscribe } from './store/store.js';
import { saved } from './store/saved.js';
import { net } from './context.js';
import { sendJoin } from './room_requests.js';
import { clearGameScreen } from './game_state.js';
import { showScreen } from './screen.js';
import { apiFetch } from './net.js';
import { fischerName, controlWords } from './time_control.js';
import { t } from './i18n.js';

const POLL_MS = 1000;
// The welcome's presets, should the page have no welcome yet (docs/PROTOCOL.md, "Clocks").
const PRESETS = [
  [180, 2],
  [300, 3],
  [600, 5],
  [900, 10],
];
const VARIANTS = ['bomb', 'classic', 'triple_king', 'kaboom'];

/** The BOT mark shown after a bot's name. */
export function botMark() {
  return h('span.bot-mark', { title: t('bot.title') }, t('bot.mark'));
}

let bot = null; // the profile on the page when it is a bot's: its name
let waiting = null; // the challenge sent: {id, timer}

/** profile.js: the profile shown is `p` (a bot's when p.bot); the button follows who we are. */
export function showChallenge(p) {
  bot = p?.bot ? p.name : null;
  renderButton();
}

function renderButton() {
  let host = $('#profile-challenge');
  if (!host) {
    host = h('div.profile-challenge', { id: 'profile-challenge' });
    $('#profile-since').after(host);
  }
  const me = app.me;
  // An account may challenge a bot, but not the bot itself (a bot plays only through its API).
  const can = bot && me && me.name && me.name.toLowerCase() !== bot.toLowerCase();
  host.replaceChildren(
    can
      ? h('button.btn.primary', { id: 'challenge-btn', type: 'button', onclick: openDialog }, t('challenge.button'))
      : '',
  );
  host.hidden = !can;
}

subscribe((actions) => {
  if (bot && actions.some((a) => a.type === 'got/me')) renderButton();
});

// ---- the dialog ------------------------------------------------------------------------------

function dialog() {
  let dlg = $('#challenge-dialog');
  if (dlg) return dlg;
  const field = (label, control) => h('label.field', {}, h('span', {}, label), control);
  dlg = h(
    'dialog.dialog.challenge-dialog',
    { id: 'challenge-dialog', 'aria-labelledby': 'challenge-title' },
    h(
      'form',
      { id: 'challenge-form', method: 'dialog' },
      h('h2', { id: 'challenge-title' }),
      field(t('challenge.variant'), h('select', { id: 'challenge-variant' })),
      field(t('challenge.clock'), h('select', { id: 'challenge-clock' })),
      h('label.check', {}, h('input', { id: 'challenge-rated', type: 'checkbox' }), ` ${t('challenge.rated')}`),
      field(t('challenge.side'), h('select', { id: 'challenge-side' })),
      h('p.form-error', { id: 'challenge-error', role: 'alert', hidden: true }),
      h(
        'div.dialog-buttons',
        {},
        h('button.btn.ghost', { id: 'challenge-close', type: 'button' }, t('challenge.close')),
        h('button.btn.primary', { id: 'challenge-send', type: 'submit' }, t('challenge.send')),
      ),
    ),
    h(
      'div',
      { id: 'challenge-wait', hidden: true },
      h('p', { id: 'challenge-wait-text', role: 'status' }),
      h('div.dialog-buttons', {}, h('button.btn', { id: 'challenge-cancel', type: 'button' }, t('challenge.cancel'))),
    ),
  );
  document.body.append(dlg);
  $('#challenge-form', dlg).addEventListener('submit', (e) => {
    e.preventDefault();
    send();
  });
  $('#challenge-close', dlg).addEventListener('click', () => dlg.close());
  $('#challenge-cancel', dlg).addEventListener('click', cancel);
  $('#challenge-variant', dlg).addEventListener('change', fillSides);
  $('#challenge-clock', dlg).addEventListener('change', ratedFollowsClock);
  // Escape while waiting takes the challenge back: nobody would see the bot's answer.
  dlg.addEventListener('close', () => {
    if (waiting) cancel();
  });
  return dlg;
}

function openDialog() {
  const dlg = dialog();
  $('#challenge-title').textContent = t('challenge.title', { name: bot });
  const variants = app.variants.length ? app.variants.map((v) => v.id) : VARIANTS;
  const keep = $('#challenge-variant').value;
  $('#challenge-variant').replaceChildren(
    ...variants.map((id) => h('option', { value: id }, variantName(id, app.variants))),
  );
  if (variants.includes(keep)) $('#challenge-variant').value = keep;
  const presets = app.welcome?.clocks?.presets ?? PRESETS;
  const clock = $('#challenge-clock').value;
  $('#challenge-clock').replaceChildren(
    h('option', { value: 'none' }, t('challenge.no_clock')),
    ...presets.map(([b, i]) =>
      h('option', { value: `${b}+${i}`, title: controlWords(fischerName(b, i)) }, fischerName(b, i)),
    ),
  );
  $('#challenge-clock').value = [...$('#challenge-clock').options].some((o) => o.value === clock)
    ? clock
    : `${presets[0][0]}+${presets[0][1]}`;
  fillSides();
  ratedFollowsClock();
  showWaiting(false);
  say('');
  dlg.showModal();
}

function fillSides() {
  const variant = $('#challenge-variant').value;
  const sides = app.variants.find((v) => v.id === variant)?.sides ?? ['first', 'second'];
  const keep = $('#challenge-side').value || 'random';
  $('#challenge-side').replaceChildren(
    h('option', { value: 'random' }, t('challenge.random')),
    h('option', { value: 'first' }, t('challenge.first', { side: sideName(sides[0]) })),
    h('option', { value: 'second' }, t('challenge.second', { side: sideName(sides[1]) })),
  );
  $('#challenge-side').value = keep;
}

/** A rated game needs a clock: the box is off and unticked without one. */
function ratedFollowsClock() {
  const none = $('#challenge-clock').value === 'none';
  $('#challenge-rated').disabled = none;
  if (none) $('#challenge-rated').checked = false;
}

function say(text) {
  $('#challenge-error').textContent = text;
  $('#challenge-error').hidden = !text;
}

function showWaiting(on, text = '') {
  $('#challenge-form').hidden = on;
  $('#challenge-wait').hidden = !on;
  $('#challenge-wait-text').textContent = text;
}

/** The server's answer as {ok, status, data}; a network failure is status 0. */
async function call(method, path, body) {
  try {
    const res = await (method === 'GET' ? apiFetch : fetch)(path, {
      method,
      cache: 'no-store',
      credentials: 'same-origin',
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json().catch(() => ({}));
    return { ok: res.ok, status: res.status, data };
  } catch {
    return { ok: false, status: 0, data: { message: t('challenge.offline') } };
  }
}

async function send() {
  const clock = $('#challenge-clock').value;
  const [base, increment] = clock === 'none' ? [] : clock.split('+').map(Number);
  const body = {
    variant: $('#challenge-variant').value,
    options: {},
    clock: clock === 'none' ? null : { base, increment },
    rated: $('#challenge-rated').checked,
    color: $('#challenge-side').value,
  };
  $('#challenge-send').disabled = true;
  const r = await call('POST', `/api/challenge/${encodeURIComponent(bot)}`, body);
  $('#challenge-send').disabled = false;
  if (!r.ok || !r.data.challenge?.id) {
    say(r.data.message || t('challenge.refused', { status: r.status }));
    return;
  }
  const name = bot;
  waiting = { id: r.data.challenge.id, name, timer: 0 };
  showWaiting(true, t('challenge.waiting', { name }));
  poll(waiting);
}

/** Asks after the challenge every second until the bot answers it one way or the other. */
async function poll(w) {
  if (waiting !== w) return;
  const r = await call('GET', `/api/challenge/${encodeURIComponent(w.id)}`);
  if (waiting !== w) return;
  const c = r.data.challenge;
  if (c?.room) {
    waiting = null;
    $('#challenge-dialog').close();
    goRoom(c.room);
    return;
  }
  // `accepted` comes a moment before its room: the wait goes on until the room is there.
  if (c && c.status !== 'created' && c.status !== 'accepted') {
    waiting = null;
    showWaiting(false);
    say(endedText(c, w.name));
    return;
  }
  w.timer = setTimeout(() => poll(w), POLL_MS);
}

function endedText(c, name) {
  if (c.status === 'declined')
    return c.decline_reason
      ? t('challenge.declined_because', { name, reason: c.decline_reason })
      : t('challenge.declined', { name });
  if (c.status === 'expired') return t('challenge.expired', { name });
  return t('challenge.canceled');
}

async function cancel() {
  const w = waiting;
  if (!w) return;
  waiting = null;
  clearTimeout(w.timer);
  showWaiting(false);
  await call('POST', `/api/challenge/${encodeURIComponent(w.id)}/cancel`);
}

/**
 * To the challenge's room, into the seat the server keeps for us, as lobby.js's goRoom does (not
 * imported: lobby.js imports profile.js, which imports this).
 */
function goRoom(room) {
  history.pushState({ room }, '', `/r/${encodeURIComponent(room)}`);
  const fresh = app.room !== room;
  if (fresh) clearGameScreen();
  batch(() => {
    dispatch({ type: 'want/enter', room, seat: 'any', name: saved.name || 'Guest', token: null, fresh });
    showScreen('game');
  });
  if (net.connected) sendJoin();
}

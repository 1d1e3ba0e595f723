// Who is here: each player's connection and network lag in their card, and the claim against an
// opponent who left a clocked game. `state.players[side].connected` says who is connected; the
// server's `presence` messages add the lag each player's pings report (server_time.js). The
// state's `away` names a player whose connections are all gone: from its `claim_at` (server time)
// the other player may claim the game, won or drawn (`claim`).

import { t } from './i18n.js';
import { $, h, sideName } from './ui.js';
import { app, dispatch } from './store/store.js';
import { atOneScreen, isPlayer, send } from './context.js';
import { lagMs, serverNow } from './server_time.js';

// ---- presence: lag in the player cards --------------------------------------------------------

/** A lag in ms as the signal's strength: 3 bars under 100 ms, 2 under 300, else 1. */
function bars(ms) {
  return ms < 100 ? 3 : ms < 300 ? 2 : 1;
}

/** A side's lag in ms as the room last heard it (ours: our own estimate), or null. */
export function lagOf(side) {
  const heard = app.presence?.[side]?.lag;
  const reported = Number.isInteger(heard) ? heard : null;
  if (isPlayer() && (side === app.seat || atOneScreen())) return lagMs() ?? reported; // both ours at one screen
  return reported;
}

/** The connection part of a player card: a signal and "42 ms", or "offline". */
export function presenceEl(side, p) {
  if (!p) return null;
  if (!p.connected) {
    return h(
      'span.presence.off',
      { title: t('presence.offline_title'), dataset: { side } },
      h('span.presence-text', {}, t('presence.offline')),
    );
  }
  const ai = p.ai ?? p.computer;
  const ms = ai ? null : lagOf(side);
  if (ms === null) {
    return h(
      'span.presence.on',
      { title: t('presence.connected_title'), dataset: { side } },
      h('span.sr-only', {}, t('presence.connected')),
    );
  }
  const n = bars(ms);
  return h(
    `span.presence.on.bars-${n}`,
    { title: t('presence.lag_title', { ms }), dataset: { side, lag: ms } },
    h('span.signal', { 'aria-hidden': 'true' }, h('i', {}), h('i', {}), h('i', {})),
    h('span.presence-text', { 'aria-hidden': 'true' }, `${ms} ms`),
    h('span.sr-only', {}, t('presence.lag', { ms })),
  );
}

/** A `presence` message: the players' lag (and connections, which the next state confirms). */
export function onPresence(msg) {
  if (!msg.players || typeof msg.players !== 'object') return;
  dispatch({ type: 'got/presence', players: msg.players });
}

// ---- the claim against an opponent who left ----------------------------------------------------

/** The state's `away`, while the game is on. */
function away() {
  const s = app.state;
  return s?.status === 'playing' && s.away?.side ? s.away : null;
}

/** Whether we may claim against `a` (once its time comes): we play, and they are the one gone. */
function ours(a) {
  return isPlayer() && !atOneScreen() && a.side !== app.seat; // at one screen nobody left: no claim
}

let timer = 0;

function paint() {
  clearTimeout(timer);
  timer = 0;
  const note = $('#away-note');
  const a = away();
  if (!a) {
    note.hidden = true;
    return;
  }
  note.hidden = false;
  const who = sideName(a.side);
  const mine = ours(a);
  const wait = Number.isFinite(a.claim_at) ? a.claim_at - serverNow() : 0;
  const ready = mine && wait <= 0;
  // The live part changes only when what one may do changes; the seconds are a timer of their own.
  const text = !mine
    ? t('presence.disconnected', { who })
    : ready
      ? t('presence.left_claim', { who })
      : t('presence.left', { who });
  const wait$ = $('#away-wait');
  const secs = Math.max(1, Math.ceil(wait / 1000));
  const count = mine && !ready ? t('presence.claim_in', { secs }) : '';
  if ($('#away-text').textContent !== text) $('#away-text').textContent = text;
  if (wait$.textContent !== count) wait$.textContent = count;
  wait$.hidden = !count;
  note.classList.toggle('mine', mine);
  $('#away-buttons').hidden = !ready;
  for (const b of [$('#claim-win'), $('#claim-draw')]) b.disabled = app.claiming || app.replaced;
  // Repainted when the shown second changes, until the claim is open.
  if (mine && !ready) timer = setTimeout(paint, (wait % 1000) + 20);
}

/** After a render: the note on a player who left, and the claim when it is open. */
export function renderAway() {
  paint();
}

function claim(draw) {
  if (app.claiming || !away()) return;
  if (send({ type: 'claim', draw }, { kind: 'claim' }) !== null) {
    dispatch({ type: 'sent/claim' });
  }
}

$('#claim-win').addEventListener('click', () => claim(false));
$('#claim-draw').addEventListener('click', () => claim(true));

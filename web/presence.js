// Who is here: each player's connection and network lag in their card. `state.players[side].connected`
// says who is connected; the server's `presence` messages add the lag each player's pings report
// (server_time.js).

import { h } from './ui.js';
import { app } from './state.js';
import { isPlayer } from './context.js';
import { renderGame } from './game_view.js';
import { lagMs } from './server_time.js';

// ---- presence: lag in the player cards --------------------------------------------------------

/** A lag in ms as the signal's strength: 3 bars under 100 ms, 2 under 300, else 1. */
function bars(ms) {
  return ms < 100 ? 3 : ms < 300 ? 2 : 1;
}

/** A side's lag in ms as the room last heard it (ours: our own estimate), or null. */
export function lagOf(side) {
  const heard = app.presence?.[side]?.lag;
  const reported = Number.isInteger(heard) ? heard : null;
  if (isPlayer() && side === app.seat) return lagMs() ?? reported;
  return reported;
}

/** The connection part of a player card: a signal and "42 ms", or "offline". */
export function presenceEl(side, p) {
  if (!p) return null;
  if (!p.connected) {
    return h('span.presence.off', { title: 'Offline: not connected', dataset: { side } },
      h('span.presence-text', {}, 'offline'));
  }
  const ai = p.ai ?? p.bot ?? p.computer;
  const ms = ai ? null : lagOf(side);
  if (ms === null) {
    return h('span.presence.on', { title: 'Connected', dataset: { side } },
      h('span.sr-only', {}, 'connected'));
  }
  const n = bars(ms);
  return h(`span.presence.on.bars-${n}`, { title: `Connected, lag ${ms} ms`, dataset: { side, lag: ms } },
    h('span.signal', { 'aria-hidden': 'true' }, h('i', {}), h('i', {}), h('i', {})),
    h('span.presence-text', { 'aria-hidden': 'true' }, `${ms} ms`), h('span.sr-only', {}, `connected, lag ${ms} ms`));
}

/** A `presence` message: the players' lag (and connections, which the next state confirms). */
export function onPresence(msg) {
  if (!msg.players || typeof msg.players !== 'object') return;
  app.presence = msg.players;
  renderGame();
}

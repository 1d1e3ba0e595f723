// The server's time, for the clocks: a `ping` now and then (once the socket opens, then every few
// seconds while a game is shown) and its `pong` give the offset of the server's clock from ours,
// taken from the quickest of the last few round trips, and our one-way lag, which an `act` of a
// clocked game tells the server (it forgives that much, up to a quota). Each ping carries that lag
// too, once known: the server tells the room (`presence`), and the player cards show it.

import { app } from './store/store.js';
import { net } from './context.js';

const EVERY_MS = 4000;
const SAMPLES = 5;

/** This page's clock in ms since the epoch: monotonic, unlike Date.now(). */
const localNow = () => performance.timeOrigin + performance.now();

const samples = []; // the last few {rtt, offset}
let offset = 0; // server time - local time, ms
let lag = null; // smoothed rtt/2, ms, once a pong came

/** The server's time now (our own clock until the first pong). */
export function serverNow() {
  return localNow() + offset;
}

/** Our one-way lag for an `act`: a whole number of ms in 0..60000, or null before any pong. */
export function lagMs() {
  return lag === null ? null : Math.max(0, Math.min(60000, Math.round(lag)));
}

export function sendPing() {
  const msg = { type: 'ping', t: localNow() };
  const ms = lagMs();
  if (ms !== null) msg.lag = ms;
  net.send(msg);
}

/** Whether this server answers pings (its welcome lists clocks). */
const answersPings = () => !!app.welcome?.clocks;

/** On entering a room: our lag goes to it at once, if we know it yet (else at the first pong). */
export function reportLag() {
  if (answersPings() && lag !== null) sendPing();
}

export function onPong(msg) {
  const t = Number(msg.t);
  const now = Number(msg.now);
  if (!Number.isFinite(t) || !Number.isFinite(now)) return;
  const rtt = localNow() - t;
  if (!(rtt >= 0) || rtt > 60000) return; // not one of ours
  samples.push({ rtt, offset: now - (t + rtt / 2) });
  if (samples.length > SAMPLES) samples.shift();
  offset = samples.reduce((a, b) => (b.rtt < a.rtt ? b : a)).offset;
  const first = lag === null;
  lag = first ? rtt / 2 : lag * 0.7 + (rtt / 2) * 0.3;
  // The first estimate, taken in a room, is told to it now rather than at the next ping.
  if (first && app.room) sendPing();
}

// While a game is on screen, the estimate is kept fresh (and the room hears our lag).
setInterval(() => {
  if (answersPings() && app.state && !document.hidden && document.body.dataset.screen === 'game') sendPing();
}, EVERY_MS);

// The requests that take this page into a room and out of it (join, leave): sent by the
// connection (joining again after a reconnect), the start screen and the game's controls.

import { app } from './store/store.js';
import { saved } from './store/saved.js';
import { atOneScreen, isPlayer, send } from './context.js';

/** Joins (or joins again) the room of app.joinReq, with its seat's token when it has one. */
export function sendJoin() {
  const r = app.joinReq;
  const msg = { type: 'join', room: r.room, seat: r.seat, name: r.name || saved.name || 'Guest' };
  if (r.token) msg.token = r.token;
  send(msg, { kind: 'join', ...r });
}

/** Leaves the room; a seat given up before the game began is forgotten here too. */
export function sendLeave() {
  if (!app.room) return;
  const s = app.state;
  const freesSeat =
    isPlayer() && !atOneScreen() && !!s && app.gameNo === 1 && s.version === 0 && s.status !== 'finished';
  if (send({ type: 'leave' }) !== null && freesSeat) saved.dropSeat(app.room);
}

// What the player plays: an action sent to the server (its version, and our lag in a clocked game),
// and the end of a turn. Asked for by the board's clicks, the controls and a premove alike.
import { app, dispatch } from './store/store.js';
import { myLegal, send } from './context.js';
import { lagMs } from './server_time.js';

/** Sends `action` (one of the state's `legal`, unchanged) for the latest state. */
export function act(action) {
  const s = app.state;
  if (!s) return;
  const msg = { type: 'act', action, version: s.version };
  // A clocked game forgives our network lag, up to a quota.
  const lag = lagMs();
  if (s.clock && lag !== null) msg.lag = lag;
  const id = send(msg, { kind: 'act' });
  if (id === null) return;
  dispatch({ type: 'sent/act' });
}

export function endTurn() {
  const a = myLegal().find((x) => x.kind === 'end_turn');
  if (a) act(a);
}

// Values for watchers (PROTOCOL.md, "Values for watchers"): a spectator of a live, unrated game
// between two people may see its values a few turns behind the game (the host's `watch_lag`), as
// the value chart growing behind it. Each new state that may have moved the lagged cut on asks for
// the versions after the last one received (`analyse` with `history`, `lagged` and `from`), one
// request at a time; the answers' values are kept by game, a null value being a gap. No position
// near the live one is ever valued, so nothing is drawn on the live board.

import { app } from './store/store.js';
import { isPlayer, sidesOf } from './context.js';
import { requestAnalysis } from './values.js';

// values_view.js's test, not imported: that view imports this module.
const isComputer = (p) => !!(p && (p.ai ?? p.computer));

/** The host's lag in turns (welcome's analysis.watch_lag), 0 when it has none. */
export const watchLag = () => Math.max(0, Number(app.welcome?.analysis?.watch_lag) || 0);

/** Whether this page may ask for values behind the game it watches: a spectator's, of a live game
 *  between two people in an unrated room, on a host that allows it. */
export function watchValuesAllowed() {
  const s = app.state;
  if (!s || !app.room || app.replaced || isPlayer() || s.status !== 'playing' || !watchLag()) return false;
  const players = sidesOf(s.variant).map((side) => s.players?.[side]);
  if (s.rated || players.some((p) => Number.isFinite(p?.rating))) return false;
  return !players.some(isComputer);
}

const games = new Map(); // "room#game" -> {values, upto, lag, asking, askedAt, error, retryAfter}

/** What has come of the game watched: {values: [{version, turn, value}], upto, lag, error}. */
export function laggedValues() {
  const k = `${app.room}#${app.gameNo}`;
  let e = games.get(k);
  if (!e)
    games.set(k, (e = { values: [], upto: null, lag: watchLag(), asking: false, askedAt: null, retryAfter: null }));
  return e;
}

/**
 * Asks for what is new, when the lagged cut may have moved on since the last ask: the game has
 * completed another turn (a hop of a multi-jump does not move it), or the last ask was refused for
 * now. `onAnswer` redraws.
 */
export function askLagged(onAnswer) {
  const s = app.state;
  const e = laggedValues();
  const turns = Number.isInteger(s.moves) ? s.moves : s.version;
  const again = e.retryAfter !== null && s.version > e.retryAfter;
  if (e.asking || (e.askedAt === turns && !again)) return;
  const last = e.values[e.values.length - 1];
  const from = Math.max(last ? last.version + 1 : 0, Number.isInteger(e.upto) ? e.upto + 1 : 0);
  const version = s.version;
  e.asking = true;
  e.askedAt = turns;
  e.retryAfter = null;
  const room = app.room;
  // Always with `from` (0 too): such an ask costs one of the address's analyses, not a history's
  // five, and answers at most four versions; the rest is asked for at once (below).
  requestAnalysis({ history: true, lagged: true, from })
    .then(
      (answer) => {
        e.error = null;
        e.lag = answer.lag ?? e.lag;
        if (answer.upto !== undefined) e.upto = answer.upto;
        const seen = new Set(e.values.map((v) => v.version));
        const fresh = (answer.values ?? []).filter((v) => Number.isInteger(v?.version) && !seen.has(v.version));
        if (fresh.length) e.values = [...e.values, ...fresh].sort((a, b) => a.version - b.version);
        // More behind the cut than one answer holds (a watcher who came late): ask again now.
        const got = e.values[e.values.length - 1]?.version ?? -1;
        if (fresh.length && Number.isInteger(e.upto) && got < e.upto) e.askedAt = null;
      },
      (err) => {
        e.error = err ?? {};
        // Refused for now (too many analyses, no connection): asked again with a later state.
        if (['rate_limited', 'timeout', 'offline'].includes(e.error.code)) e.retryAfter = version;
      },
    )
    .then(() => {
      e.asking = false;
      if (app.room === room) onAnswer();
    });
}

/** Turned on again: an ask that was refused is made again with the next render. */
export function forgetLaggedErrors() {
  for (const e of games.values()) {
    if (!e.error) continue;
    e.error = null;
    e.askedAt = null;
  }
}

// The positions of each game this tab knows (app.games: game number -> version -> snapshot), as
// it saw them live or the server sent them, and what they add to the move list; the turns shown
// and which of them a position comes after. Shared by taking in a state (game_state.js), the move
// list (move_list.js), the notation (notation_view.js) and the replay (replay_view.js).
import { app } from './state.js';
import { fetchPositions } from './replay.js';

/** Adds positions the server sent (never replacing one this tab saw live). */
export function mergePositions(game, positions) {
  if (!positions) return;
  let m = app.games.get(game);
  if (!m) app.games.set(game, (m = new Map()));
  for (const [v, snap] of positions) if (!m.has(v)) m.set(v, snap);
}

/** Explosions and crownings of each turn, from the positions known after it. */
export function enrichMoves(moves, game) {
  const known = app.games.get(game);
  if (!known) return;
  for (const m of moves) {
    if (!m.versions?.length) continue;
    const snap = known.get(Math.max(...m.versions));
    if (!snap?.last || snap.last.side !== m.side) continue;
    m.exploded = [...(snap.last.exploded ?? [])];
    m.promoted = [...(snap.last.promoted ?? [])];
  }
}

/** The turns shown in the move list: the current game's, or those of the game being replayed. */
export function shownMoves() {
  const r = app.replay;
  return r && r.game !== app.gameNo ? (r.moves ?? []) : app.moves;
}

/** The turn a position comes after: the turn of that version, else (a version of no action, as a
 *  takeback's, which shows the position after the turn before it) the last turn before it; -1 for
 *  none. */
export function moveIndexOf(version, moves = shownMoves()) {
  const i = moves.findIndex((m) => m.versions?.includes(version));
  if (i >= 0) return i;
  let before = -1;
  moves.forEach((m, k) => {
    if (m.versions?.length && Math.min(...m.versions) < version) before = k;
  });
  return before;
}

/** Asks the server for the positions of a game this tab has not seen whole (once per game);
 *  resolves true when it asked. */
export async function loadPositions(game) {
  const key = `${app.room}#${game}`;
  if (app.positionsTried.has(key)) return false;
  app.positionsTried.add(key);
  const room = app.room;
  const q = Number.isInteger(app.state?.game) ? game : undefined;
  const positions = await fetchPositions(room, q);
  if (app.room !== room) return;
  mergePositions(game, positions);
  if (positions && game === app.gameNo) enrichMoves(app.moves, game);
  return true;
}

// The positions of each game this tab knows (app.games: game number -> version -> snapshot, kept by
// store/game.js), asked of the server when some are missing; the turns shown and which of them a
// position comes after. Shared by the move list (move_list.js), the notation (notation_view.js)
// and the replay (replay_view.js).
import { app, dispatch } from './store/store.js';
import { fetchPositions } from './replay.js';

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
  dispatch({ type: 'sent/positions', key });
  const room = app.room;
  const q = Number.isInteger(app.state?.game) ? game : undefined;
  const positions = await fetchPositions(room, q);
  if (app.room !== room) return false;
  dispatch({ type: 'got/positions', game, positions });
  return true;
}

// The positions of each game this tab knows (app.games: game number -> version -> snapshot), as
// it saw them live or the server sent them, and what they add to the move list. Shared by taking
// in a state (game_state.js) and the replay (replay_view.js).
import { app } from './state.js';

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

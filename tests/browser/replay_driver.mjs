// Replaying a game in a test: what the board shows while replaying against the states the page
// received, and a short bomb game between two pages to replay.
import assert from 'node:assert/strict';
import { person, waitBoard, move, createGame, shareLink, joinByLink } from './helpers.mjs';

/** The pieces on the board the page shows (the replayed position while replaying). */
export const shownPieces = (page) =>
  page.evaluate(() =>
    JSON.stringify(
      [...window.bombcheckers.board.state.board.pieces].map((p) => `${p.at}:${p.side}:${p.kind}:${p.rank}`).sort(),
    ),
  );

/** The pieces of a live state this page received, by version (and game of the room). */
export const livePieces = (page, version, game) =>
  page.evaluate(
    ([v, g]) => {
      const app = window.bombcheckers.app;
      const snap = app.games.get(g ?? app.gameNo)?.get(v);
      return snap ? JSON.stringify(snap.board.pieces.map((p) => `${p.at}:${p.side}:${p.kind}:${p.rank}`).sort()) : null;
    },
    [version, game],
  );

export async function replayAt(page, version, game) {
  await waitBoard(page, { replayVersion: String(version) });
  // The board shows exactly the position the server sent for that version.
  assert.equal(await shownPieces(page), await livePieces(page, version, game), `board at version ${version}`);
}

/** Two players in a bomb game; fire has played c3-d4, water f6-e5, fire's bomb d4xf6 (it explodes). */
export async function openingGame(browser) {
  const fire = await person(browser);
  const water = await person(browser);
  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await joinByLink(water, await shareLink(fire), 'Rachel');
  await waitBoard(fire, { status: 'playing', turn: 'fire' });
  await move(fire, [2, 2], [3, 3]);
  await waitBoard(water, { version: 1, turn: 'water' });
  await move(water, [5, 5], [4, 4]);
  await waitBoard(fire, { version: 2, turn: 'fire' });
  await move(fire, [3, 3], [5, 5]);
  await waitBoard(water, { version: 3, turn: 'water' });
  return { fire, water, room };
}

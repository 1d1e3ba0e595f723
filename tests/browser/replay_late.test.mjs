// Replay of a game joined late: the positions come from the server, and a move made while the
// record is on its way still reaches the move list. Stepping through a game: replay.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, waitBoard, move, BASE } from './helpers.mjs';
import { openingGame } from './replay_driver.mjs';
import { browser } from './shared_browser.mjs';

test('replay after joining late: the positions come from the server (GET /api/games/{room}/positions)', async () => {
  const { fire, water, room } = await openingGame(browser);
  const res = await fetch(`${BASE}/api/games/${room}/positions`);
  assert.equal(res.status, 200, `GET /api/games/${room}/positions`);
  const body = await res.json();
  assert.deepEqual(
    body.positions.map((p) => p.version),
    [0, 1, 2, 3],
  );
  const watcher = await person(browser);
  await watcher.goto(`${BASE}/r/${room}`);
  await watcher.locator('#join-dialog[open]').waitFor();
  await watcher.click('#join-watch');
  await waitBoard(watcher, { seat: 'spectator', version: 3 });
  await watcher.locator('#move-list li', { hasText: 'c3–d4' }).getByRole('button').click();
  await waitBoard(watcher, { replayVersion: '1' });
  await watcher.keyboard.press('Home');
  await waitBoard(watcher, { replayVersion: '0' });
  const start = await watcher.evaluate(() => window.bombcheckers.board.state.board.pieces.length);
  assert.equal(start, 24, 'the start position has 24 pieces');
  await watcher.keyboard.press('End');
  await waitBoard(watcher, { replayVersion: '3' });
  for (const p of [fire, water, watcher]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water, watcher].map((p) => p.context().close()));
});

test('a move made while a late joiner fetches the game record still ends up in its move list', async () => {
  const { fire, water, room } = await openingGame(browser);
  const watcher = await person(browser);
  // The first record the watcher asks for is made now and delivered only after the next move.
  let moved;
  const movedPromise = new Promise((resolve) => {
    moved = resolve;
  });
  let held = 0;
  await watcher.route(`**/api/games/${room}`, async (route) => {
    if (held++ > 0) return route.continue();
    const response = await route.fetch();
    await movedPromise;
    return route.fulfill({ response });
  });
  await watcher.goto(`${BASE}/r/${room}`);
  await watcher.locator('#join-dialog[open]').waitFor();
  await watcher.click('#join-watch');
  await waitBoard(watcher, { seat: 'spectator', version: 3 });
  await watcher.waitForFunction(() => window.bombcheckers.app.movesPartial === true);
  await move(water, [1, 5], [2, 4]);
  await waitBoard(watcher, { version: 4 });
  moved();
  await watcher.locator('#move-list li', { hasText: 'c3–d4' }).waitFor();
  await watcher.locator('#move-list li', { hasText: 'b6–c5' }).waitFor();
  assert.equal(await watcher.locator('#move-list li', { hasText: 'Earlier moves not shown' }).count(), 0);
  assert.equal(await watcher.locator('#move-list li button.move').count(), 4);
  assert.ok(held >= 2, 'the record was asked for again');
  for (const p of [fire, water, watcher]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water, watcher].map((p) => p.context().close()));
});

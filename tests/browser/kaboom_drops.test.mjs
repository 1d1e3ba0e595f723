// Kaboom's drop buttons across renders of the game screen: a press and a release that straddle a
// render still drop, and the keyboard's focus stays. Drops, bombs and a win: kaboom.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, waitBoard, createGame, shareLink, joinByLink, pieceAt } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('kaboom: a drop button pressed while the page renders still drops, and keeps the keyboard focus', async () => {
  const x = await person(browser);
  const o = await person(browser);
  await createGame(x, {
    variant: 'kaboom',
    name: 'Xena',
    seat: 'x',
    options: { width: 7, height: 6, connect: 4, bombs: 0 },
  });
  await joinByLink(o, await shareLink(x), 'Otto');
  await waitBoard(x, { status: 'playing', turn: 'x' });
  // A presence message renders the game screen (the room sends one every 2 s while players ping).
  const rerender = (page) =>
    page.evaluate(() =>
      window.bombcheckers.receive({
        type: 'presence',
        players: { x: { connected: true, lag: 20 }, o: { connected: true, lag: 30 } },
      }),
    );
  const btn = x.getByRole('button', { name: 'Drop a piece in column 2' });
  await btn.focus();
  await rerender(x);
  assert.equal(await x.evaluate(() => document.activeElement?.dataset.column), '1', 'the focus stayed on column 2');

  // Pressed before a render, released after it: one click, one drop.
  const bb = await btn.boundingBox();
  await x.mouse.move(bb.x + bb.width / 2, bb.y + bb.height / 2);
  await x.mouse.down();
  await rerender(x);
  await x.mouse.up();
  await waitBoard(x, { version: 1, turn: 'o' });
  await waitBoard(o, { version: 1 });
  assert.equal((await pieceAt(o, [1, 0]))?.side, 'x');
  for (const p of [x, o]) assert.deepEqual(p.errors, []);
  await Promise.all([x, o].map((p) => p.context().close()));
});

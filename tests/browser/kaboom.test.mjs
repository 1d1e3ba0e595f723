// Kaboom (Connect-N with bombs): drops by button and by clicking a column, a bomb and its detonation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, clickSquare, createGame, shareLink, joinByLink, shot, pieceAt } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('kaboom: drop buttons, column clicks, a bomb, a detonation, a win', async () => {
  const x = await person(browser, { motion: true });
  const o = await person(browser, { motion: true });
  await createGame(x, {
    variant: 'kaboom',
    name: 'Xena',
    seat: 'x',
    options: { width: 7, height: 6, connect: 4, bombs: 1 },
  });
  await waitBoard(x, { variant: 'kaboom', cols: '7', rows: '6', flipped: 'false' });
  const link = await shareLink(x);
  assert.equal(await joinByLink(o, link, 'Otto'), 'o');
  await waitBoard(o, { flipped: 'false', status: 'playing' });
  await waitBoard(x, { status: 'playing', turn: 'x' });
  // Screen readers hear each player's bombs and whether they are connected.
  const card = await x.locator('#player-top').ariaSnapshot();
  assert.match(card, /1 bomb left/, card);
  assert.match(card, /\bconnected/, card);

  // The drop buttons sit over their columns.
  const btn = x.getByRole('button', { name: 'Drop a piece in column 4' });
  const bb = await btn.boundingBox();
  const cb = await x.locator('#board').boundingBox();
  const mid = bb.x + bb.width / 2;
  assert.ok(mid > cb.x + (3 / 7) * cb.width && mid < cb.x + (4 / 7) * cb.width, 'button over column 4');

  await btn.click();
  await waitBoard(x, { version: 1 });
  await waitBoard(o, { version: 1, turn: 'o' });
  assert.deepEqual((await pieceAt(o, [3, 0]))?.side, 'x');
  // o clicks high up in column 4 on the canvas: the piece falls on top of x's.
  await clickSquare(o, [3, 5]);
  await waitBoard(o, { version: 2 });
  await waitBoard(x, { version: 2 }); // x's page reads the board it has, so wait for that state
  assert.equal((await pieceAt(x, [3, 1]))?.side, 'o');
  // x drops its bomb in column 3.
  await x.getByRole('button', { name: 'Drop a bomb in column 3' }).click();
  await waitBoard(o, { version: 3, turn: 'o' });
  assert.equal((await pieceAt(o, [2, 0]))?.kind, 'bomb');
  await o.getByRole('button', { name: 'Drop a piece in column 2' }).click();
  await waitBoard(x, { version: 4, turn: 'x' });
  await x.waitForTimeout(500);
  await shot(x, 'kaboom-before-detonation');
  // x clicks its own bomb: it goes off, taking its neighbours.
  await clickSquare(x, [2, 0]);
  await waitBoard(x, { version: 5 });
  await x.waitForTimeout(350);
  await shot(x, 'kaboom-detonation');
  await waitBoard(o, { version: 5 });
  assert.equal(await pieceAt(x, [2, 0]), null, 'the bomb is gone');
  assert.equal((await pieceAt(x, [1, 0]))?.side, undefined, 'its neighbour is gone');
  await x.locator('#move-list li', { hasText: 'detonate c1' }).waitFor();

  // Four in a row for o wins: o fills column 1, x plays elsewhere.
  const drop = async (page, col) => {
    const v = Number((await board(page)).version);
    await page.getByRole('button', { name: `Drop a piece in column ${col + 1}` }).click();
    await waitBoard(page, { version: v + 1 });
  };
  const state = await x.evaluate(() => window.bombcheckers.app.state);
  assert.equal(state.turn, 'o');
  await drop(o, 0);
  await drop(x, 6);
  await drop(o, 0);
  await drop(x, 6);
  await drop(o, 0);
  await drop(x, 5);
  await drop(o, 0);
  await waitBoard(x, { status: 'finished' });
  await x.locator('#status-line', { hasText: 'O wins with 4 in a row.' }).waitFor();
  await x.waitForTimeout(600);
  await shot(o, 'kaboom-end');
  for (const p of [x, o]) assert.deepEqual(p.errors, []);
  await Promise.all([x, o].map((p) => p.context().close()));
});

/** Counts requestAnimationFrame calls, and frames with a counter of its own. A runaway redraw loop
 *  is cut off (callbacks dropped) so the page stays alive long enough to report it. */
function countFrames() {
  const raf = window.requestAnimationFrame.bind(window);
  const c = { calls: 0, frames: 0, dropped: 0 };
  window.__raf = c;
  const tick = () => {
    c.frames++;
    raf(tick);
  };
  raf(tick);
  window.requestAnimationFrame = (cb) => {
    c.calls++;
    if (c.calls > 10 * c.frames + 200) {
      c.dropped++;
      return 0;
    }
    return raf(cb);
  };
}

test('kaboom: a running animation with a bomb ready schedules one frame at a time', async () => {
  const x = await person(browser, { motion: true });
  const o = await person(browser, { motion: true });
  await x.addInitScript(countFrames);
  await createGame(x, {
    variant: 'kaboom',
    name: 'Xena',
    seat: 'x',
    options: { width: 7, height: 3, connect: 3, bombs: 1 },
  });
  await joinByLink(o, await shareLink(x), 'Otto');
  await waitBoard(x, { status: 'playing', turn: 'x' });
  await x.getByRole('button', { name: 'Drop a bomb in column 1' }).click();
  await waitBoard(o, { version: 1, turn: 'o' });
  await o.getByRole('button', { name: 'Drop a piece in column 4' }).click();
  await waitBoard(x, { version: 2, turn: 'x' });

  // Measures requestAnimationFrame calls per frame over about a second.
  const measure = async () => {
    const a = await x.evaluate(() => ({ ...window.__raf }));
    await x.waitForTimeout(1000);
    const b = await x.evaluate(() => ({ ...window.__raf }));
    return { calls: b.calls - a.calls, frames: b.frames - a.frames, dropped: b.dropped };
  };
  // Our bomb can go off (it pulses) while o's piece falls.
  let m = await measure();
  assert.equal(m.dropped, 0, `runaway redraw loop: ${JSON.stringify(m)}`);
  // Running at all is what counts here: a busy CI machine gave headless Chromium 5 frames that
  // second (an idle one 60), so the bound is a few frames, not a frame rate.
  assert.ok(m.frames >= 3, `frames ran: ${JSON.stringify(m)}`);
  assert.ok(m.calls < 2 * m.frames, `about one requestAnimationFrame per frame: ${JSON.stringify(m)}`);

  // A click on a full column flashes it red, with the bomb still ready.
  await x.getByRole('button', { name: 'Drop a piece in column 7' }).click();
  await waitBoard(o, { version: 3, turn: 'o' });
  await o.getByRole('button', { name: 'Drop a piece in column 7' }).click();
  await waitBoard(x, { version: 4, turn: 'x' });
  await x.getByRole('button', { name: 'Drop a piece in column 7' }).click();
  await waitBoard(o, { version: 5, turn: 'o' });
  await o.getByRole('button', { name: 'Drop a piece in column 6' }).click();
  await waitBoard(x, { version: 6, turn: 'x' });
  await clickSquare(x, [6, 2]);
  await x.locator('#hint', { hasText: 'That column is full' }).waitFor();
  m = await measure();
  assert.equal(m.dropped, 0, `runaway redraw loop: ${JSON.stringify(m)}`);
  assert.ok(m.calls < 2 * m.frames, `about one requestAnimationFrame per frame: ${JSON.stringify(m)}`);
  for (const p of [x, o]) assert.deepEqual(p.errors, []);
  await Promise.all([x, o].map((p) => p.context().close()));
});

// Bomb checkers: the board itself: a refused position, the phone layout, Space during a capture,
// the pixel ratio, and the start screen's marks. Crowns: bomb_crowns.test.mjs; games by link:
// bomb.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, move, createGame, shareLink, joinByLink, shot, piece, BASE, T } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('a refused position is explained in words', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  await page.fill('#create-name', 'Eve');
  await page.locator('details.advanced summary').click();
  await page.fill('#create-position', JSON.stringify({ turn: 'fire', pieces: [piece(1, 0, 'fire')] }));
  await page.click('#create-btn');
  await page.locator('.toast.error').waitFor({ timeout: T });
  assert.equal((await board(page)).room, '');
  await page.context().close();
});

test('phone layout: the board fits the screen and a tap selects', async () => {
  const p1 = await person(browser, { viewport: { width: 390, height: 844 }, dpr: 3, mobile: true });
  const p2 = await person(browser, { viewport: { width: 390, height: 844 }, dpr: 2, mobile: true });
  await createGame(p1, { variant: 'bomb', name: 'Pat', seat: 'water' });
  const link = await shareLink(p1);
  await joinByLink(p2, link, 'Sam');
  await waitBoard(p2, { seat: 'fire', status: 'playing' });
  const box = await p2.locator('#board').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `board width ${box.width}`);
  assert.ok(Math.abs(box.width - box.height) < 1, 'square board');
  const canvasPx = await p2.locator('#board').evaluate((c) => [c.width, c.height]);
  assert.equal(canvasPx[0], Math.round(box.width * 2), 'backing store follows devicePixelRatio');
  const tap = async (page, [x, y]) => {
    const b = await page.locator('#board').boundingBox();
    await page.touchscreen.tap(b.x + ((x + 0.5) * b.width) / 8, b.y + ((7 - y + 0.5) * b.height) / 8);
  };
  await tap(p2, [0, 2]);
  await waitBoard(p2, { selected: '0,2' });
  await tap(p2, [1, 3]);
  await waitBoard(p2, { version: 1 });
  await waitBoard(p1, { version: 1, flipped: 'true' });
  await p1.waitForTimeout(400);
  await shot(p1, 'phone-water');
  for (const p of [p1, p2]) assert.deepEqual(p.errors, []);
  await Promise.all([p1, p2].map((p) => p.context().close()));
});

test('Space ends a capture sequence only when no dialog or control has it, and otherwise scrolls', async () => {
  const position = {
    turn: 'fire',
    pieces: [
      piece(0, 0, 'fire'),
      piece(7, 1, 'fire', 'shield'),
      piece(1, 1, 'water'),
      piece(3, 3, 'water'),
      piece(5, 5, 'water'),
      piece(7, 7, 'water'),
    ],
  };
  const fire = await person(browser);
  const water = await person(browser);
  await createGame(fire, { variant: 'bomb', name: 'Ann', seat: 'fire', position });
  await joinByLink(water, await shareLink(fire), 'Bob');
  await waitBoard(fire, { status: 'playing', turn: 'fire' });
  // Whether the page's own handler kept Space from its default action.
  await fire.evaluate(() => {
    window.addEventListener('keydown', (e) => {
      if (e.key === ' ') window.spacePrevented = e.defaultPrevented;
    });
  });
  const space = async () => {
    await fire.keyboard.press('Space');
    return fire.evaluate(() => window.spacePrevented);
  };

  // Nothing to end: Space is the page's, to scroll.
  await fire.evaluate(() => document.activeElement?.blur());
  assert.equal(await space(), false, 'Space scrolls when there is nothing to do');

  await move(fire, [0, 0], [2, 2]);
  await fire.locator('#end-turn').waitFor();
  // A focused button takes Space for itself.
  const flipped = (await board(fire)).flipped;
  await fire.locator('#flip').focus();
  await space();
  await waitBoard(fire, { flipped: String(flipped !== 'true') });
  assert.equal((await board(fire)).version, '1');
  // So does an open dialog.
  await fire.click('#resign');
  await fire.locator('#confirm[open]').waitFor();
  await fire.locator('#confirm-no').focus();
  await space();
  await fire.locator('#confirm').waitFor({ state: 'hidden' });
  await fire.waitForTimeout(200);
  assert.equal((await board(fire)).version, '1');
  assert.equal((await board(fire)).status, 'playing');
  // On the board, Space ends the turn.
  await fire.locator('#board').focus();
  assert.equal(await space(), true);
  await waitBoard(fire, { version: 2, turn: 'water' });
  for (const p of [fire, water]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

/** Headless Chromium sends no media query events when the pixel ratio changes, so resolution
 *  queries are played here: each fires `change` when its match flips, as a browser's do. */
function fakeResolutionQueries() {
  const real = window.matchMedia.bind(window);
  const lists = [];
  window.matchMedia = (q) => {
    const m = /^\(resolution: ([\d.]+)dppx\)$/.exec(q);
    if (!m) return real(q);
    const mql = {
      media: q,
      want: Number(m[1]),
      matches: Number(m[1]) === window.devicePixelRatio,
      listeners: [],
      addEventListener(type, fn, opts) {
        if (type === 'change') this.listeners.push({ fn, once: !!opts?.once });
      },
      removeEventListener(type, fn) {
        this.listeners = this.listeners.filter((l) => l.fn !== fn);
      },
    };
    lists.push(mql);
    return mql;
  };
  window.setPixelRatio = (d) => {
    window.devicePixelRatio = d;
    for (const mql of [...lists]) {
      const now = mql.want === d;
      if (now === mql.matches) continue;
      mql.matches = now;
      const ls = mql.listeners;
      mql.listeners = ls.filter((l) => !l.once);
      for (const l of ls) l.fn({ matches: now, media: mql.media });
    }
  };
}

test('the board follows every change of the pixel ratio (zoom, another screen), not only the first', async () => {
  const page = await person(browser);
  await page.addInitScript(fakeResolutionQueries);
  await createGame(page, { variant: 'bomb', name: 'Zoe', seat: 'fire' });
  await waitBoard(page, { status: 'waiting' });
  for (const dpr of [2, 3, 1.5, 1]) {
    await page.evaluate((d) => window.setPixelRatio(d), dpr);
    const ratio = await page.locator('#board').evaluate((c) => c.width / parseFloat(c.style.width));
    assert.ok(Math.abs(ratio - dpr) < 0.02, `backing store at ${dpr}x, not ${ratio}x`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the chosen game and side are marked by a class, for browsers without :has()', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  const marked = (sel) => page.locator(`${sel}.is-checked input`).evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(await marked('label.variant'), ['bomb']);
  assert.deepEqual(await marked('label.side-pick'), ['fire']);
  await page.locator('label.variant:has(input[value="kaboom"])').click();
  assert.deepEqual(await marked('label.variant'), ['kaboom']);
  assert.deepEqual(await marked('label.side-pick'), ['x'], 'the sides of the new game, the first one chosen');
  await page.locator('label.side-pick:has(input[value="random"])').click();
  assert.deepEqual(await marked('label.side-pick'), ['random']);
  // The marked one looks chosen: its border is not the others'.
  const borders = await page
    .locator('label.side-pick')
    .evaluateAll((els) => els.map((e) => getComputedStyle(e).borderColor));
  assert.notEqual(borders[2], borders[0]);
  assert.equal(borders[0], borders[1]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

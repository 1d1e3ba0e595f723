// Replay on a phone's screen: stepping through a game scrolls the move list, never the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, waitBoard, createGame, shareLink, joinByLink } from './helpers.mjs';
import { replayAt } from './replay_driver.mjs';
import { browser } from './shared_browser.mjs';

test('replay on a phone: stepping scrolls the move list, never the page', async () => {
  const x = await person(browser, { viewport: { width: 390, height: 844 }, dpr: 2, mobile: true });
  const o = await person(browser);
  await createGame(x, {
    variant: 'kaboom',
    name: 'Xena',
    seat: 'x',
    options: { width: 7, height: 6, connect: 4, bombs: 0 },
  });
  await joinByLink(o, await shareLink(x), 'Otto');
  await waitBoard(x, { status: 'playing', turn: 'x' });
  // Eighteen drops, x and o in turn up columns 1 to 3: nobody gets four in a row.
  for (let i = 0; i < 18; i++) {
    const page = i % 2 === 0 ? x : o;
    await page.getByRole('button', { name: `Drop a piece in column ${Math.floor(i / 6) + 1}` }).click();
    await waitBoard(x, { version: i + 1 });
  }
  await waitBoard(o, { version: 18 });
  const list = x.locator('#move-list');
  assert.ok(await list.evaluate((el) => el.scrollHeight > el.clientHeight + 100), 'the move list scrolls');

  await x.evaluate(() => window.scrollTo(0, 0));
  await x.keyboard.press('Home');
  await replayAt(x, 0);
  for (let v = 1; v <= 12; v++) {
    await x.locator('#replay-next').click();
    await replayAt(x, v);
    assert.equal(await x.evaluate(() => window.scrollY), 0, `the page stays put at step ${v}`);
    // The current move is in view inside the list.
    const inView = await list.evaluate((el) => {
      const cur = el.querySelector('li.current');
      const l = el.getBoundingClientRect();
      const r = cur.getBoundingClientRect();
      return r.top >= l.top - 1 && r.bottom <= l.bottom + 1;
    });
    assert.ok(inView, `move ${v} is shown in the list`);
  }
  for (const p of [x, o]) assert.deepEqual(p.errors, []);
  await Promise.all([x, o].map((p) => p.context().close()));
});

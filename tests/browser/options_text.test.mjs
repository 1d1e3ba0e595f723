// The options of a game in words (the server's options_text, PROTOCOL.md) on the game screen, in the
// join dialog and in the room list, and a one-screen room's mark there. The notations of the
// originals: notation.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, waitBoard, createGame, shot, BASE, T } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

/** The room's entry in the start screen's list (it refreshes every 5 s; a reload is quicker). */
async function roomEntry(page, room) {
  await page.goto(`${BASE}/`);
  const li = page.locator(`#room-list li.room[data-room="${room}"]`);
  await li.waitFor();
  return li;
}

/** Opens a game's link in a fresh page: the join dialog's words, then a seat (or watching). */
async function joinDialog(page, room) {
  await page.goto(`${BASE}/r/${room}`);
  await page.locator('#join-dialog[open]').waitFor();
  await page.waitForFunction(
    () => !/^Play if a seat is free/.test(document.querySelector('#join-info').textContent),
    null,
    { timeout: T },
  );
  return page.locator('#join-info').textContent();
}

test('options in words: the game screen, the join dialog, the room list, for players and spectators', async () => {
  const cases = [
    {
      variant: 'kaboom',
      seat: 'x',
      options: { width: 9, height: 7, connect: 5, misere: true },
      words: '9x7 board, connect 5, misère',
    },
    { variant: 'classic', seat: 'black', options: { draw_turns: 40 }, words: 'draw after 40 quiet turns' },
    { variant: 'bomb', seat: 'fire', options: {}, words: '' },
  ];
  for (const c of cases) {
    const creator = await person(browser);
    const room = await createGame(creator, { variant: c.variant, name: 'Ann', seat: c.seat, options: c.options });
    await waitBoard(creator, { room, status: 'waiting' });
    const header = (page) => page.locator('#options-label');
    if (c.words) {
      await header(creator).filter({ hasText: c.words }).waitFor();
      assert.equal(await header(creator).textContent(), c.words);
    } else {
      assert.equal(await header(creator).isHidden(), true, 'default options: nothing shown');
    }

    const list = await roomEntry(await person(browser), room);
    const lister = list.page();
    if (c.words) assert.equal(await list.locator('.room-options').textContent(), c.words);
    else assert.equal(await list.locator('.room-options').count(), 0);
    assert.equal(await list.locator('.pill.one-screen').count(), 0);

    const player = await person(browser);
    const info = await joinDialog(player, room);
    if (c.words) assert.ok(info.includes(`(${c.words})`), info);
    else assert.ok(!info.includes('('), info);
    await player.fill('#join-name', 'Bob');
    await player.click('#join-play');
    await waitBoard(player, { room, status: 'playing' });
    const watcher = await person(browser);
    await joinDialog(watcher, room);
    await watcher.click('#join-watch');
    await waitBoard(watcher, { room, seat: 'spectator', status: 'playing' });
    for (const p of [player, watcher, creator]) {
      if (c.words) assert.equal(await header(p).textContent(), c.words);
      else assert.equal(await header(p).isHidden(), true);
    }
    if (c.variant === 'kaboom') await shot(watcher, 'options-in-words');
    for (const p of [creator, lister, player, watcher]) assert.deepEqual(p.errors, []);
    await Promise.all([creator, lister, player, watcher].map((p) => p.context().close()));
  }
});

test('a one-screen room is marked so in the room list and the join dialog', async () => {
  const host = await person(browser);
  await host.goto(`${BASE}/`);
  // A one-screen room made by a raw `create` with seat "both" (one_screen.test.mjs goes through the
  // start screen); this page's own socket holds it.
  const room = await host.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws`);
        window.oneScreenSocket = ws;
        ws.onopen = () =>
          ws.send(
            JSON.stringify({
              type: 'create',
              variant: 'classic',
              seat: 'both',
              name: 'Ann',
              names: { black: 'Ann', white: 'Bob' },
              options: { draw_turns: 40 },
            }),
          );
        ws.onmessage = (e) => {
          const msg = JSON.parse(e.data);
          if (msg.type === 'joined') resolve(msg.room);
          if (msg.type === 'error') reject(new Error(msg.message));
        };
      }),
  );
  const li = await roomEntry(await person(browser), room);
  await li.locator('.pill.one-screen', { hasText: 'one screen' }).waitFor();
  const guest = await person(browser);
  const info = await joinDialog(guest, room);
  assert.equal(
    info,
    'Classic Checkers (draw after 40 quiet turns): Ann and Bob are playing at one screen, so you can watch.',
  );
  assert.equal(await guest.locator('#join-play').isHidden(), true, 'no seat to take');
  for (const p of [host, li.page(), guest]) assert.deepEqual(p.errors, []);
  await Promise.all([host, li.page(), guest].map((p) => p.context().close()));
});

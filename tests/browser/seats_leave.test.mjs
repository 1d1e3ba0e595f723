// Leaving a room and coming back: leaving before the game starts forgets the seat, late news of a
// room we left, the join dialog's Escape, and a broken link. Resuming a seat: seats.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, createGame, shareLink, joinByLink, BASE } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

const savedSeat = (page, room) => page.evaluate((r) => localStorage.getItem(`bc.seat.${r}`), room);

test('leaving before the game starts forgets the seat; a stale token plays if a seat is free, else watches', async () => {
  const fire = await person(browser);
  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await waitBoard(fire, { room, seat: 'fire', status: 'waiting' });
  const stale = await savedSeat(fire, room);
  assert.ok(stale, 'the seat is saved');
  await fire.click('#leave');
  await fire.locator('#start:not([hidden])').waitFor();
  await fire.waitForFunction((r) => localStorage.getItem(`bc.seat.${r}`) === null, room);

  // A token voided by the leave (kept by an older page, say): the room still waits, so we play.
  await fire.evaluate(([r, v]) => localStorage.setItem(`bc.seat.${r}`, v), [room, stale]);
  await fire.goto(`${BASE}/r/${room}`);
  await fire.locator('.toast', { hasText: 'new one' }).waitFor();
  const seat = (await board(fire)).seat;
  assert.ok(seat === 'fire' || seat === 'water', `a seat: ${seat}`);
  const mine = JSON.parse(await savedSeat(fire, room));
  assert.notEqual(mine.token, JSON.parse(stale).token, 'the new seat is saved');

  // Both seats taken: a bad token watches.
  const other = await person(browser);
  await joinByLink(other, await shareLink(fire), 'Rachel');
  await waitBoard(fire, { status: 'playing' });
  const late = await person(browser);
  await late.goto(`${BASE}/`);
  await late.evaluate(([r, v]) => localStorage.setItem(`bc.seat.${r}`, v), [room, stale]);
  await late.goto(`${BASE}/r/${room}`);
  await waitBoard(late, { room, seat: 'spectator', status: 'playing' });
  await late.locator('.toast', { hasText: 'you are watching' }).waitFor();
  assert.equal(await savedSeat(late, room), null);
  for (const p of [fire, other, late]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, other, late].map((p) => p.context().close()));
});

test('a state or joined arriving after leaving does not pull the page back into the room', async () => {
  const fire = await person(browser);
  const water = await person(browser);
  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await joinByLink(water, await shareLink(fire), 'Rachel');
  await waitBoard(fire, { status: 'playing', version: '0' });
  const last = await fire.evaluate(() => window.bombcheckers.app.state);
  await fire.click('#leave');
  await fire.locator('#start:not([hidden])').waitFor();
  // What the server sent just before it read our leave, arriving late.
  await fire.evaluate(
    ([s, r]) => {
      const { receive } = window.bombcheckers;
      receive({ ...s, version: s.version + 1 });
      receive({ type: 'joined', room: r, seat: 'fire', token: null, url: `/r/${r}` });
      receive({ type: 'chat', from: 'Rachel', seat: 'water', text: 'still there?' });
    },
    [last, room],
  );
  await fire.waitForTimeout(300);
  assert.equal(await fire.locator('#game').isHidden(), true, 'still on the start screen');
  assert.equal((await board(fire)).room, '');
  assert.equal(new URL(fire.url()).pathname, '/');
  assert.equal(await fire.locator('#chat-log li').count(), 0);
  for (const p of [fire, water]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

test('Escape on the join dialog goes back like its Back button', async () => {
  const fire = await person(browser);
  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  const guest = await person(browser);
  await guest.goto(`${BASE}/r/${room}`);
  await guest.locator('#join-dialog[open]').waitFor();
  await guest.keyboard.press('Escape');
  await guest.locator('#join-dialog').waitFor({ state: 'hidden' });
  await guest.locator('#start:not([hidden])').waitFor();
  assert.equal(new URL(guest.url()).pathname, '/');
  assert.equal((await board(guest)).room, '');
  for (const p of [fire, guest]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, guest].map((p) => p.context().close()));
});

test('a pasted link with a stray % is answered with a hint, not an exception', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  await page.fill('#join-code', `${BASE}/r/AB%ZZ`);
  await page.click('#join-btn');
  await page.locator('.toast.error', { hasText: 'stray “%”' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/');
  assert.equal(await page.locator('#start').isVisible(), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

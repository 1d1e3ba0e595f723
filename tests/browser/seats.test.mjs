// Seats kept in this browser and resumed: by a link in any case, from the room list, and by a tab
// whose seat another tab took. Leaving a room, the join dialog and a broken link:
// seats_leave.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  person,
  board,
  waitBoard,
  clickSquare,
  move,
  createGame,
  shareLink,
  joinByLink,
  shot,
  BASE,
} from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('a link in lower case resumes the seat saved under the upper-case room id', async () => {
  const fire = await person(browser);
  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await waitBoard(fire, { room, seat: 'fire', status: 'waiting' });
  const lower = room.toLowerCase();
  assert.notEqual(lower, room, 'the room id has letters');
  await fire.goto(`${BASE}/r/${lower}`);
  await waitBoard(fire, { room, seat: 'fire', version: '0' });
  assert.equal(await fire.locator('#join-dialog[open]').count(), 0, 'no question asked');
  assert.equal(new URL(fire.url()).pathname, `/r/${room}`);
  // The same from the join box, with spaces around the code.
  await fire.goto(`${BASE}/`);
  await fire.locator('#create-btn:not([disabled])').waitFor();
  await fire.fill('#join-code', `  ${lower} `);
  await fire.click('#join-btn');
  await waitBoard(fire, { room, seat: 'fire', version: '0' });
  assert.deepEqual(fire.errors, []);
  await fire.context().close();
});

test('the room list resumes a seat this browser holds instead of watching', async () => {
  const fire = await person(browser);
  const water = await person(browser);
  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await joinByLink(water, await shareLink(fire), 'Rachel');
  await waitBoard(fire, { status: 'playing' });
  // Another tab of the same browser picks the game from the list.
  const tab = await fire.context().newPage();
  tab.errors = [];
  tab.on('pageerror', (e) => tab.errors.push(e.message));
  await tab.goto(`${BASE}/`);
  await tab
    .locator(`li.room[data-room="${room}"]`)
    .getByRole('button', { name: `Watch game ${room}` })
    .click();
  await waitBoard(tab, { room, seat: 'fire', status: 'playing' });
  await water.locator('#spectators', { hasText: '0 watching' }).waitFor();
  for (const p of [fire, water, tab]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

test('a tab whose seat another tab took is paused, says so, and can take the seat back', async () => {
  const fire = await person(browser);
  const water = await person(browser);
  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await joinByLink(water, await shareLink(fire), 'Rachel');
  await waitBoard(fire, { status: 'playing', turn: 'fire' });
  const tab = await fire.context().newPage();
  tab.errors = [];
  tab.on('pageerror', (e) => tab.errors.push(e.message));
  await tab.goto(`${BASE}/r/${room}`);
  await waitBoard(tab, { room, seat: 'fire', status: 'playing' });

  // The first tab is paused: a clear banner, the status line, and no controls that act.
  await fire.locator('#banner', { hasText: 'open in another tab' }).waitFor();
  await fire.locator('#status-line', { hasText: 'Paused' }).waitFor();
  for (const sel of ['#resign', '#offer-draw', '#chat-input'])
    assert.ok(await fire.locator(sel).isDisabled(), `${sel} disabled`);
  await clickSquare(fire, [2, 2]);
  await fire.locator('#hint', { hasText: 'another tab' }).waitFor();
  assert.equal((await board(fire)).selected, '');
  await fire.waitForTimeout(200);
  assert.equal(await fire.locator('.toast.error').count(), 0, 'nothing was sent to be refused');
  await shot(fire, 'seat-taken-by-another-tab');

  // "Play here" takes the seat back; the other tab is paused in turn.
  await fire.getByRole('button', { name: 'Play here' }).click();
  await fire.locator('#banner').waitFor({ state: 'hidden' });
  await tab.locator('#banner', { hasText: 'open in another tab' }).waitFor();
  assert.ok(await fire.locator('#resign').isEnabled());
  await move(fire, [2, 2], [3, 3]);
  await waitBoard(water, { version: 1 });
  for (const p of [fire, water, tab]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

// Bomb checkers in three browsers: two players who meet by link, and a spectator from the room list;
// a whole game from a set position. Crowns: bomb_crowns.test.mjs; the board itself (layouts, keys,
// refusals): bomb_board.test.mjs.
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
  pieceAt,
  piece,
  BASE,
  T,
} from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('the opening from the normal start, watched live, with a reload, chat, a draw offer and resign', async () => {
  const fire = await person(browser, { motion: true });
  const water = await person(browser, { motion: true });
  const watcher = await person(browser, { motion: true });

  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  assert.match(room, /^[A-Za-z0-9_-]+$/);
  await waitBoard(fire, { room, seat: 'fire', status: 'waiting', version: '0', flipped: 'false' });
  const link = await shareLink(fire);
  await shot(fire, 'bomb-waiting-for-opponent');
  assert.equal(new URL(link).pathname, `/r/${room}`);
  assert.equal(new URL(fire.url()).pathname, `/r/${room}`, 'the address bar holds the shareable link');

  assert.equal(await joinByLink(water, link, 'Rachel'), 'water');
  await waitBoard(water, { flipped: 'true', status: 'playing', turn: 'fire' });
  await waitBoard(fire, { status: 'playing', turn: 'fire' });

  // The spectator picks the game from the list of live games.
  await watcher.goto(`${BASE}/`);
  const row = watcher.locator(`li.room[data-room="${room}"]`);
  await row.waitFor();
  await shot(watcher, 'start-screen');
  await row.getByRole('button', { name: `Watch game ${room}` }).click();
  await waitBoard(watcher, { room, seat: 'spectator', flipped: 'false', status: 'playing' });
  await fire.locator('#spectators', { hasText: '1 watching' }).waitFor();

  // A click that means nothing is refused gently, and nothing is sent.
  await clickSquare(fire, [3, 3]);
  await fire.locator('#hint.show').waitFor();
  assert.equal((await board(fire)).version, '0');
  // The spectator cannot act.
  await clickSquare(watcher, [2, 2]);
  await watcher.locator('#hint', { hasText: 'watching' }).waitFor();

  // The opening moves, by clicks; everyone sees each one.
  await move(fire, [2, 2], [3, 3]); // a bomb steps forward
  await waitBoard(watcher, { version: 1 });
  await waitBoard(water, { version: 1, turn: 'water' });
  await move(water, [5, 5], [4, 4]);
  await waitBoard(watcher, { version: 2 });
  await waitBoard(fire, { version: 2, turn: 'fire' });
  await fire.waitForTimeout(400); // let the move's animation settle
  await shot(fire, 'bomb-opening');
  await shot(water, 'bomb-opening-water-view');

  // Fire's bomb jumps water's bomb and explodes on landing: the block is cleared but shields stay.
  await move(fire, [3, 3], [5, 5]);
  await fire.waitForTimeout(420);
  await shot(fire, 'bomb-opening-explosion');
  await waitBoard(watcher, { version: 3 });
  await waitBoard(water, { version: 3, turn: 'water' });
  assert.equal(await pieceAt(fire, [5, 5]), null, 'the bomb is gone');
  assert.equal(await pieceAt(fire, [4, 4]), null, 'the jumped piece is gone');
  assert.equal((await pieceAt(fire, [4, 6]))?.kind, 'shield', 'a shield in the blast survives');
  await fire.locator('#move-list li', { hasText: 'd4×f6' }).waitFor();
  await watcher.locator('#move-list li', { hasText: 'd4×f6' }).waitFor();

  // A reload resumes the same seat, and the seat still plays.
  await water.reload();
  await waitBoard(water, { room, seat: 'water', version: 3, flipped: 'true' });
  assert.equal((await board(water)).seat, 'water');
  await water.locator('#move-list li', { hasText: 'c3–d4' }).waitFor(); // history comes back too
  await move(water, [1, 5], [2, 4]);
  await waitBoard(watcher, { version: 4 });
  await waitBoard(fire, { version: 4, turn: 'fire' });

  // A dropped connection shows the reconnecting banner, then resumes the seat by itself.
  await water.evaluate(() => window.bombcheckers.net.ws.close());
  await water.waitForFunction(() => !document.querySelector('#banner').hidden, null, { timeout: T, polling: 20 });
  await water.locator('#banner').waitFor({ state: 'hidden' });
  await waitBoard(water, { seat: 'water', room, version: 4 });

  // Escape drops a selection.
  await clickSquare(fire, [0, 2]);
  await waitBoard(fire, { selected: '0,2' });
  await fire.keyboard.press('Escape');
  await waitBoard(fire, { selected: '' });

  // Chat reaches everyone.
  await fire.fill('#chat-input', 'good luck!');
  await fire.press('#chat-input', 'Enter');
  await water.locator('#chat-log li', { hasText: 'good luck!' }).waitFor();
  await watcher.locator('#chat-log li', { hasText: 'Ross' }).waitFor();
  // Every request so far has had its reply (ok, joined or error): none is still kept.
  for (const p of [fire, water]) await p.waitForFunction(() => window.bombcheckers.app.requests.size === 0);

  // A draw offer shows as a question for the other player, who declines it.
  await water.click('#offer-draw');
  await fire.locator('#draw-offer:not([hidden])').waitFor();
  await fire.click('#draw-decline');
  await fire.locator('#draw-offer').waitFor({ state: 'hidden' });

  // Resigning asks first; cancel keeps playing, confirm ends the game.
  await water.click('#resign');
  await water.click('#confirm-no');
  await water.locator('#confirm').waitFor({ state: 'hidden' });
  // A round trip after the cancel: a resign sent before this chat would have ended the game
  // before the chat reached fire (the room's messages keep their order).
  await water.fill('#chat-input', 'not yet!');
  await water.press('#chat-input', 'Enter');
  await fire.locator('#chat-log li', { hasText: 'not yet!' }).waitFor();
  assert.equal((await board(fire)).status, 'playing');
  assert.equal((await board(water)).status, 'playing');
  await water.click('#resign');
  await water.click('#confirm-yes');
  await waitBoard(fire, { status: 'finished' });
  await waitBoard(watcher, { status: 'finished' });
  await fire.locator('#status-line', { hasText: 'Water resigned' }).waitFor();
  await watcher.locator('.overlay-card', { hasText: 'Fire wins' }).waitFor();

  // Both ask for a rematch: a new game, sides swapped.
  await fire.locator('.overlay-card button', { hasText: 'Rematch' }).click();
  await water.click('#rematch');
  await waitBoard(fire, { seat: 'water', version: '0', status: 'playing', flipped: 'true' });
  await waitBoard(water, { seat: 'fire', version: '0', status: 'playing', flipped: 'false' });

  for (const p of [fire, water, watcher]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water, watcher].map((p) => p.context().close()));
});

test('a whole game from a set position: multi-capture, end turn with Space, explosion, result', async () => {
  // Fire's man on a1 can take b2 and d4 and then stop (f6 could be taken too: optional, B5).
  // Water's last man steps aside; fire's bomb takes it and the blast also takes fire's own man.
  const position = {
    turn: 'fire',
    pieces: [
      piece(0, 0, 'fire'),
      piece(7, 3, 'fire', 'bomb'),
      piece(7, 1, 'fire', 'shield'),
      piece(1, 1, 'water'),
      piece(3, 3, 'water'),
      piece(5, 5, 'water'),
    ],
  };
  const fire = await person(browser, { motion: true });
  const water = await person(browser, { motion: true });
  const watcher = await person(browser, { motion: true });
  const room = await createGame(fire, { variant: 'bomb', name: 'Ann', seat: 'fire', position });
  const link = await shareLink(fire);
  assert.equal(await joinByLink(water, link, 'Bob'), 'water');
  await watcher.goto(link);
  await watcher.locator('#join-dialog[open]').waitFor();
  await watcher.click('#join-watch');
  await waitBoard(watcher, { room, seat: 'spectator', version: '0' });
  await waitBoard(fire, { status: 'playing', turn: 'fire' });

  // First hop; the same piece stays selected and End turn is offered.
  await move(fire, [0, 0], [2, 2]);
  await waitBoard(fire, { selected: '2,2' });
  await fire.locator('#end-turn').waitFor();
  await waitBoard(watcher, { version: 1 });
  // Clicking elsewhere during the sequence does nothing but hint.
  await clickSquare(fire, [7, 3]);
  await fire.locator('#hint', { hasText: 'Keep capturing' }).waitFor();
  // Second hop, then Space ends the turn although f6 could be taken.
  await clickSquare(fire, [4, 4]);
  await waitBoard(fire, { version: 2, selected: '4,4' });
  await waitBoard(watcher, { version: 2 });
  await fire.waitForTimeout(300);
  await shot(fire, 'bomb-multi-capture');
  await fire.keyboard.press('Space');
  await waitBoard(fire, { version: 3, turn: 'water' });
  await waitBoard(watcher, { version: 3 });
  await fire.locator('#move-list li', { hasText: 'a1×c3×e5' }).waitFor();

  // Water steps aside (it could also take; captures are optional).
  await waitBoard(water, { version: 3, turn: 'water' });
  await move(water, [5, 5], [6, 4]);
  await waitBoard(fire, { version: 4, turn: 'fire' });
  await waitBoard(watcher, { version: 4 });

  // The bomb jumps and explodes: water has nothing left, fire's own man in the blast is gone too.
  await move(fire, [7, 3], [5, 5]);
  await fire.waitForTimeout(430);
  await shot(fire, 'bomb-explosion');
  await shot(watcher, 'bomb-explosion-spectator');
  await waitBoard(fire, { status: 'finished' });
  await waitBoard(water, { status: 'finished', version: 5 });
  await waitBoard(watcher, { status: 'finished', version: 5 });
  assert.equal(await pieceAt(fire, [4, 4]), null, "fire's own man was in the blast");
  assert.equal((await pieceAt(fire, [7, 1]))?.kind, 'shield');
  await fire.locator('.overlay-card', { hasText: 'You win!' }).waitFor();
  await water.locator('.overlay-card', { hasText: 'You lose' }).waitFor();
  await watcher.locator('#status-line', { hasText: 'Fire wins: Water has no pieces left.' }).waitFor();
  // The hint about the capture sequence is about a position long gone: the end clears it.
  assert.equal(await fire.locator('#hint').textContent(), '');
  await fire.waitForTimeout(1200);
  await shot(fire, 'bomb-end');
  await shot(water, 'bomb-end-water');

  for (const p of [fire, water, watcher]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water, watcher].map((p) => p.context().close()));
});

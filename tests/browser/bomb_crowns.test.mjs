// Bomb checkers: crowns (B8): a crowning is marked, kings and triple kings wear crowns, and a bomb
// crowned on the far row captures backwards as a king and explodes. The rest of the board:
// bomb_board.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, waitBoard, move, createGame, shareLink, joinByLink, shot, pieceAt, piece } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('a crowning is marked, and kings and triple kings wear crowns', async () => {
  const fire = await person(browser);
  const water = await person(browser);
  await createGame(fire, {
    variant: 'bomb',
    name: 'Kim',
    seat: 'fire',
    position: {
      turn: 'fire',
      pieces: [
        piece(1, 5, 'fire'),
        piece(0, 0, 'fire', 'shield', 'king'),
        piece(2, 2, 'fire', 'bomb'),
        piece(2, 6, 'water'),
        piece(6, 6, 'water', 'shield'),
        piece(5, 3, 'water', 'normal', 'king'),
      ],
    },
  });
  await joinByLink(water, await shareLink(fire), 'Lee');
  await waitBoard(fire, { status: 'playing', turn: 'fire' });
  await move(fire, [1, 5], [3, 7]);
  await waitBoard(water, { version: 1 });
  assert.equal((await pieceAt(fire, [3, 7]))?.rank, 'king');
  await fire.locator('#move-list li', { hasText: 'b6×d8' }).locator('[aria-label="crowned"]').waitFor();
  await fire.waitForTimeout(350);
  await shot(fire, 'bomb-crowning');

  // Triple-king checkers in black and white, with a king and a triple king on the board.
  const black = await person(browser);
  await createGame(black, {
    variant: 'triple_king',
    name: 'Max',
    seat: 'black',
    position: {
      turn: 'black',
      pieces: [
        piece(0, 0, 'black'),
        piece(2, 2, 'black', 'normal', 'king'),
        piece(4, 4, 'black', 'normal', 'triple_king'),
        piece(7, 7, 'white'),
        piece(5, 7, 'white', 'normal', 'king'),
        piece(1, 5, 'white', 'normal', 'triple_king'),
      ],
    },
  });
  await waitBoard(black, { variant: 'triple_king', seat: 'black' });
  await black.getByRole('button', { name: 'Close and look at the board' }).click();
  await black.locator('#board-overlay').waitFor({ state: 'hidden' });
  await shot(black, 'triple-king-pieces');
  for (const p of [fire, water, black]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water, black].map((p) => p.context().close()));
});

test('B8: a bomb that steps onto the far row is crowned, wears a crown, and as a king bomb captures backwards and explodes', async () => {
  const fire = await person(browser);
  const water = await person(browser);
  await createGame(fire, {
    variant: 'bomb',
    name: 'Ada',
    seat: 'fire',
    position: {
      turn: 'fire',
      pieces: [
        piece(2, 6, 'fire', 'bomb'),
        piece(0, 0, 'fire'),
        piece(7, 7, 'water'),
        piece(2, 4, 'water'),
        piece(0, 4, 'water'),
        piece(1, 1, 'water', 'shield', 'king'),
      ],
    },
  });
  await joinByLink(water, await shareLink(fire), 'Bo');
  await waitBoard(fire, { status: 'playing', turn: 'fire' });

  // c7-d8: the step crowns the bomb (no explosion), and the move list marks the crowning.
  await move(fire, [2, 6], [3, 7]);
  await waitBoard(water, { version: 1 });
  assert.deepEqual(await pieceAt(fire, [3, 7]), piece(3, 7, 'fire', 'bomb', 'king'));
  assert.deepEqual(await pieceAt(water, [3, 7]), piece(3, 7, 'fire', 'bomb', 'king'));
  const last = await fire.evaluate(() => window.bombcheckers.app.state.last);
  assert.deepEqual(last.exploded, []);
  assert.deepEqual(last.promoted, [[3, 7]]);
  await fire.locator('#move-list li', { hasText: 'c7–d8' }).locator('[aria-label="crowned"]').waitFor();
  await fire.waitForTimeout(350);
  await shot(fire, 'bomb-king-bomb');

  // Water waits (h8-g7); the king bomb steps back to c6 and then captures backwards over c5.
  await move(water, [7, 7], [6, 6]);
  await waitBoard(fire, { version: 2, turn: 'fire' });
  await move(fire, [3, 7], [2, 6]);
  await waitBoard(water, { version: 3 });
  assert.deepEqual(await pieceAt(fire, [2, 6]), piece(2, 6, 'fire', 'bomb', 'king'));
  await move(water, [6, 6], [5, 5]);
  await waitBoard(fire, { version: 4, turn: 'fire' });
  await move(fire, [2, 6], [1, 5]);
  await waitBoard(water, { version: 5 });
  await move(water, [5, 5], [4, 4]);
  await waitBoard(fire, { version: 6, turn: 'fire' });
  // b6×d4: c5 is captured, and the blast at d4 takes the king bomb and e5 with it (B7).
  await move(fire, [1, 5], [3, 3]);
  await waitBoard(water, { version: 7 });
  const after = await fire.evaluate(() => window.bombcheckers.app.state.last);
  assert.deepEqual(after.captured, [[2, 4]]);
  assert.ok(
    after.exploded.some(([x, y]) => x === 3 && y === 3),
    'the king bomb itself is gone',
  );
  assert.equal(await pieceAt(fire, [3, 3]), null);
  assert.equal(await pieceAt(fire, [4, 4]), null, 'the blast took the water piece on e5');

  // The replay of version 1 shows the crowned bomb too.
  await fire.locator('#move-list li', { hasText: 'c7–d8' }).getByRole('button').click();
  await waitBoard(fire, { replayVersion: '1' });
  const shown = await fire.evaluate(() =>
    window.bombcheckers.board.state.board.pieces.find((p) => p.at[0] === 3 && p.at[1] === 7),
  );
  assert.deepEqual(shown, piece(3, 7, 'fire', 'bomb', 'king'));
  await fire.waitForTimeout(350);
  await shot(fire, 'bomb-king-bomb-replay');

  for (const p of [fire, water]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

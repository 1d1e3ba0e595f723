// Replay: stepping through a game move by move (buttons, arrow keys, the move list), the Live
// button during a game, the Replay button after it, a rematch missed while offline. A game joined
// late: replay_late.test.mjs; export: export.test.mjs; replay on a phone: replay_phone.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, clickSquare, move, createGame, shareLink, joinByLink, shot } from './helpers.mjs';
import { shownPieces, livePieces, replayAt, openingGame } from './replay_driver.mjs';
import { browser } from './shared_browser.mjs';

test('replay: step through a running game by the move list, buttons and arrow keys; Live returns', async () => {
  const { fire, water } = await openingGame(browser);
  assert.equal((await board(fire)).replayVersion, '');
  await fire.locator('#replay-bar').waitFor({ state: 'hidden' });

  // A click on the first move shows the board after it.
  await fire.locator('#move-list li', { hasText: 'c3–d4' }).getByRole('button').click();
  await replayAt(fire, 1);
  await fire.locator('#replay-bar').waitFor();
  await fire.locator('#replay-pos', { hasText: 'Move 1 of 3' }).waitFor();
  assert.equal(await fire.locator('#move-list li.current').count(), 1);
  assert.match(await fire.locator('#move-list li.current').textContent(), /c3–d4/);
  // The live game goes on underneath: data-version is still the live one.
  assert.equal((await board(fire)).version, '3');

  // Back to the start with the arrow key, forward with the buttons.
  await fire.keyboard.press('ArrowLeft');
  await replayAt(fire, 0);
  await fire.locator('#replay-pos', { hasText: 'Start position' }).waitFor();
  assert.ok(await fire.locator('#replay-first').isDisabled());
  await fire.click('#replay-next');
  await replayAt(fire, 1);
  await fire.keyboard.press('ArrowRight');
  await replayAt(fire, 2);
  await fire.keyboard.press('ArrowRight');
  await replayAt(fire, 3);
  await fire.locator('#replay-move', { hasText: 'd4×f6' }).waitFor();
  assert.ok(await fire.locator('#replay-next').isDisabled());
  await fire.waitForTimeout(450); // the step forward replays the explosion
  await shot(fire, 'replay-explosion-step');
  await fire.keyboard.press('Home');
  await replayAt(fire, 0);
  await fire.keyboard.press('End');
  await replayAt(fire, 3);

  // Clicks on the board do nothing while replaying.
  await fire.click('#replay-prev');
  await replayAt(fire, 2);
  await clickSquare(fire, [0, 2]);
  await fire.locator('#hint', { hasText: 'Live' }).waitFor();
  assert.equal((await board(fire)).selected, '');

  // The opponent moves meanwhile: the replay stays put, and grows by that move.
  await move(water, [1, 5], [2, 4]);
  await waitBoard(fire, { version: 4, turn: 'fire' });
  assert.equal((await board(fire)).replayVersion, '2');
  await fire.locator('#replay-pos', { hasText: 'Move 2 of 4' }).waitFor();
  await fire.waitForTimeout(300);
  await shot(fire, 'replay-running-game');

  // Live returns to the game, which plays on.
  await fire.getByRole('button', { name: 'Back to the live game' }).click();
  await waitBoard(fire, { replayVersion: '' });
  await fire.locator('#replay-bar').waitFor({ state: 'hidden' });
  assert.equal(await shownPieces(fire), await livePieces(fire, 4));
  await move(fire, [0, 2], [1, 3]);
  await waitBoard(water, { version: 5 });

  // Escape leaves a replay too; ArrowLeft starts one from the live game.
  await water.locator('#board').focus();
  await water.keyboard.press('ArrowLeft');
  await replayAt(water, 4);
  await water.keyboard.press('Escape');
  await waitBoard(water, { replayVersion: '' });

  // After the game: a Replay button on the result card and among the controls.
  await water.click('#resign');
  await water.click('#confirm-yes');
  await waitBoard(fire, { status: 'finished' });
  await fire.locator('.overlay-card').getByRole('button', { name: 'Replay this game' }).click();
  await replayAt(fire, 0);
  await fire.locator('#board-overlay').waitFor({ state: 'hidden' });
  await fire.getByRole('button', { name: 'Close the replay' }).waitFor();
  for (let v = 1; v <= 5; v++) {
    await fire.keyboard.press('ArrowRight');
    await replayAt(fire, v);
  }
  await fire.locator('#replay-move', { hasText: 'Water resigned' }).waitFor();
  await fire.getByRole('button', { name: 'Close the replay' }).click();
  await waitBoard(fire, { replayVersion: '' });
  await fire.locator('#replay').waitFor();
  await fire.click('#replay');
  await replayAt(fire, 0);

  // A rematch: the first game stays replayable from the second one's move list.
  await fire.getByRole('button', { name: 'Close the replay' }).click();
  await fire.click('#rematch');
  await water.click('#rematch');
  await waitBoard(fire, { seat: 'water', version: '0', status: 'playing', game: '2' });
  await fire.getByRole('button', { name: 'Replay game 1' }).click();
  await waitBoard(fire, { replayGame: '1' });
  await replayAt(fire, 0, 1);
  await fire.keyboard.press('End');
  await replayAt(fire, 5, 1);
  await fire.locator('#replay-pos', { hasText: 'Move 5 of 5' }).waitFor();
  await fire.locator('#move-list li.current', { hasText: 'a3–b4' }).waitFor();
  await fire.locator('#player-bottom .tag', { hasText: 'you' }).waitFor({ state: 'detached' });
  await fire.locator('#player-top .tag', { hasText: 'you' }).waitFor(); // Ross played fire in game 1
  await fire.waitForTimeout(600);
  await shot(fire, 'replay-earlier-game');
  await fire.getByRole('button', { name: 'Close the replay' }).click();
  await waitBoard(fire, { replayVersion: '', replayGame: '' });
  await fire.locator('#move-list li', { hasText: 'No moves yet' }).waitFor();

  await fire.getByRole('button', { name: 'Replay game 1' }).click();
  await replayAt(fire, 0, 1);
  await fire.keyboard.press('ArrowRight');
  await fire.keyboard.press('ArrowRight');
  await fire.keyboard.press('ArrowRight');
  await replayAt(fire, 3, 1);
  await fire.setViewportSize({ width: 390, height: 844 });
  await fire.waitForTimeout(600);
  await shot(fire, 'replay-phone');

  for (const p of [fire, water]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

test('a rematch missed while offline is seen as a new game by its number, not by its version', async () => {
  const fire = await person(browser);
  const water = await person(browser);
  await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await joinByLink(water, await shareLink(fire), 'Rachel');
  await waitBoard(fire, { status: 'playing', turn: 'fire' });
  await move(fire, [2, 2], [3, 3]);
  await waitBoard(water, { version: 1 });
  await water.click('#resign');
  await water.click('#confirm-yes');
  await waitBoard(fire, { status: 'finished', version: 1 });
  await fire.click('#rematch');
  await water.locator('.overlay-card', { hasText: 'would like a rematch' }).waitFor();
  // Fire goes offline (and stays so); the rematch starts and its first move is played meanwhile.
  await fire.evaluate(() => {
    const { net } = window.bombcheckers;
    net.stopped = true;
    net.ws.close();
  });
  await water.click('#rematch');
  await waitBoard(water, { seat: 'fire', game: '2', version: '0', status: 'playing' });
  await move(water, [0, 2], [1, 3]);
  // Back online at version 1 again, but of game 2.
  await fire.evaluate(() => window.bombcheckers.net.start());
  await waitBoard(fire, { seat: 'water', game: '2', version: '1', status: 'playing', turn: 'water' });
  await fire.locator('#move-list li', { hasText: 'a3–b4' }).waitFor();
  assert.equal(await fire.locator('#move-list li', { hasText: 'c3–d4' }).count(), 0, 'game 1 is not in the list');
  await fire.getByRole('button', { name: 'Replay game 1' }).waitFor();
  for (const p of [fire, water]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

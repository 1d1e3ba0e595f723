// Two people at one screen, in one browser engine (a file per engine runs it:
// both_one_screen.*.test.mjs): one page plays both sides, the board turns with the turn, a reload
// keeps both seats.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { done, waitBoard, createGame, move } from '../game_driver.mjs';

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
    it('two people at one screen: one page plays both sides, the board turns with the turn, a reload keeps both seats', async () => {
      const p = await engine.browser.person();
      await createGame(p, { variant: 'bomb', name: 'Ann', name2: 'Bob', seat: 'both' });
      await waitBoard(p, { status: 'playing', turn: 'fire', flipped: 'false' });
      await p.waitText('#status-line', 'Fire to move — Ann');
      await p.click('#turn-board-box');
      await move(p, [2, 2], [3, 3]);
      await waitBoard(p, { version: 1, turn: 'water', flipped: 'true' });
      await p.waitText('#status-line', 'Water to move — Bob');
      await p.reload();
      await waitBoard(p, { version: 1, turn: 'water', flipped: 'true', status: 'playing' });
      assert.equal(await p.eval(() => window.bombcheckers.app.oneScreen), true, 'both seats after the reload');
      await move(p, [5, 5], [4, 4]);
      await waitBoard(p, { version: 2, turn: 'fire', flipped: 'false' });
      await p.waitText('#resign', 'Fire resigns');
      await done(p);
    });
  });
}

// Two people at one screen in every browser of BC_BROWSERS (default Chromium and Firefox ESR): one
// page plays both sides, the board turns with the turn, a reload keeps both seats. A file of its
// own, so that no file nears node's per-file time bound (both.test.mjs took about 150 s alone).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { browsers, launch } from './driver.mjs';
import { done, waitBoard, createGame, move } from './game_driver.mjs';

for (const kind of browsers()) {
  describe(kind, () => {
    let browser;
    before(async () => {
      browser = await launch(kind);
    });
    after(async () => {
      await browser?.close();
    });

    it('two people at one screen: one page plays both sides, the board turns with the turn, a reload keeps both seats', async () => {
      const p = await browser.person();
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

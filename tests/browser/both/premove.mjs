// Premoves, in one browser engine (a file per engine runs it: both_premove.*.test.mjs): a move
// picked during the other side's turn, played when the turn comes; Escape and a right click cancel
// one; one that is no longer legal is dropped.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { board, done, waitBoard, clickSquare, move, startGame, pieceAt } from '../game_driver.mjs';
import { squarePoint } from '../helpers.mjs';

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {

    it('a premove made during the other side\'s turn is played at once when it comes; Escape and a right click cancel one', async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser);
      // Water picks f6-e5 while fire thinks; it is marked on water's board.
      await clickSquare(water, [5, 5]);
      await waitBoard(water, { premove: '5,5-' });
      await clickSquare(water, [4, 4]);
      await waitBoard(water, { premove: '5,5-4,4', version: '0' });
      await water.shot('both-premove');
      // "At once" is timed in water's own page, from the state that gives water the turn to the
      // state with water's move: one round trip, not the harness's polling or fire's page.
      await water.eval(() => {
        const el = document.querySelector('#board');
        window.versionAt = {};
        new MutationObserver(() => { window.versionAt[el.dataset.version] ??= performance.now(); })
          .observe(el, { attributes: true, attributeFilter: ['data-version'] });
      });
      await move(fire, [2, 2], [3, 3]);
      await waitBoard(fire, { version: 2, turn: 'fire' });
      await waitBoard(water, { version: 2 });
      const at = await water.eval(() => window.versionAt);
      assert.ok(at[2] - at[1] < 1000, `the premove came ${Math.round(at[2] - at[1])} ms after the turn`);
      assert.equal((await pieceAt(fire, [4, 4]))?.side, 'water');
      await waitBoard(water, { version: 2, premove: '' });

      // Escape cancels a premove: water's turn then waits for water.
      await clickSquare(water, [6, 6]);
      await clickSquare(water, [5, 5]);
      await waitBoard(water, { premove: '6,6-5,5' });
      await water.key('Escape');
      await waitBoard(water, { premove: '' });
      await move(fire, [4, 2], [5, 3]);
      await water.sleep(500);
      assert.equal((await board(water)).version, '3', 'nothing was played for water');

      // A right click cancels one too.
      await clickSquare(fire, [5, 3]);
      await clickSquare(fire, [6, 4]);
      await waitBoard(fire, { premove: '5,3-6,4' });
      const right = squarePoint(await fire.box('#board'), await board(fire), [6, 4]);
      await fire.mouse(right.x, right.y, { button: 'right' });
      await waitBoard(fire, { premove: '' });
      // And one that is not legal when the turn comes is dropped without a word.
      await clickSquare(fire, [5, 3]);
      await clickSquare(fire, [5, 4]);
      await waitBoard(fire, { premove: '5,3-5,4' });
      await move(water, [6, 6], [5, 5]);
      await waitBoard(fire, { version: 4, turn: 'fire', premove: '' });
      await fire.sleep(300);
      assert.equal((await board(fire)).version, '4', 'nothing was played for fire');
      assert.equal(await fire.count('.toast.error'), 0);
      await done(fire, water);
    });
  });
}

// Premoves, in one browser engine (a file per engine runs it: both_premove.*.test.mjs): a move
// picked during the other side's turn, played when the turn comes; Escape and a right click cancel
// one; one no reply can make legal is taken back at once, one that is no longer legal is dropped.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { board, done, waitBoard, clickSquare, move, startGame, pieceAt } from '../game_driver.mjs';
import { squarePoint } from '../helpers.mjs';

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
    it("a premove made during the other side's turn is played at once when it comes; Escape and a right click cancel one", async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser);
      // Water picks f6-e5 while fire thinks; it is marked on water's board.
      await clickSquare(water, [5, 5]);
      await waitBoard(water, { premove: '5,5-' });
      await clickSquare(water, [4, 4]);
      await waitBoard(water, { premove: '5,5-4,4', version: '0' });
      await water.shot('both-premove');
      // "At once" is an order in water's own page, not a time (a busy machine took 1,100 ms for
      // the round trip): the act leaves while the state that gives water the turn is handled,
      // before the board shows that state, with no timer or input in between.
      await water.eval(() => {
        const el = document.querySelector('#board');
        window.premoveSeen = { drawn: {}, actAt: null, actVersion: null };
        new MutationObserver(() => {
          window.premoveSeen.drawn[el.dataset.version] ??= performance.now();
        }).observe(el, { attributes: true, attributeFilter: ['data-version'] });
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) {
          let type = null;
          try {
            type = JSON.parse(data).type;
          } catch {
            /* not JSON: not ours to judge */
          }
          if (type === 'act' && window.premoveSeen.actAt === null) {
            window.premoveSeen.actAt = performance.now();
            window.premoveSeen.actVersion = el.dataset.version;
          }
          return send.call(this, data);
        };
      });
      await move(fire, [2, 2], [3, 3]);
      await waitBoard(fire, { version: 2, turn: 'fire' });
      await waitBoard(water, { version: 2 });
      const seen = await water.eval(() => window.premoveSeen);
      assert.notEqual(seen.actAt, null, 'water sent its premove');
      assert.equal(seen.actVersion, '0', 'the premove left before the board showed the turn');
      assert.ok(seen.actAt <= seen.drawn[1], 'the premove left while the turn was being handled');
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
      // One that no reply can make legal (a step straight up) is taken back at once, saying so (the
      // rules core in the page checks it), and the piece stays picked.
      await clickSquare(fire, [5, 3]);
      await clickSquare(fire, [5, 4]);
      await waitBoard(fire, { premove: '5,3-' });
      assert.match(
        await fire.eval(() => document.querySelector('#hint').textContent),
        /No reply can make that move legal/,
      );
      // And one the reply makes illegal is dropped without a word when the turn comes: water steps
      // onto its square.
      await clickSquare(fire, [6, 4]);
      await waitBoard(fire, { premove: '5,3-6,4' });
      await move(water, [7, 5], [6, 4]);
      await waitBoard(fire, { version: 4, turn: 'fire', premove: '' });
      await fire.sleep(300);
      assert.equal((await board(fire)).version, '4', 'nothing was played for fire');
      assert.equal(await fire.count('.toast.error'), 0);
      await done(fire, water);
    });
  });
}

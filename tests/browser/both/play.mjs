// The game as people play it, in one browser engine (a file per engine runs it: both_play.*.test.mjs):
// a whole game between two people who meet by link, a reload mid-game, a spectator, premoves, the
// players' connections and lag. The clocks are in clock.mjs, two people at one screen in
// one_screen.mjs, takebacks in takeback.mjs.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import {
  board, done, waitBoard, clickSquare, move, presenceOf, startGame, watchByLink, pieceAt, pieces,
} from '../game_driver.mjs';
import { squarePoint } from '../helpers.mjs';


const piece = (x, y, side, kind = 'normal', rank = 'man') => ({ at: [x, y], side, kind, rank });

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {

    it('two people meet by link and play a game to its end: multi-capture, Space, explosion, result', async () => {
      // Fire's man on a1 takes b2 and d4 and stops (f6 could be taken too: optional, B5). Water's
      // last man steps aside; fire's bomb takes it and the blast also takes fire's own man.
      const position = {
        turn: 'fire',
        pieces: [
          piece(0, 0, 'fire'), piece(7, 3, 'fire', 'bomb'), piece(7, 1, 'fire', 'shield'),
          piece(1, 1, 'water'), piece(3, 3, 'water'), piece(5, 5, 'water'),
        ],
      };
      const { room, creator: fire, joiner: water } = await startGame(engine.browser, { position });
      assert.equal(await fire.pathname(), `/r/${room}`, 'the address bar holds the shareable link');
      await waitBoard(fire, { seat: 'fire', flipped: 'false', turn: 'fire' });
      await waitBoard(water, { seat: 'water', flipped: 'true', turn: 'fire' });

      // First hop; the same piece stays selected and End turn is offered.
      await move(fire, [0, 0], [2, 2]);
      await waitBoard(fire, { selected: '2,2' });
      await fire.visible('#end-turn');
      await clickSquare(fire, [7, 3]);
      await fire.waitText('#hint', 'Keep capturing');
      // Second hop, then Space ends the turn although f6 could be taken.
      await clickSquare(fire, [4, 4]);
      await waitBoard(fire, { version: 2, selected: '4,4' });
      await fire.key('Space');
      await waitBoard(fire, { version: 3, turn: 'water' });
      await fire.waitText('#move-list li', 'a1×c3×e5');
      await waitBoard(water, { version: 3, turn: 'water' });
      await water.waitText('#move-list li', 'a1×c3×e5');

      // Water steps aside (it could also take: captures are optional).
      await move(water, [5, 5], [6, 4]);
      await waitBoard(fire, { version: 4, turn: 'fire' });

      // The bomb jumps and explodes: water has nothing left, fire's own man in the blast is gone too.
      await move(fire, [7, 3], [5, 5]);
      await waitBoard(fire, { status: 'finished', version: 5 });
      await waitBoard(water, { status: 'finished', version: 5 });
      assert.equal(await pieceAt(fire, [4, 4]), null, "fire's own man was in the blast");
      assert.equal((await pieceAt(fire, [7, 1]))?.kind, 'shield');
      assert.deepEqual(await pieces(water), await pieces(fire));
      await fire.waitText('.overlay-card', 'You win!');
      await water.waitText('.overlay-card', 'You lose');
      await water.waitText('#status-line', 'Fire wins: Water has no pieces left.');
      await fire.sleep(1200);  // the explosion's animation ends
      await fire.shot('both-game-end');
      await done(fire, water);
    });

    it('a reload mid-game keeps the seat, the board and the history, and the seat still plays', async () => {
      const { room, creator: fire, joiner: water } = await startGame(engine.browser);
      await move(fire, [2, 2], [3, 3]);
      await waitBoard(water, { version: 1, turn: 'water' });
      await move(water, [5, 5], [4, 4]);
      await waitBoard(fire, { version: 2, turn: 'fire' });
      // The bomb jumps water's bomb and explodes on landing: a position no fresh page would show.
      await move(fire, [3, 3], [5, 5]);
      await waitBoard(water, { version: 3, turn: 'water' });
      const before3 = await pieces(fire);

      for (const [p, seat, flipped] of [[water, 'water', 'true'], [fire, 'fire', 'false']]) {
        await p.reload();
        await waitBoard(p, { room, seat, version: '3', status: 'playing', turn: 'water', flipped });
        assert.deepEqual(await pieces(p), before3, `${seat}: the board after the reload`);
        await p.waitText('#move-list li', 'd4×f6');  // the history comes back too
        assert.equal(await p.count('#join-dialog[open]'), 0, `${seat}: no question asked`);
      }
      await move(water, [1, 5], [2, 4]);
      await waitBoard(fire, { version: 4, turn: 'fire' });
      assert.deepEqual(await pieces(fire), await pieces(water));
      await done(fire, water);
    });

    it('a spectator who opened the link sees every move and cannot act', async () => {
      const { room, link, creator: fire, joiner: water } = await startGame(engine.browser);
      const watcher = await engine.browser.person();
      await watchByLink(watcher, link);
      await waitBoard(watcher, { room, seat: 'spectator', version: '0', status: 'playing', flipped: 'false' });
      await fire.waitText('#spectators', '1 watching');

      await clickSquare(watcher, [2, 2]);
      await watcher.waitText('#hint', 'watching');
      assert.equal((await board(watcher)).selected, '');

      await move(fire, [2, 2], [3, 3]);
      await waitBoard(watcher, { version: 1, turn: 'water' });
      assert.equal((await pieceAt(watcher, [3, 3]))?.kind, 'bomb');
      await move(water, [5, 5], [4, 4]);
      await waitBoard(watcher, { version: 2, turn: 'fire' });
      await move(fire, [3, 3], [5, 5]);
      await waitBoard(watcher, { version: 3, turn: 'water' });
      assert.deepEqual(await pieces(watcher), await pieces(fire));
      await watcher.waitText('#move-list li', 'd4×f6');
      await watcher.sleep(1000);  // the explosion's animation ends
      await watcher.shot('both-spectator');
      await done(fire, water, watcher);
    });

    it('a premove made during the other side\'s turn is played at once when it comes; Escape and a right click cancel one', async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser);
      // Water picks f6-e5 while fire thinks; it is marked on water's board.
      await clickSquare(water, [5, 5]);
      await waitBoard(water, { premove: '5,5-' });
      await clickSquare(water, [4, 4]);
      await waitBoard(water, { premove: '5,5-4,4', version: '0' });
      await water.shot('both-premove');
      await move(fire, [2, 2], [3, 3]);
      const t0 = Date.now();
      await waitBoard(fire, { version: 2, turn: 'fire' }, 2000);
      assert.ok(Date.now() - t0 < 1000, `the premove came ${Date.now() - t0} ms after the turn`);
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
      const at = squarePoint(await fire.box('#board'), await board(fire), [6, 4]);
      await fire.mouse(at.x, at.y, { button: 'right' });
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

    it("each player card shows whether its player is connected, and their lag once the room has heard it", async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser);
      for (const [p, them] of [[fire, 'water'], [water, 'fire']]) {
        // Each page's pings tell the server its lag; `presence` passes it on (at most every 2 s).
        await p.waitFn((s) => document.querySelector(`#game .presence[data-side="${s}"]`)?.dataset.lag !== undefined,
          them, { timeout: 12000 });
        const shown = await presenceOf(p, them);
        assert.ok(Number.isInteger(shown.lag) && shown.lag >= 0, `${p.kind}: ${them}'s lag ${shown.lag}`);
        assert.ok(shown.text.includes(`${shown.lag} ms`), `${p.kind}: ${shown.text}`);
        assert.ok((await presenceOf(p, p === fire ? 'fire' : 'water')).text.includes('connected'), `${p.kind}: its own card`);
      }
      await fire.shot('both-presence');
      await done(fire, water);
    });
  });
}

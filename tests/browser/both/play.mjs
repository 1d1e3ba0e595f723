// The game as people play it, in one browser engine (a file per engine runs it: both_play.*.test.mjs):
// a whole game between two people who meet by link, and a reload mid-game. Spectators and the
// players' connections: presence.mjs; premoves: premove.mjs; clocks: clock.mjs and abandon.mjs;
// two people at one screen: one_screen.mjs; takebacks: takeback.mjs.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { done, waitBoard, clickSquare, move, startGame, pieceAt, pieces } from '../game_driver.mjs';
import { piece } from '../helpers.mjs';

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
    it('two people meet by link and play a game to its end: multi-capture, Space, explosion, result', async () => {
      // Fire's man on a1 takes b2 and d4 and stops (f6 could be taken too: optional, B5). Water's
      // last man steps aside; fire's bomb takes it and the blast also takes fire's own man.
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
      await fire.sleep(1200); // the explosion's animation ends
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

      for (const [p, seat, flipped] of [
        [water, 'water', 'true'],
        [fire, 'fire', 'false'],
      ]) {
        await p.reload();
        await waitBoard(p, { room, seat, version: '3', status: 'playing', turn: 'water', flipped });
        assert.deepEqual(await pieces(p), before3, `${seat}: the board after the reload`);
        await p.waitText('#move-list li', 'd4×f6'); // the history comes back too
        assert.equal(await p.count('#join-dialog[open]'), 0, `${seat}: no question asked`);
      }
      await move(water, [1, 5], [2, 4]);
      await waitBoard(fire, { version: 4, turn: 'fire' });
      assert.deepEqual(await pieces(fire), await pieces(water));
      await done(fire, water);
    });
  });
}

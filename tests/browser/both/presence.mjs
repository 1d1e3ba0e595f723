// Who is in the room, in one browser engine (a file per engine runs it: both_presence.*.test.mjs):
// a spectator who opened the link, and each player's connection and lag on the player cards.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import {
  board,
  done,
  waitBoard,
  clickSquare,
  move,
  presenceOf,
  startGame,
  watchByLink,
  pieceAt,
  pieces,
} from '../game_driver.mjs';

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
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
      await watcher.sleep(1000); // the explosion's animation ends
      await watcher.shot('both-spectator');
      await done(fire, water, watcher);
    });

    it('each player card shows whether its player is connected, and their lag once the room has heard it', async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser);
      for (const [p, them] of [
        [fire, 'water'],
        [water, 'fire'],
      ]) {
        // Each page's pings tell the server its lag; `presence` passes it on (at most every 2 s).
        await p.waitFn(
          (s) => document.querySelector(`#game .presence[data-side="${s}"]`)?.dataset.lag !== undefined,
          them,
          { timeout: 12000 },
        );
        const shown = await presenceOf(p, them);
        assert.ok(Number.isInteger(shown.lag) && shown.lag >= 0, `${p.kind}: ${them}'s lag ${shown.lag}`);
        assert.ok(shown.text.includes(`${shown.lag} ms`), `${p.kind}: ${shown.text}`);
        assert.ok(
          (await presenceOf(p, p === fire ? 'fire' : 'water')).text.includes('connected'),
          `${p.kind}: its own card`,
        );
      }
      await fire.shot('both-presence');
      await done(fire, water);
    });
  });
}

// Clocks as people meet them, in one browser engine (a file per engine runs it: both_clock.*.test.mjs):
// a clocked game made on the start screen, and one that flags. A player who leaves and a game nobody
// starts: abandon.mjs.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { done, waitBoard, clockOf, move, openingMoves, startGame } from '../game_driver.mjs';

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
    it('a clocked game made on the start screen: two clocks, the running one counts down, a reload shows the same time', async () => {
      const { room, creator: fire, joiner: water } = await startGame(engine.browser, { clock: '5+3' });
      for (const p of [fire, water]) {
        await p.waitText('#time-control-label', '5+3');
        for (const side of ['fire', 'water'])
          assert.equal((await clockOf(p, side))?.text, '05:00', `${p.kind} ${side}`);
      }
      // The first turns are not timed, but they must be played soon.
      await fire.waitText('#abort-note', 'Fire (you) must move within');
      await water.waitText('#abort-note', 'Fire must move within');
      await move(fire, [2, 2], [3, 3]);
      await water.waitText('#abort-note', 'Water (you) must move within');
      assert.equal((await clockOf(water, 'water')).running, false);
      await move(water, [5, 5], [4, 4]);
      await waitBoard(fire, { version: 2, turn: 'fire' });

      // Fire's clock runs, in both pages; water's stands.
      await fire.hidden('#abort-note');
      await fire.sleep(1200);
      for (const p of [fire, water]) {
        const f = await clockOf(p, 'fire');
        assert.ok(f.running && !f.low, `${p.kind}: fire's clock runs`);
        assert.ok(f.ms > 290000 && f.ms < 299500, `${p.kind}: fire's clock went down (${f.text})`);
        const w = await clockOf(p, 'water');
        assert.ok(!w.running && w.ms >= 300000, `${p.kind}: water's clock stands (${w.text})`);
      }
      await fire.shot('both-clocks');

      // A reload reads the same time from the state and the server's time.
      await fire.reload();
      await waitBoard(fire, { room, version: '2', turn: 'fire' });
      await fire.visible('#game .clock.running[data-side="fire"]');
      const [mine, theirs] = await Promise.all([clockOf(fire, 'fire'), clockOf(water, 'fire')]);
      assert.ok(
        Math.abs(mine.ms - theirs.ms) < 1000,
        `after the reload ${mine.text}, the opponent sees ${theirs.text}`,
      );
      await done(fire, water);
    });

    it('a player who does not move loses on time, and both see it', async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser, {
        clock: { minutes: '0:02', increment: '0' },
      });
      await fire.waitText('#time-control-label', '2s+0');
      await openingMoves(fire, water);
      await fire.visible('#game .clock.running.low[data-side="fire"]');
      // Fire does not move: its two seconds run out.
      await waitBoard(fire, { status: 'finished' }, 5000);
      await waitBoard(water, { status: 'finished' }, 5000);
      await water.waitText('#status-line', 'Water wins on time');
      await water.waitText('.overlay-card', 'You win!');
      await fire.waitText('.overlay-card', 'You lose');
      for (const p of [fire, water]) {
        await p.waitText('#move-list li.result', 'Water wins on time');
        assert.equal((await clockOf(p, 'fire')).text, '00:00.0');
        assert.ok(await p.eval(() => window.bombcheckers.sounds.includes('end')), `${p.kind}: the end is heard`);
      }
      await water.shot('both-flagged');
      await done(fire, water);
    });
  });
}

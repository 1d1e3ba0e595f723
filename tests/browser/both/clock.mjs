// Clocks as people meet them, in one browser engine (a file per engine runs it: both_clock.*.test.mjs):
// a clocked game made on the start screen, one that flags, a claim against a player who left, an
// abort.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engineSuite } from '../driver.mjs';
import { done, waitBoard, clockOf, move, openingMoves, startGame, watchByLink } from '../game_driver.mjs';
import { startServer } from '../helpers.mjs';


export default function scenarios(kind) {
  engineSuite(kind, (engine) => {

    it('a clocked game made on the start screen: two clocks, the running one counts down, a reload shows the same time', async () => {
      const { room, creator: fire, joiner: water } = await startGame(engine.browser, { clock: '5+3' });
      for (const p of [fire, water]) {
        await p.waitText('#time-control-label', '5+3');
        for (const side of ['fire', 'water']) assert.equal((await clockOf(p, side))?.text, '05:00', `${p.kind} ${side}`);
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
      assert.ok(Math.abs(mine.ms - theirs.ms) < 1000, `after the reload ${mine.text}, the opponent sees ${theirs.text}`);
      await done(fire, water);
    });

    it('a player who does not move loses on time, and both see it', async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser, { clock: { minutes: '0:02', increment: '0' } });
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

    it('a player who closes the page can be claimed against: a countdown, then Claim victory; both see who left', async () => {
      // run.sh gives the server --claim-after 2: the claim opens 2 s after the player is gone.
      const { room, link, creator: fire, joiner: water } = await startGame(engine.browser, { clock: '5+3' });
      const watcher = await engine.browser.person();
      await watchByLink(watcher, link);
      await openingMoves(fire, water);
      await fire.hidden('#away-note');

      await water.closePage();
      await fire.waitText('#away-text', 'Water left the game.');
      await fire.waitText('#away-wait', 'You can claim victory in');
      await watcher.waitText('#away-text', 'Water is disconnected.');
      await fire.waitText('#game .presence[data-side="water"]', 'offline');
      await fire.visible('#claim-win', 25000);
      await fire.waitText('#away-text', 'You can claim victory, or call it a draw.');
      assert.equal(await fire.count('#away-wait:not([hidden])'), 0, 'the countdown is over');
      await fire.visible('#claim-draw');
      assert.equal(await watcher.count('#away-buttons:not([hidden])'), 0, 'a spectator cannot claim');
      await fire.shot('both-claim');
      await fire.click('#claim-win');

      await waitBoard(fire, { status: 'finished' });
      await fire.waitText('#status-line', 'Fire wins: Water left the game.');
      await fire.waitText('.overlay-card', 'You win!');
      await fire.waitText('#move-list li.result', 'Fire wins: Water left');
      await fire.hidden('#away-note');
      await watcher.waitText('#status-line', 'Fire wins: Water left the game.');

      // The one who left opens the link again: the seat is still theirs, and the game is over.
      await water.reopen(link);
      await waitBoard(water, { room, seat: 'water', status: 'finished' });
      await water.waitText('#status-line', 'Fire wins: Water left the game.');
      await water.waitText('.overlay-card', 'You lose');
      await water.waitText('#move-list li.result', 'Fire wins: Water left');
      await done(fire, water, watcher);
    });

    it('a clocked game in which nobody moves is aborted, and both players see it', async () => {
      // A server of this test's own, whose first turns must come within 2 s.
      const work = mkdtempSync(path.join(os.tmpdir(), 'bc-browser-abort-'));
      const server = await startServer(['--data-dir', path.join(work, 'data'), '--abort-after', '2']);
      try {
        const { creator: fire, joiner: water } = await startGame(engine.browser, { clock: '5+3', base: server.base });
        for (const p of [fire, water]) {
          await waitBoard(p, { status: 'finished', version: '0' }, 8000);
          await p.waitText('.overlay-card h2', 'Aborted');
          await p.waitText('#status-line', 'Aborted: a first move was not made in time.');
          await p.waitText('#move-list li.result', 'Aborted');
          await p.hidden('#abort-note');
        }
        await water.shot('both-aborted');
        await done(fire, water);
      } finally {
        await server.stop();
        rmSync(work, { recursive: true, force: true });
      }
    });
  });
}

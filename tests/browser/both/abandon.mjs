// Clocked games that one side abandons, in one browser engine (a file per engine runs it:
// both_abandon.*.test.mjs): a claim against a player who closed the page, and an abort when nobody
// makes a first move. The clocks themselves: clock.mjs.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engineSuite } from '../driver.mjs';
import { done, waitBoard, openingMoves, startGame, watchByLink } from '../game_driver.mjs';
import { startServer } from '../helpers.mjs';

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
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

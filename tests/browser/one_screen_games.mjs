// Two people at one screen ("both sides on this screen", PROTOCOL.md "One screen"): a whole game of
// a variant from its normal start to its end by the rules, played from one page (both sides' turns
// by clicks on its board, chosen from the page's own legal actions), with a reload in the middle,
// and its record. The variants are shared out between one_screen_games_*.test.mjs (files of their
// own, run side by side); the rest of one-screen play: one_screen.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, person, board, shot } from './helpers.mjs';
import { browser } from './shared_browser.mjs';
import { SIDES, stateOf, createOneScreen, playToEnd } from './one_screen_driver.mjs';

// Each game ends by the rules in a few dozen turns (one_screen_driver.mjs's choice of turns).
export const GAMES = {
  kaboom: { variant: 'kaboom', reloadAt: 3, reasons: ['connect'] },
  classic: { variant: 'classic', reloadAt: 10, reasons: ['no_pieces', 'no_moves'] },
  bomb: { variant: 'bomb', reloadAt: 12, reasons: ['no_pieces', 'no_moves', 'mutual_destruction'] },
  triple_king: { variant: 'triple_king', reloadAt: 7, reasons: ['no_pieces', 'no_moves'] },
};

/** Declares one test per variant of `variants`, each a whole game, in the file's one browser. */
export function wholeGames(variants) {
  for (const g of variants.map((v) => GAMES[v])) {
    test(
      `one screen: a whole ${g.variant} game played by two people at one page, with a reload`,
      { timeout: 90000 },
      async () => {
        const started = Date.now();
        const page = await person(browser);
        const names = ['Ann', 'Bob'];
        const room = await createOneScreen(page, { variant: g.variant, names });
        const [first, second] = SIDES[g.variant];
        let s = await stateOf(page);
        assert.equal(s.one_screen, true);
        assert.equal(s.players[first].name, 'Ann');
        assert.equal(s.players[second].name, 'Bob');
        assert.equal((await board(page)).flipped, 'false', 'the first side at the bottom');
        await page.locator('#one-screen-badge', { hasText: 'One screen' }).waitFor();
        assert.equal(await page.locator('#board-overlay').isHidden(), true, 'no invitation: nobody is waited for');

        s = await playToEnd(page, { names, reloadAt: g.reloadAt });
        assert.equal(s.status, 'finished');
        assert.ok(g.reasons.includes(s.result?.reason), `a result by the rules: ${JSON.stringify(s.result)}`);
        const turns = s.version;
        const winner = s.result.winner;
        if (winner) {
          const winnerName = winner === first ? 'Ann' : 'Bob';
          await page.locator('.overlay-card h2', { hasText: `${winnerName} wins!` }).waitFor();
        }
        await page.locator('.overlay-card', { hasText: 'A rematch starts at once' }).waitFor();
        await page.waitForTimeout(1400);
        await shot(page, `one-screen-${g.variant}-end`);

        // The record says it was played at one screen.
        const rec = await (await fetch(`${BASE}/api/games/${room}`)).json();
        assert.equal(rec.one_screen, true);
        const text = await (await fetch(`${BASE}/api/games/${room}.pdn`)).text();
        if (g.variant === 'kaboom') assert.match(text, /^Mode: one screen$/m, text);
        else assert.match(text, /^\[Mode "one screen"\]$/m, text);
        // The move list has every turn, and the replay steps through them.
        const listed = await page.locator('#move-list button.move').count();
        assert.ok(listed > 0 && listed <= turns, `moves listed: ${listed} of ${turns} versions`);
        assert.deepEqual(page.errors, []);
        await page.context().close();
        console.log(
          `# ${g.variant}: ${turns} versions, ${s.result.reason}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      },
    );
  }
}

// Players as people meet them, in one browser engine (a file per engine runs it:
// both_players.*.test.mjs): two people sign up, press the same pool, are paired, play a rated game
// and see it on their player cards, their profiles and the leaderboard. The forms' refusals, lazy
// guests, the Rated box and a server without players: players.test.mjs.
// A server of this file's own (players_driver.mjs); each person is a context of their own.
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { board, done, openingMoves, waitBoard } from '../game_driver.mjs';
import { enterPool, openAccountMenu, playersServer, signUp, uniqueName } from '../players_driver.mjs';

/** What the player cards show of each side: {fire: {name, href, rating, diff}, water: ...}. */
function cards(p) {
  return p.eval(() => {
    const out = {};
    for (const side of ['fire', 'water']) {
      const el = document.querySelector(`#game .player.side-${side}`);
      out[side] = {
        name: el?.querySelector('.pname')?.textContent ?? null,
        href: el?.querySelector('a.pname')?.getAttribute('href') ?? null,
        rating: el?.querySelector('.rating')?.textContent ?? null,
        diff: el?.querySelector('.rating-diff')?.textContent ?? null,
      };
    }
    return out;
  });
}

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
    let server;
    before(async () => {
      server = await playersServer();
    });
    after(async () => {
      await server?.stop();
    });

    it('two people sign up, meet in a pool, play a rated game, and see their ratings move on the cards, their profiles and the leaderboard', async () => {
      const base = server.base;
      const ann = await engine.browser.person();
      const bob = await engine.browser.person();
      const names = new Map([
        [ann, uniqueName('Ann')],
        [bob, uniqueName('Bob')],
      ]);
      for (const [p, name] of names) await signUp(p, base, name);

      // The same pool: the first waits there, the second's press pairs them.
      await enterPool(ann, 'bomb-3+2');
      await ann.waitText('#pool-wait-text', '1 in the pool');
      await bob.click('#pool-grid button[data-pool="bomb-3+2"]'); // paired in the next wave
      await waitBoard(ann, { status: 'playing' });
      await waitBoard(bob, { status: 'playing' });
      const room = (await board(ann)).room;
      assert.equal((await board(bob)).room, room, 'one room');
      assert.equal(await ann.pathname(), `/r/${room}`);
      assert.equal(await bob.pathname(), `/r/${room}`);
      const seats = new Map([
        [ann, (await board(ann)).seat],
        [bob, (await board(bob)).seat],
      ]);
      assert.deepEqual([...seats.values()].sort(), ['fire', 'water'], 'a side each');
      const fire = seats.get(ann) === 'fire' ? ann : bob;
      const water = fire === ann ? bob : ann;

      // Ratings on the cards of a rated room, and each name a link to its profile.
      for (const p of [ann, bob]) {
        await p.waitFn(() => document.querySelectorAll('#game .player .rating').length === 2);
        const c = await cards(p);
        for (const [q, side] of [
          [fire, 'fire'],
          [water, 'water'],
        ]) {
          assert.equal(c[side].name, names.get(q), `${p.kind}: ${side}'s name`);
          assert.equal(c[side].href, `/@/${names.get(q)}`, `${p.kind}: ${side}'s profile link`);
          assert.equal(c[side].rating, '1500?', `${p.kind}: ${side}'s provisional rating`);
          assert.equal(c[side].diff, null, `${p.kind}: no change before the end`);
        }
      }

      // Each side moves once (a game of fewer turns is not rated), then fire resigns.
      await openingMoves(fire, water);
      await fire.click('#resign');
      await fire.click('#confirm-yes');
      await waitBoard(fire, { status: 'finished' });
      await waitBoard(water, { status: 'finished' });

      // The change on both cards, in both pages: water up, fire down by as much.
      let gain = 0;
      for (const p of [ann, bob]) {
        await p.waitFn(() => document.querySelectorAll('#game .player .rating-diff').length === 2);
        const c = await cards(p);
        assert.match(c.water.diff, /^\+\d+$/, `${p.kind}: water's gain (${c.water.diff})`);
        assert.match(c.fire.diff, /^−\d+$/, `${p.kind}: fire's loss (${c.fire.diff})`);
        gain = Number(c.water.diff.slice(1));
        assert.equal(c.water.rating, `${1500 + gain}?`, `${p.kind}: water's new rating`);
        assert.equal(c.fire.rating, `${1500 - Number(c.fire.diff.slice(1))}?`, `${p.kind}: fire's new rating`);
      }
      assert.ok(gain > 0);
      await water.shot('both-players-rated');

      // Profiles: water follows fire's name on the card; each opens their own from the top bar.
      await water.click('#game .player.side-fire a.pname');
      await water.waitText('#profile-name', names.get(fire));
      await water.visible(`#profile-games li[data-room="${room}"]`);
      await water.waitText(`#profile-games li[data-room="${room}"] .result`, 'Lost');
      for (const p of [ann, bob]) {
        await p.click('#account-name');
        await p.waitText('#profile-name', names.get(p));
        assert.equal(await p.pathname(), `/@/${names.get(p)}`);
        const row = `#profile-games li[data-room="${room}"]`;
        await p.visible(row);
        await p.waitText(`${row} .result`, p === water ? 'Won' : 'Lost');
        await p.waitText(`${row} .game-vs`, names.get(p === ann ? bob : ann));
        await p.waitText('#profile-ratings .perf', 'Bomb Checkers · Blitz');
        await p.waitText('#profile-counts', p === water ? '1 won' : '1 lost');
        // The chart has its line.
        const drawn = await p.eval(() => {
          const c = document.querySelector('#rating-chart');
          const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]) n++;
          return c.width > 0 && n > 100;
        });
        assert.ok(drawn, `${p.kind}: the rating chart is drawn`);
      }
      await ann.shot('both-players-profile');

      // The leaderboard: both names, among the provisional ratings (one game each).
      await openAccountMenu(ann);
      await ann.click('#account-signed-in a.menu-item[href="/leaderboard"]');
      await bob.goto(`${base}/leaderboard`);
      for (const p of [ann, bob]) {
        await p.waitText('#leaderboard-title', 'Leaderboard');
        assert.equal(await p.pathname(), '/leaderboard');
        for (const name of names.values()) await p.waitText('.lb-perf .lb-provisional li', name);
        assert.equal(await p.count('.lb-perf .lb-ranked li'), 0, `${p.kind}: nobody ranked yet`);
      }
      await bob.shot('both-players-leaderboard');
      await done(ann, bob);
    });
  });
}

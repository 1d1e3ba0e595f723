// Play with no server, in one browser engine (a file per engine runs it: both_offline.*.test.mjs;
// docs/ENGINE.md, "Offline"): the service worker keeps the page, and the server's own room and
// computer run in a Web Worker (web/offline/). The page is loaded once from a server of this test's
// own, the server is stopped, the page is loaded again from the browser's copy, and a whole game
// against the computer is played to its end and exported.
import { it, after } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { startServer } from '../helpers.mjs';
import { board, done, waitBoard, T } from '../game_driver.mjs';

export default function scenarios(kind) {
  let server = null;
  after(async () => {
    await server?.stop();
  });

  engineSuite(kind, (engine) => {
    it('with the server gone, the page opens from the browser and plays a whole game against the computer', async () => {
      server = await startServer(['--memory']);
      const p = await engine.browser.person();
      await p.goto(`${server.base}/`);
      await p.visible('#create-btn:not([disabled])');
      // The service worker has kept every file of the page (its install waits for them all).
      await p.waitFn(() => navigator.serviceWorker?.controller?.state === 'activated', null, { timeout: 30000 });
      assert.equal(await p.eval(() => document.body.classList.contains('offline')), false);

      await server.stop();
      server = null;
      await p.reload();
      await p.waitText('#conn', 'Playing offline');
      await p.visible('#offline-note');
      await p.hidden('#join-form');
      await p.waitText('#banner-action', 'Try the server');

      // Kaboom against the computer at its weakest, from the same form as online.
      await p.visible('#create-btn:not([disabled])');
      await p.click('label.variant:has(input[value="kaboom"])');
      for (const [k, v] of Object.entries({ width: 7, height: 6, connect: 4, bombs: 1 }))
        await p.fill(`#opt-${k}`, String(v));
      await p.fill('#create-name', 'Ada');
      await p.click('label.side-pick:has(input[value="x"])');
      if (!(await p.eval(() => document.querySelector('#vs-ai').checked))) await p.click('label.switch:has(#vs-ai)');
      await p.eval(() => {
        const r = document.querySelector('#ai-level');
        r.value = '0';
        r.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await p.waitText('#ai-level-num', '1');
      await p.click('#create-btn');
      await waitBoard(p, { variant: 'kaboom', seat: 'x', status: 'playing', turn: 'x' });
      await p.visible('#player-top .tag.ai');
      assert.equal(await p.pathname(), '/', 'a game with no server has no link');
      // The values come from the computer in the browser, as the server's analysis would give them.
      await p.click('#values-toggle');
      await waitBoard(p, { values: 'ready', valueVersion: '1:0' }, 30000);
      await p.visible('#hints-badge');
      await p.click('#values-toggle');
      await waitBoard(p, { values: 'off' });

      let turns = 0;
      for (;;) {
        const b = await board(p);
        if (b.status === 'finished') break;
        assert.ok(turns < 30, `the game ends (${JSON.stringify(b)})`);
        const column = await p.eval(() => {
          const drop = window.bombcheckers.app.state.legal.find((a) => a.kind === 'drop' && a.piece === 'normal');
          return drop ? drop.column : null;
        });
        assert.notEqual(column, null, 'x has a drop');
        await p.click(`button[aria-label="Drop a piece in column ${column + 1}"]`);
        turns++;
        // The computer answers by itself, unless that drop ended the game.
        await p.waitFn(
          (v) => {
            const d = document.querySelector('#board').dataset;
            return d.status === 'finished' || (Number(d.version) > v && d.turn === 'x');
          },
          Number(b.version),
          { timeout: T },
        );
      }
      const state = await p.eval(() => window.bombcheckers.app.state);
      assert.ok(state.result, 'the game has a result');
      assert.ok(state.version >= 7, `at least four drops of x and three of the computer (${state.version})`);
      await p.visible('#move-list li');
      await p.sleep(300);
      await p.shot('offline-game-over');

      // The Export menu's files come from the room in the browser, as the server would make them:
      // what each download hands the browser is caught as it is made.
      await p.eval(() => {
        window.madeFiles = [];
        const make = URL.createObjectURL;
        URL.createObjectURL = (blob) => {
          window.madeFiles.push(blob);
          return make.call(URL, blob);
        };
      });
      await p.click('button[aria-label="Close and look at the board"]');
      await p.click('#export-menu summary');
      await p.click('#export-json');
      await p.waitFn(() => window.madeFiles.length === 1);
      if (!(await p.eval(() => document.querySelector('#export-menu').open))) await p.click('#export-menu summary');
      await p.click('#export-text');
      await p.waitFn(() => window.madeFiles.length === 2);
      const [json, text] = await p.eval(() => Promise.all(window.madeFiles.map((b) => b.text())));
      const rec = JSON.parse(json);
      assert.equal(rec.variant, 'kaboom');
      assert.equal(rec.actions.length, state.version, 'every action of the game');
      assert.deepEqual(rec.result.winner ?? null, state.result.winner ?? null);
      assert.match(text, /^x: Ada$/m, "the server's own Kaboom record");
      // Back to the server, which is still gone: the start page, and offline again by itself.
      await p.click('#banner-action');
      await p.visible('#start');
      await p.waitText('#conn', 'Playing offline');
      // Firefox reports each WebSocket it could not open as an error of the page: the server is
      // gone, as the test wants. Anything else is a fault.
      p.errors = p.errors.filter((e) => !/establish a connection to the server at ws:/.test(e));
      await done(p);
    });
  });
}

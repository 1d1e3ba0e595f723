// Play with no server (docs/ENGINE.md, "Offline"): the service worker keeps the page, and the
// server's own room and computer run in a Web Worker (web/offline/). The page is loaded once from a
// server of this test's own, the server is stopped, the page is loaded again from the browser's
// copy, and a whole game against the computer is played to its end.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, shot, startServer, T } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

let server = null;
after(async () => {
  await server?.stop();
});

/** Drops a piece in the first column the state allows, as the x player, with the drop buttons. */
async function dropSomewhere(page) {
  const column = await page.evaluate(() => {
    const s = window.bombcheckers.app.state;
    const drop = s.legal.find((a) => a.kind === 'drop' && a.piece === 'normal');
    return drop ? drop.column : null;
  });
  assert.notEqual(column, null, 'x has a drop');
  await page.getByRole('button', { name: `Drop a piece in column ${column + 1}` }).click();
}

test('with the server gone, the page opens from the browser and plays a whole game against the computer', async () => {
  server = await startServer(['--memory']);
  const page = await person(browser, { serviceWorkers: 'allow' });
  await page.goto(`${server.base}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  // The service worker has kept every file of the page (its install waits for them all).
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', null, { timeout: T });
  assert.equal(await page.locator('#offline-note').isVisible(), false, 'online, nothing said of it');

  await server.stop();
  server = null;
  await page.reload();
  await page.locator('#conn', { hasText: 'Playing offline' }).waitFor();
  await page.locator('#offline-note').waitFor();
  assert.equal(await page.locator('#join-form').isVisible(), false, 'nothing to join with no server');
  assert.equal(await page.locator('#banner-action').textContent(), 'Try the server');

  // Kaboom against the computer at its weakest, from the same form as online.
  await page.locator('#create-btn:not([disabled])').waitFor();
  await page.locator('label.variant:has(input[value="kaboom"])').click();
  for (const [k, v] of Object.entries({ width: 7, height: 6, connect: 4, bombs: 1 }))
    await page.fill(`#opt-${k}`, String(v));
  await page.fill('#create-name', 'Ada');
  await page.locator('label.side-pick:has(input[value="x"])').click();
  if (!(await page.locator('#vs-ai').isChecked())) await page.getByText('Play against the computer').click();
  await page.locator('#ai-level').fill('0');
  await page.locator('#ai-level-num', { hasText: '1' }).waitFor();
  await page.click('#create-btn');
  try {
    await waitBoard(page, { variant: 'kaboom', seat: 'x', status: 'playing', turn: 'x' });
  } catch (e) {
    await shot(page, 'offline-debug');
    console.log(
      JSON.stringify(await board(page)),
      JSON.stringify(await page.evaluate(() => window.bombcheckers.app.state)).slice(0, 600),
    );
    throw e;
  }
  await page.locator('#player-top .tag.ai').waitFor();
  assert.equal(new URL(page.url()).pathname, '/', 'a game with no server has no link');

  let turns = 0;
  for (;;) {
    const b = await board(page);
    if (b.status === 'finished') break;
    assert.ok(turns < 30, `the game ends (${JSON.stringify(b)})`);
    await dropSomewhere(page);
    turns++;
    // The computer answers by itself, unless that drop ended the game.
    await page.waitForFunction(
      (v) => {
        const d = document.querySelector('#board').dataset;
        return d.status === 'finished' || (Number(d.version) > v && d.turn === 'x');
      },
      Number(b.version),
      { timeout: T },
    );
  }
  const state = await page.evaluate(() => window.bombcheckers.app.state);
  assert.ok(state.result, 'the game has a result');
  assert.ok(state.version >= 7, `at least four drops of x and three of the computer (${state.version})`);
  await page.locator('#move-list li').first().waitFor();
  await page.waitForTimeout(300);
  await shot(page, 'offline-game-over');

  // Its record exports as online: made by the room in the browser.
  await page.getByRole('button', { name: 'Close and look at the board' }).click();
  await page.locator('#export-menu summary').click();
  await page.locator('#export-list .menu-item').first().waitFor();
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const chunks = [];
  for await (const c of await dl.createReadStream()) chunks.push(c);
  const rec = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  assert.equal(rec.variant, 'kaboom');
  assert.equal(rec.actions.length, state.version, 'every action of the game');
  assert.deepEqual(rec.result.winner ?? null, state.result.winner ?? null);
  if (!(await page.locator('#export-text').isVisible())) await page.locator('#export-menu summary').click();
  const [txt] = await Promise.all([page.waitForEvent('download'), page.click('#export-text')]);
  const text = [];
  for await (const c of await txt.createReadStream()) text.push(c);
  assert.match(Buffer.concat(text).toString('utf8'), /^x: Ada$/m, "the server's own Kaboom record");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Replay and export: stepping through a game move by move (buttons, arrow keys, the move list),
// the Live button during a game, the Replay button after it, and the downloads of the Export menu.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, person, board, waitBoard, clickSquare, move, createGame, shareLink, joinByLink, shot, BASE, T,
} from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The pieces on the board the page shows (the replayed position while replaying). */
const shownPieces = (page) => page.evaluate(() => JSON.stringify(
  [...window.bombcheckers.board.state.board.pieces].map((p) => `${p.at}:${p.side}:${p.kind}:${p.rank}`).sort()));

/** The pieces of a live state this page received, by version (and game of the room). */
const livePieces = (page, version, game) => page.evaluate(([v, g]) => {
  const app = window.bombcheckers.app;
  const snap = app.games.get(g ?? app.gameNo)?.get(v);
  return snap ? JSON.stringify(snap.board.pieces.map((p) => `${p.at}:${p.side}:${p.kind}:${p.rank}`).sort()) : null;
}, [version, game]);

async function replayAt(page, version, game) {
  await waitBoard(page, { replayVersion: String(version) });
  // The board shows exactly the position the server sent for that version.
  assert.equal(await shownPieces(page), await livePieces(page, version, game), `board at version ${version}`);
}

/** Two players in a bomb game; fire has played c3-d4, water f6-e5, fire's bomb d4xf6 (it explodes). */
async function openingGame() {
  const fire = await person(browser);
  const water = await person(browser);
  const room = await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await joinByLink(water, await shareLink(fire), 'Rachel');
  await waitBoard(fire, { status: 'playing', turn: 'fire' });
  await move(fire, [2, 2], [3, 3]);
  await waitBoard(water, { version: 1, turn: 'water' });
  await move(water, [5, 5], [4, 4]);
  await waitBoard(fire, { version: 2, turn: 'fire' });
  await move(fire, [3, 3], [5, 5]);
  await waitBoard(water, { version: 3, turn: 'water' });
  return { fire, water, room };
}

test('replay: step through a running game by the move list, buttons and arrow keys; Live returns', async () => {
  const { fire, water } = await openingGame();
  assert.equal((await board(fire)).replayVersion, '');
  await fire.locator('#replay-bar').waitFor({ state: 'hidden' });

  // A click on the first move shows the board after it.
  await fire.locator('#move-list li', { hasText: 'c3–d4' }).getByRole('button').click();
  await replayAt(fire, 1);
  await fire.locator('#replay-bar').waitFor();
  await fire.locator('#replay-pos', { hasText: 'Move 1 of 3' }).waitFor();
  assert.equal(await fire.locator('#move-list li.current').count(), 1);
  assert.match(await fire.locator('#move-list li.current').textContent(), /c3–d4/);
  // The live game goes on underneath: data-version is still the live one.
  assert.equal((await board(fire)).version, '3');

  // Back to the start with the arrow key, forward with the buttons.
  await fire.keyboard.press('ArrowLeft');
  await replayAt(fire, 0);
  await fire.locator('#replay-pos', { hasText: 'Start position' }).waitFor();
  assert.ok(await fire.locator('#replay-first').isDisabled());
  await fire.click('#replay-next');
  await replayAt(fire, 1);
  await fire.keyboard.press('ArrowRight');
  await replayAt(fire, 2);
  await fire.keyboard.press('ArrowRight');
  await replayAt(fire, 3);
  await fire.locator('#replay-move', { hasText: 'd4×f6' }).waitFor();
  assert.ok(await fire.locator('#replay-next').isDisabled());
  await fire.waitForTimeout(450); // the step forward replays the explosion
  await shot(fire, 'replay-explosion-step');
  await fire.keyboard.press('Home');
  await replayAt(fire, 0);
  await fire.keyboard.press('End');
  await replayAt(fire, 3);

  // Clicks on the board do nothing while replaying.
  await fire.click('#replay-prev');
  await replayAt(fire, 2);
  await clickSquare(fire, [0, 2]);
  await fire.locator('#hint', { hasText: 'Live' }).waitFor();
  assert.equal((await board(fire)).selected, '');

  // The opponent moves meanwhile: the replay stays put, and grows by that move.
  await move(water, [1, 5], [2, 4]);
  await waitBoard(fire, { version: 4, turn: 'fire' });
  assert.equal((await board(fire)).replayVersion, '2');
  await fire.locator('#replay-pos', { hasText: 'Move 2 of 4' }).waitFor();
  await fire.waitForTimeout(300);
  await shot(fire, 'replay-running-game');

  // Live returns to the game, which plays on.
  await fire.getByRole('button', { name: 'Back to the live game' }).click();
  await waitBoard(fire, { replayVersion: '' });
  await fire.locator('#replay-bar').waitFor({ state: 'hidden' });
  assert.equal(await shownPieces(fire), await livePieces(fire, 4));
  await move(fire, [0, 2], [1, 3]);
  await waitBoard(water, { version: 5 });

  // Escape leaves a replay too; ArrowLeft starts one from the live game.
  await water.locator('#board').focus();
  await water.keyboard.press('ArrowLeft');
  await replayAt(water, 4);
  await water.keyboard.press('Escape');
  await waitBoard(water, { replayVersion: '' });

  // After the game: a Replay button on the result card and among the controls.
  await water.click('#resign');
  await water.click('#confirm-yes');
  await waitBoard(fire, { status: 'finished' });
  await fire.locator('.overlay-card').getByRole('button', { name: 'Replay this game' }).click();
  await replayAt(fire, 0);
  await fire.locator('#board-overlay').waitFor({ state: 'hidden' });
  await fire.getByRole('button', { name: 'Close the replay' }).waitFor();
  for (let v = 1; v <= 5; v++) {
    await fire.keyboard.press('ArrowRight');
    await replayAt(fire, v);
  }
  await fire.locator('#replay-move', { hasText: 'Water resigned' }).waitFor();
  await fire.getByRole('button', { name: 'Close the replay' }).click();
  await waitBoard(fire, { replayVersion: '' });
  await fire.locator('#replay').waitFor();
  await fire.click('#replay');
  await replayAt(fire, 0);

  // A rematch: the first game stays replayable from the second one's move list.
  await fire.getByRole('button', { name: 'Close the replay' }).click();
  await fire.click('#rematch');
  await water.click('#rematch');
  await waitBoard(fire, { seat: 'water', version: '0', status: 'playing', game: '2' });
  await fire.getByRole('button', { name: 'Replay game 1' }).click();
  await waitBoard(fire, { replayGame: '1' });
  await replayAt(fire, 0, 1);
  await fire.keyboard.press('End');
  await replayAt(fire, 5, 1);
  await fire.locator('#replay-pos', { hasText: 'Move 5 of 5' }).waitFor();
  await fire.locator('#move-list li.current', { hasText: 'a3–b4' }).waitFor();
  await fire.locator('#player-bottom .tag', { hasText: 'you' }).waitFor({ state: 'detached' });
  await fire.locator('#player-top .tag', { hasText: 'you' }).waitFor(); // Ross played fire in game 1
  await fire.waitForTimeout(600);
  await shot(fire, 'replay-earlier-game');
  await fire.getByRole('button', { name: 'Close the replay' }).click();
  await waitBoard(fire, { replayVersion: '', replayGame: '' });
  await fire.locator('#move-list li', { hasText: 'No moves yet' }).waitFor();

  await fire.getByRole('button', { name: 'Replay game 1' }).click();
  await replayAt(fire, 0, 1);
  await fire.keyboard.press('ArrowRight');
  await fire.keyboard.press('ArrowRight');
  await fire.keyboard.press('ArrowRight');
  await replayAt(fire, 3, 1);
  await fire.setViewportSize({ width: 390, height: 844 });
  await fire.waitForTimeout(600);
  await shot(fire, 'replay-phone');

  for (const p of [fire, water]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

test('replay after joining late: the positions come from the server (GET /api/games/{room}/positions)', async () => {
  const { fire, water, room } = await openingGame();
  const res = await fetch(`${BASE}/api/games/${room}/positions`);
  assert.equal(res.status, 200, `GET /api/games/${room}/positions`);
  const body = await res.json();
  assert.deepEqual(body.positions.map((p) => p.version), [0, 1, 2, 3]);
  const watcher = await person(browser);
  await watcher.goto(`${BASE}/r/${room}`);
  await watcher.locator('#join-dialog[open]').waitFor();
  await watcher.click('#join-watch');
  await waitBoard(watcher, { seat: 'spectator', version: 3 });
  await watcher.locator('#move-list li', { hasText: 'c3–d4' }).getByRole('button').click();
  await waitBoard(watcher, { replayVersion: '1' });
  await watcher.keyboard.press('Home');
  await waitBoard(watcher, { replayVersion: '0' });
  const start = await watcher.evaluate(() => window.bombcheckers.board.state.board.pieces.length);
  assert.equal(start, 24, 'the start position has 24 pieces');
  await watcher.keyboard.press('End');
  await waitBoard(watcher, { replayVersion: '3' });
  for (const p of [fire, water, watcher]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water, watcher].map((p) => p.context().close()));
});

/** The Export menu's entries once the PDN check is done. */
async function openExport(page) {
  await page.locator('#export-menu summary').click();
  await page.locator('#export-list .menu-item').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('#export-list .checking'), null, { timeout: T });
}

test('export: the game record as JSON, the PDN of a checkers game, a Kaboom text record', async (t) => {
  const { fire, water, room } = await openingGame();
  await water.click('#resign');
  await water.click('#confirm-yes');
  await waitBoard(fire, { status: 'finished' });
  await fire.getByRole('button', { name: 'Close and look at the board' }).click();
  await openExport(fire);
  await fire.waitForTimeout(200);
  await shot(fire, 'export-menu');

  const json = fire.locator('#export-json');
  assert.match(await json.getAttribute('download'), new RegExp(`${room}.*\\.json$`));
  const rec = await fire.request.get(new URL(await json.getAttribute('href'), BASE).href);
  assert.equal(rec.status(), 200);
  assert.match(rec.headers()['content-type'], /^application\/json/);
  const body = await rec.json();
  assert.equal(body.room, room);
  assert.equal(body.actions.length, 3, 'three moves (resigning is no action)');
  assert.equal(body.result.reason, 'resigned');

  // The PDN of a checkers game (GET /api/games/{room}.pdn): this server makes one, so it is offered.
  const pdn = fire.locator('#export-pdn');
  assert.equal(await pdn.evaluate((el) => el.classList.contains('unavailable')), false,
    `the PDN is offered (GET /api/games/${room}.pdn answers)`);
  const res = await fire.request.get(new URL(await pdn.getAttribute('href'), BASE).href);
  assert.equal(res.status(), 200);
  assert.match(res.headers()['content-type'], /^text\/plain/);
  const pdnText = await res.text();
  assert.match(pdnText, /\[Event /, 'PDN tags');
  assert.match(pdnText, /\[Result "0-1"\]/, 'fire (Black in PDN) won');
  assert.match(pdnText, /1\. 11-15 22-18 2\. 15x22/, 'the moves');
  // A click on the JSON entry downloads the record.
  const [dl] = await Promise.all([fire.waitForEvent('download'), json.click()]);
  assert.match(dl.suggestedFilename(), /\.json$/);
  await Promise.all([fire, water].map((p) => p.context().close()));

  // Kaboom: a plain-text record made from the JSON record.
  const x = await person(browser);
  const o = await person(browser);
  await createGame(x, { variant: 'kaboom', name: 'Xena', seat: 'x' });
  await joinByLink(o, await shareLink(x), 'Otto');
  await waitBoard(x, { status: 'playing', turn: 'x' });
  await x.getByRole('button', { name: 'Drop a piece in column 4' }).click();
  await waitBoard(o, { version: 1, turn: 'o' });
  await o.getByRole('button', { name: 'Drop a bomb in column 3' }).click();
  await waitBoard(x, { version: 2, turn: 'x' });
  // Kaboom replays too: the bomb drop, then the first drop.
  await x.keyboard.press('ArrowLeft');
  await replayAt(x, 1);
  await x.keyboard.press('ArrowRight');
  await replayAt(x, 2);
  await x.waitForTimeout(500);
  await shot(x, 'replay-kaboom');
  await x.keyboard.press('Escape');
  await waitBoard(x, { replayVersion: '' });
  await openExport(x);
  assert.equal(await x.locator('#export-pdn').count(), 0, 'no PDN for Kaboom');
  const [txt] = await Promise.all([x.waitForEvent('download'), x.click('#export-text')]);
  assert.match(txt.suggestedFilename(), /^kaboom-.*\.txt$/);
  const chunks = [];
  for await (const c of await txt.createReadStream()) chunks.push(c);
  const text = Buffer.concat(chunks).toString('utf8');
  const served = await x.request.get(`${BASE}/api/games/${await board(x).then((d) => d.room)}.pdn`);
  if (served.status() === 200) {
    // The server writes Kaboom's text record itself: the download is that text.
    assert.equal(text, await served.text());
    t.diagnostic('Kaboom text record: the server\'s');
  } else {
    assert.match(text, /Kaboom/);
    assert.match(text, /X: Xena/);
    assert.match(text, /1\. X column 4/);
    assert.match(text, /2\. O bomb in column 3/);
    assert.match(text, /Result: Game not over\./);
  }
  for (const p of [x, o]) assert.deepEqual(p.errors, []);
  await Promise.all([x, o].map((p) => p.context().close()));
});

test('a move made while a late joiner fetches the game record still ends up in its move list', async () => {
  const { fire, water, room } = await openingGame();
  const watcher = await person(browser);
  // The first record the watcher asks for is made now and delivered only after the next move.
  let moved;
  const movedPromise = new Promise((resolve) => { moved = resolve; });
  let held = 0;
  await watcher.route(`**/api/games/${room}`, async (route) => {
    if (held++ > 0) return route.continue();
    const response = await route.fetch();
    await movedPromise;
    return route.fulfill({ response });
  });
  await watcher.goto(`${BASE}/r/${room}`);
  await watcher.locator('#join-dialog[open]').waitFor();
  await watcher.click('#join-watch');
  await waitBoard(watcher, { seat: 'spectator', version: 3 });
  await watcher.waitForFunction(() => window.bombcheckers.app.movesPartial === true);
  await move(water, [1, 5], [2, 4]);
  await waitBoard(watcher, { version: 4 });
  moved();
  await watcher.locator('#move-list li', { hasText: 'c3–d4' }).waitFor();
  await watcher.locator('#move-list li', { hasText: 'b6–c5' }).waitFor();
  assert.equal(await watcher.locator('#move-list li', { hasText: 'Earlier moves not shown' }).count(), 0);
  assert.equal(await watcher.locator('#move-list li button.move').count(), 4);
  assert.ok(held >= 2, 'the record was asked for again');
  for (const p of [fire, water, watcher]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water, watcher].map((p) => p.context().close()));
});

test('a rematch missed while offline is seen as a new game by its number, not by its version', async () => {
  const fire = await person(browser);
  const water = await person(browser);
  await createGame(fire, { variant: 'bomb', name: 'Ross', seat: 'fire' });
  await joinByLink(water, await shareLink(fire), 'Rachel');
  await waitBoard(fire, { status: 'playing', turn: 'fire' });
  await move(fire, [2, 2], [3, 3]);
  await waitBoard(water, { version: 1 });
  await water.click('#resign');
  await water.click('#confirm-yes');
  await waitBoard(fire, { status: 'finished', version: 1 });
  await fire.click('#rematch');
  await water.locator('.overlay-card', { hasText: 'would like a rematch' }).waitFor();
  // Fire goes offline (and stays so); the rematch starts and its first move is played meanwhile.
  await fire.evaluate(() => {
    const { net } = window.bombcheckers;
    net.stopped = true;
    net.ws.close();
  });
  await water.click('#rematch');
  await waitBoard(water, { seat: 'fire', game: '2', version: '0', status: 'playing' });
  await move(water, [0, 2], [1, 3]);
  // Back online at version 1 again, but of game 2.
  await fire.evaluate(() => window.bombcheckers.net.start());
  await waitBoard(fire, { seat: 'water', game: '2', version: '1', status: 'playing', turn: 'water' });
  await fire.locator('#move-list li', { hasText: 'a3–b4' }).waitFor();
  assert.equal(await fire.locator('#move-list li', { hasText: 'c3–d4' }).count(), 0, 'game 1 is not in the list');
  await fire.getByRole('button', { name: 'Replay game 1' }).waitFor();
  for (const p of [fire, water]) assert.deepEqual(p.errors, []);
  await Promise.all([fire, water].map((p) => p.context().close()));
});

test('replay on a phone: stepping scrolls the move list, never the page', async () => {
  const x = await person(browser, { viewport: { width: 390, height: 844 }, dpr: 2, mobile: true });
  const o = await person(browser);
  await createGame(x, { variant: 'kaboom', name: 'Xena', seat: 'x', options: { width: 7, height: 6, connect: 4, bombs: 0 } });
  await joinByLink(o, await shareLink(x), 'Otto');
  await waitBoard(x, { status: 'playing', turn: 'x' });
  // Eighteen drops, x and o in turn up columns 1 to 3: nobody gets four in a row.
  for (let i = 0; i < 18; i++) {
    const page = i % 2 === 0 ? x : o;
    await page.getByRole('button', { name: `Drop a piece in column ${Math.floor(i / 6) + 1}` }).click();
    await waitBoard(x, { version: i + 1 });
  }
  await waitBoard(o, { version: 18 });
  const list = x.locator('#move-list');
  assert.ok(await list.evaluate((el) => el.scrollHeight > el.clientHeight + 100), 'the move list scrolls');

  await x.evaluate(() => window.scrollTo(0, 0));
  await x.keyboard.press('Home');
  await replayAt(x, 0);
  for (let v = 1; v <= 12; v++) {
    await x.locator('#replay-next').click();
    await replayAt(x, v);
    assert.equal(await x.evaluate(() => window.scrollY), 0, `the page stays put at step ${v}`);
    // The current move is in view inside the list.
    const inView = await list.evaluate((el) => {
      const cur = el.querySelector('li.current');
      const l = el.getBoundingClientRect();
      const r = cur.getBoundingClientRect();
      return r.top >= l.top - 1 && r.bottom <= l.bottom + 1;
    });
    assert.ok(inView, `move ${v} is shown in the list`);
  }
  for (const p of [x, o]) assert.deepEqual(p.errors, []);
  await Promise.all([x, o].map((p) => p.context().close()));
});

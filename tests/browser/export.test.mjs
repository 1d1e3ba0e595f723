// Export: the downloads of the Export menu (the game record as JSON, PDN, a Kaboom text record).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, createGame, shareLink, joinByLink, shot, BASE, T } from './helpers.mjs';
import { replayAt, openingGame } from './replay_driver.mjs';
import { browser } from './shared_browser.mjs';

/** The Export menu's entries once the PDN check is done. */
async function openExport(page) {
  await page.locator('#export-menu summary').click();
  await page.locator('#export-list .menu-item').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('#export-list .checking'), null, { timeout: T });
}

test('export: the game record as JSON, the PDN of a checkers game, a Kaboom text record', async (t) => {
  const { fire, water, room } = await openingGame(browser);
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
  assert.equal(
    await pdn.evaluate((el) => el.classList.contains('unavailable')),
    false,
    `the PDN is offered (GET /api/games/${room}.pdn answers)`,
  );
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
    t.diagnostic("Kaboom text record: the server's");
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

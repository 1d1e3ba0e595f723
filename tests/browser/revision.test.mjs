// Games stored by the release before rules revision 2 (tests/persist/fixtures): a second server
// started here on a copy of that database. A restored bomb game that keeps the earlier rules says
// so on the game screen, with its board as its players left it; a new game says nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, person, createGame, waitBoard, shot, T } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const BIN = process.env.BC_BINARY; // run.sh sets it

let browser;
let server;
let work;
let base = '';

before(async () => {
  if (!BIN) return;
  work = mkdtempSync(path.join(os.tmpdir(), 'bc-browser-revision-'));
  mkdirSync(path.join(work, 'data'));
  copyFileSync(
    path.join(repoRoot, 'tests/persist/fixtures/release-171c8ad.sqlite'),
    path.join(work, 'data', 'bombcheckers.db'),
  );
  server = await startServer(['--data-dir', path.join(work, 'data')]);
  base = server.base;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function visitor() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
  context.setDefaultTimeout(T);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

test(
  'a game kept under the earlier rules says so; its board is as its players left it',
  { skip: !BIN && 'BC_BINARY is not set (run through run.sh)' },
  async () => {
    const page = await visitor();
    // The fixture's room where fire's bomb stepped onto row 8 and exploded (revision 1).
    await page.goto(`${base}/r/DZD9XP`);
    await page.locator('#join-watch').click();
    await waitBoard(page, { room: 'DZD9XP', version: 2 });
    const note = page.locator('#rules-note');
    await note.waitFor();
    assert.match(await note.textContent(), /earlier rules.*explodes/);
    const pieces = await page.evaluate(() =>
      window.bombcheckers.app.state.board.pieces.map((p) => `${p.at}:${p.side}:${p.kind}:${p.rank}`).sort(),
    );
    assert.deepEqual(pieces, ['4,0:fire:normal:man', '4,4:water:normal:man', '7,7:water:normal:man']);
    await shot(page, 'revision-1-game');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  },
);

test('a game made today plays the current rules and shows no note', async () => {
  const page = await person(browser ?? (browser = await launch()));
  await createGame(page, { variant: 'bomb', name: 'Cy', seat: 'fire' });
  await waitBoard(page, { variant: 'bomb', status: 'waiting' });
  assert.equal(await page.evaluate(() => window.bombcheckers.app.state.rules), undefined);
  assert.ok(await page.locator('#rules-note').isHidden());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

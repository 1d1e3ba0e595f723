// The analysis board (/analysis): setting up positions by clicking, the position as text both ways,
// the server's values, exploring, the server's refusals, and games started from a position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, T, person, shot, squarePoint, waitBoard, clickSquare } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

const ed = (page) => page.locator('#ed-board').evaluate((el) => ({ ...el.dataset }));

/** Clicks square [x, y] of the analysis board. */
async function edClick(page, sq) {
  // The board's size follows its area through a ResizeObserver, which runs at the next rendering
  // update: a box read before it is stale, so the point is read again until the board itself is on
  // top there (a notice over the board's corner would take a mouse click).
  const until = Date.now() + T;
  for (;;) {
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
    const at = squarePoint(await page.locator('#ed-board').boundingBox(), await ed(page), sq);
    const top = await page.evaluate(({ x, y }) => {
      const el = document.elementFromPoint(x, y);
      return el?.id === 'ed-board' ? '' : (el?.outerHTML.slice(0, 120) ?? 'nothing');
    }, at);
    if (!top) return page.mouse.click(at.x, at.y);
    if (Date.now() > until) throw new Error(`square ${sq} of the analysis board is covered by ${top}`);
    await page.waitForTimeout(50);
  }
}

/** Waits until the analysis board's data-* attributes have these values. */
async function waitEd(page, want) {
  try {
    await page.waitForFunction(
      (w) => {
        const d = document.querySelector('#ed-board')?.dataset;
        return !!d && Object.entries(w).every(([k, v]) => d[k] === String(v));
      },
      want,
      { timeout: T, polling: 50 },
    );
  } catch (e) {
    const got = await ed(page).catch(() => ({}));
    throw new Error(`the analysis board never had ${JSON.stringify(want)}: it has ${JSON.stringify(got)}`, {
      cause: e,
    });
  }
}

async function setOption(page, name, value) {
  const input = page.locator(`#ed-opt-${name}`);
  if (typeof value === 'boolean') await input.setChecked(value);
  else {
    await input.fill(String(value));
    await input.dispatchEvent('change');
  }
}

async function pick(page, tool) {
  await page.locator('#ed-palette').getByRole('radio', { name: tool, exact: true }).click();
}

async function load(page, text) {
  await page.fill('#ed-text', text);
  await page.click('#ed-load');
}

const value = (page) => page.locator('#ed-value');

test('analysis board: a Kaboom position by clicking, its Gamesman string out and in, its values, a turn explored', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.click('#open-analysis');
  await page.locator('#analysis').waitFor();
  assert.equal(new URL(page.url()).pathname, '/analysis');
  await page.locator('#ed-variant option[value=kaboom]').waitFor({ state: 'attached' });
  await page.selectOption('#ed-variant', 'kaboom');
  for (const [k, v] of [
    ['width', 4],
    ['height', 4],
    ['connect', 3],
  ])
    await setOption(page, k, v);
  await waitEd(page, { variant: 'kaboom', cols: 4, rows: 4, position: 'x:::1,1' });

  // Pieces fall to the bottom of the column clicked; a click on a piece of another kind replaces it.
  await pick(page, 'X piece');
  await edClick(page, [0, 3]);
  await edClick(page, [1, 2]);
  await pick(page, 'O piece');
  await edClick(page, [0, 3]);
  await edClick(page, [3, 1]);
  await edClick(page, [1, 0]); // o replaces x on b1 ...
  await pick(page, 'X piece');
  await edClick(page, [1, 0]); // ... and x takes it back
  await waitEd(page, { position: 'x:a1,b1:d1,a2:1,1' });
  assert.equal(await page.inputValue('#ed-text'), '(x 1 1 ---- ---- o--- xx-o)');
  // x wins by dropping in column c.
  await value(page).filter({ hasText: 'X to move: X wins in 1 turn' }).waitFor();
  assert.match(page.url(), /\/analysis\?variant=kaboom&width=4&height=4&connect=3&fen=x:a1,b1:d1,a2:1,1$/);

  // The FEN-like line of the same position, which `bombcheckers analyse --fen` reads.
  await page.selectOption('#ed-format', 'fen');
  assert.equal(await page.inputValue('#ed-text'), 'x:a1,b1:d1,a2:1,1');
  await page.selectOption('#ed-format', 'gamesman');

  // Another Gamesman string: its rows set the board's size.
  await load(page, '(o 0 1 ----- ----- -x--- oo*x-)');
  await waitEd(page, { cols: 5, rows: 4, position: 'o:Bc1,d1,b2:a1,b1:0,1' });
  assert.equal(await page.inputValue('#ed-opt-width'), '5');
  assert.equal(await page.inputValue('#ed-opt-height'), '4');
  assert.equal(await page.inputValue('#ed-text'), '(o 0 1 ----- ----- -x--- oo*x-)');
  assert.equal(await page.inputValue('#ed-bombs-o'), '1');
  await value(page).filter({ hasText: 'O to move' }).waitFor();
  await shot(page, 'editor-kaboom-loaded');
  // En dashes are empty cells too; the text comes back with hyphens.
  await load(page, '(x 1 1 –––– –––– o––– xx–o)');
  await waitEd(page, { cols: 4, rows: 4, position: 'x:a1,b1:d1,a2:1,1' });
  assert.equal(await page.inputValue('#ed-text'), '(x 1 1 ---- ---- o--- xx-o)');
  await load(page, '(x 1 1 ---- --#-)');
  await page.locator('#ed-message', { hasText: "'#' is not a cell" }).waitFor();
  await waitEd(page, { position: 'x:a1,b1:d1,a2:1,1' });

  // Exploring: every turn with its value; the winning drop, then back.
  await page.click('#ed-explore');
  await waitEd(page, { mode: 'explore', analysed: 'true', ply: 0 });
  const win = page.locator('#ed-turns button[data-turn="↓3"]');
  await win.filter({ hasText: 'X wins in 1 turn' }).waitFor();
  // Every drop and bomb drop, best first (x wins whatever it does, sooner or later).
  const turns = await page.locator('#ed-turns button').evaluateAll((bs) => bs.map((b) => b.dataset.turn));
  assert.deepEqual(turns.slice(0, 2).sort(), ['bomb ↓3', '↓3']);
  assert.deepEqual([...turns].sort(), ['bomb ↓1', 'bomb ↓2', 'bomb ↓3', 'bomb ↓4', '↓1', '↓2', '↓3', '↓4']);
  await page.locator('#ed-turns button[data-turn="↓1"]', { hasText: 'X wins in 7 turns' }).waitFor();
  await shot(page, 'editor-kaboom-explore');
  await edClick(page, [2, 3]); // column c
  await waitEd(page, { ply: 1, position: 'o:a1,b1,c1:d1,a2:1,1' });
  await value(page).filter({ hasText: 'X has won' }).waitFor();
  await page.keyboard.press('ArrowLeft');
  await waitEd(page, { ply: 0, position: 'x:a1,b1:d1,a2:1,1', analysed: 'true' });
  // From the list: a bomb in column d; o answers with a drop in column c.
  await page.click('#ed-turns button[data-turn="bomb ↓4"]');
  await waitEd(page, { ply: 1, position: 'o:a1,b1,Bd2:d1,a2:0,1', analysed: 'true' });
  await value(page).filter({ hasText: 'O to move' }).waitFor();
  await edClick(page, [2, 3]);
  await waitEd(page, { ply: 2, position: 'x:a1,b1,Bd2:c1,d1,a2:0,1', analysed: 'true' });
  // x's bomb goes off: it takes d1 and c2's neighbours... the server's turn list says which.
  await page.locator('#ed-turns button[data-turn="detonate d2"]').waitFor();
  await edClick(page, [3, 1]);
  await waitEd(page, { ply: 3, analysed: 'true' });
  assert.equal((await ed(page)).position, 'o:a1,b1:c1,a2:0,1');
  assert.equal(await page.locator('#ed-history li').count(), 4);
  await page.click('#ed-back');
  await waitEd(page, { ply: 2 });
  await page.click('#ed-forward');
  await waitEd(page, { ply: 3 });
  await page.click('#ed-edit');
  await waitEd(page, { mode: 'setup', position: 'o:a1,b1:c1,a2:0,1' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('analysis board: a checkers position by clicking, its FEN-like line out and in, a game against the computer from it', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/analysis`);
  await page.locator('#ed-variant option[value=bomb]').waitFor({ state: 'attached' });
  await page.selectOption('#ed-variant', 'bomb');
  await page.click('#ed-clear');
  await waitEd(page, { variant: 'bomb', position: 'fire::' });
  await page.locator('#ed-message', { hasText: 'The game is over in this position' }).waitFor();
  await pick(page, 'Fire king');
  await edClick(page, [2, 2]);
  await pick(page, 'Fire shield man');
  await edClick(page, [4, 2]);
  await pick(page, 'Water man');
  await edClick(page, [1, 5]);
  await pick(page, 'Water bomb man');
  await edClick(page, [5, 5]);
  await pick(page, 'Water shield king');
  await edClick(page, [6, 6]);
  await page.locator('#ed-turn label', { hasText: 'Water' }).click();
  await waitEd(page, { position: 'water:Kc3,Se3:b6,Bf6,KSg7' });
  assert.equal(await page.inputValue('#ed-text'), 'water:Kc3,Se3:b6,Bf6,KSg7');
  await pick(page, 'Eraser');
  await edClick(page, [6, 6]);
  await waitEd(page, { position: 'water:Kc3,Se3:b6,Bf6' });
  await edClick(page, [1, 2]); // a light square
  await page.locator('#ed-message', { hasText: 'Pieces stand on the dark squares' }).waitFor();
  await value(page).filter({ hasText: 'Water to move' }).waitFor();
  await shot(page, 'editor-bomb-setup');

  // Loaded as typed, written back in the server's order; loaded again, the same.
  await load(page, 'fire:e5,KSc3,Bd4:Kh8,b6');
  await waitEd(page, { position: 'fire:KSc3,Bd4,e5:b6,Kh8' });
  assert.equal(await page.inputValue('#ed-text'), 'fire:KSc3,Bd4,e5:b6,Kh8');
  await load(page, await page.inputValue('#ed-text'));
  await waitEd(page, { position: 'fire:KSc3,Bd4,e5:b6,Kh8' });
  // A line with another variant's sides switches the variant.
  await load(page, 'white:Ka1,c3:b6,Kh8');
  await waitEd(page, { variant: 'classic', position: 'white:Ka1,c3:b6,Kh8' });
  assert.equal(await page.inputValue('#ed-variant'), 'classic');
  // Triple kings.
  await page.selectOption('#ed-variant', 'triple_king');
  await page.click('#ed-clear');
  // The check's word on the empty board comes a moment later, under the board: the board stays put
  // (it used to shrink then, and a click aimed at a1 landed on a2).
  const before = await page.locator('#ed-board').boundingBox();
  await page.locator('#ed-message', { hasText: 'no piece is left' }).waitFor();
  assert.deepEqual(await page.locator('#ed-board').boundingBox(), before, 'the board did not move');
  await pick(page, 'Black triple king');
  await edClick(page, [0, 0]);
  await pick(page, 'White king');
  await edClick(page, [7, 7]);
  await waitEd(page, { variant: 'triple_king', position: 'black:Ta1:Kh8' });
  await value(page).filter({ hasText: 'Black to move' }).waitFor();

  // Exploring checkers: a piece, then each square of its hops; a capture that may go on or stop.
  await page.selectOption('#ed-variant', 'bomb');
  await load(page, 'fire:c3:d4,f6,h8');
  await waitEd(page, { variant: 'bomb', position: 'fire:c3:d4,f6,h8' });
  await page.click('#ed-explore');
  await waitEd(page, { mode: 'explore', analysed: 'true', ply: 0 });
  await edClick(page, [2, 2]);
  await waitEd(page, { selected: '2,2' });
  await page.locator('#ed-turns button[data-turn="c3×e5×g7"]').waitFor();
  await edClick(page, [4, 4]);
  await page.getByRole('button', { name: 'End the turn here' }).waitFor();
  await shot(page, 'editor-bomb-explore');
  await edClick(page, [6, 6]);
  await waitEd(page, { ply: 1, position: 'water:g7:h8', analysed: 'true' });
  await value(page).filter({ hasText: 'Water to move' }).waitFor();
  await page.keyboard.press('ArrowLeft');
  await waitEd(page, { ply: 0, analysed: 'true' });
  await edClick(page, [2, 2]);
  await edClick(page, [4, 4]);
  await page.getByRole('button', { name: 'End the turn here' }).click();
  await waitEd(page, { ply: 1, position: 'water:e5:f6,h8', analysed: 'true' });
  assert.equal(await page.locator('#ed-history li').count(), 2);
  await page.click('#ed-edit');
  await waitEd(page, { mode: 'setup', position: 'water:e5:f6,h8' });

  // A deep link opens a position; from it, a game against the computer.
  await page.goto(`${BASE}/analysis?variant=bomb&draw_turns=40&fen=fire:Kc3,Se3:b6,Bf6`);
  await waitEd(page, { variant: 'bomb', position: 'fire:Kc3,Se3:b6,Bf6' });
  assert.equal(await page.inputValue('#ed-opt-draw_turns'), '40');
  await page.locator('#ed-seat label', { hasText: 'Fire' }).click();
  await page.selectOption('#ed-opponent', 'ai:1');
  await page.click('#ed-play');
  await waitBoard(page, { status: 'playing', variant: 'bomb', seat: 'fire', turn: 'fire' });
  assert.match(new URL(page.url()).pathname, /^\/r\/[A-Z0-9]+$/);
  const state = await page.evaluate(() => window.bombcheckers.app.state);
  assert.deepEqual(state.board.pieces, [
    { at: [2, 2], side: 'fire', kind: 'normal', rank: 'king' },
    { at: [4, 2], side: 'fire', kind: 'shield', rank: 'man' },
    { at: [1, 5], side: 'water', kind: 'normal', rank: 'man' },
    { at: [5, 5], side: 'water', kind: 'bomb', rank: 'man' },
  ]);
  assert.equal(state.options.draw_turns, 40);
  assert.equal(state.players.water.ai, 1);
  await shot(page, 'editor-bomb-game');
  // Back returns to the board with the position.
  await page.goBack();
  await waitEd(page, { position: 'fire:Kc3,Se3:b6,Bf6' });
  assert.equal(await page.locator('#analysis').isVisible(), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("analysis board: a refused position shows the server's reason", async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/analysis?variant=bomb&fen=fire:Kc3:b6`);
  await waitEd(page, { position: 'fire:Kc3:b6' });
  await value(page).filter({ hasText: 'Fire to move' }).waitFor();
  await pick(page, 'Fire man');
  await edClick(page, [1, 7]); // b8: a man on its far row
  await waitEd(page, { position: 'fire:Kc3,b8:b6' });
  const reason = 'the man on [1,7] stands on its far row and would have been crowned';
  await page.locator('#ed-message', { hasText: `The server refuses this position: ${reason}` }).waitFor();
  await waitEd(page, { valid: 'false' });
  await shot(page, 'editor-refused');
  // Play from here is refused with the same words.
  await page.click('#ed-play');
  await page.locator('.toast', { hasText: reason }).waitFor();
  assert.equal(await page.locator('#analysis').isVisible(), true);
  // A Kaboom piece over an empty cell, loaded as text.
  await page.goto(`${BASE}/analysis?variant=kaboom&width=4&height=4&fen=x:a2:b1:1,1`);
  await waitEd(page, { position: 'x:a2:b1:1,1' });
  await page.locator('#ed-message', { hasText: 'floats above an empty square' }).waitFor();
  await waitEd(page, { valid: 'false' });
  // A piece put in that column falls into the gap, and the position is good again.
  await pick(page, 'X piece');
  await edClick(page, [0, 3]);
  await waitEd(page, { position: 'x:a1,a2:b1:1,1', valid: 'true' });
  assert.equal(await page.locator('#ed-message').isHidden(), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a finished game: Analyse this position opens the board on its last position', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/analysis?variant=kaboom&width=4&height=4&connect=3&fen=x:a1,b1:d1,a2:1,1`);
  await waitEd(page, { position: 'x:a1,b1:d1,a2:1,1' });
  await page.locator('#ed-seat label', { hasText: 'X' }).click();
  await page.selectOption('#ed-opponent', 'ai:1');
  await page.click('#ed-play');
  await waitBoard(page, { status: 'playing', variant: 'kaboom', seat: 'x', turn: 'x' });
  assert.equal(await page.locator('#analyse-position').isVisible(), false);
  await clickSquare(page, [2, 3]);
  await waitBoard(page, { status: 'finished' });
  const link = page.locator('#analyse-position');
  await link.waitFor();
  assert.match(
    await link.getAttribute('href'),
    /^\/analysis\?variant=kaboom&width=4&height=4&connect=3&fen=o:a1,b1,c1:d1,a2:1,1$/,
  );
  await link.click();
  await waitEd(page, { variant: 'kaboom', cols: 4, position: 'o:a1,b1,c1:d1,a2:1,1' });
  await page.locator('#ed-message', { hasText: 'The game is over in this position' }).waitFor();
  assert.equal(await page.inputValue('#ed-text'), '(o 1 1 ---- ---- o--- xxxo)');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

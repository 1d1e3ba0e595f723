// The originals' notations as a display choice (web/notation.js, notation_view.js): triple-king
// checkers in (row, column) (docs/RULES.md T8) and Kaboom in Gamesman's, on the board's edges, in
// the move list, the replay bar and the exports, kept per variant in the browser. The options of a
// game in words: options_text.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  person,
  board,
  waitBoard,
  clickSquare,
  move,
  createGame,
  shareLink,
  joinByLink,
  shot,
  BASE,
  T,
} from './helpers.mjs';
import { browser } from './shared_browser.mjs';

const edges = async (page) => {
  const d = await board(page);
  return { notation: d.notation, cols: d.edgeCols, rows: d.edgeRows };
};
const seq = (from, to) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => String(from + Math.sign(to - from) * i)).join(',');
const moveTexts = (page) => page.locator('#move-list li .mv').allTextContents();

/** The Export menu open, its PDN check done. */
async function openExport(page) {
  await page.locator('#export-menu summary').click();
  await page.locator('#export-list .menu-item').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('#export-list .checking'), null, { timeout: T });
}

/** Clicks an entry of the Export menu and returns the file's name and text. */
async function download(page, id) {
  await openExport(page);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(id)]);
  const chunks = [];
  for await (const c of await dl.createReadStream()) chunks.push(c);
  return { name: dl.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}

test('triple-king checkers in (row, column): edges, move list, replay, export, kept after a reload', async () => {
  const black = await person(browser);
  const white = await person(browser);
  const room = await createGame(black, { variant: 'triple_king', name: 'Ann', seat: 'black' });
  await joinByLink(white, await shareLink(black), 'Bob');
  await waitBoard(black, { status: 'playing', turn: 'black' });
  await waitBoard(white, { status: 'playing', flipped: 'true' });

  // The choice is offered, a1-h8 first; the edges say so.
  const select = black.getByRole('combobox', { name: 'Notation' });
  assert.equal(await select.isVisible(), true);
  assert.equal(await select.inputValue(), 'algebraic');
  assert.deepEqual(await select.locator('option').allTextContents(), ['a1–h8', '(row, column)']);
  assert.deepEqual(await edges(black), { notation: 'algebraic', cols: 'a,b,c,d,e,f,g,h', rows: seq(8, 1) });

  await select.selectOption('rowcol');
  // Row 0 is the top row, column 0 the left one: for Black's view (not flipped) both count up.
  assert.deepEqual(await edges(black), { notation: 'rowcol', cols: seq(0, 7), rows: seq(0, 7) });
  assert.match(
    await black.locator('#board-edges').textContent(),
    /Columns 0 to 7 from the left, rows 0 to 7 from the top/,
  );
  // White sees the board turned: the same names, from the other side.
  await white.getByRole('combobox', { name: 'Notation' }).selectOption('rowcol');
  assert.deepEqual(await edges(white), { notation: 'rowcol', cols: seq(7, 0), rows: seq(7, 0) });

  // c3-d4 is [2,2] -> [3,3]: (7-2, 2) -> (7-3, 3).
  await move(black, [2, 2], [3, 3]);
  await waitBoard(white, { version: 1, turn: 'white' });
  await move(white, [5, 5], [4, 4]);
  await waitBoard(black, { version: 2, turn: 'black' });
  await move(black, [3, 3], [5, 5]);
  await waitBoard(white, { version: 3 });
  const want = ['(5,2)–(4,3)', '(2,5)–(3,4)', '(4,3)×(2,5)'];
  await black.locator('#move-list li', { hasText: want[2] }).waitFor();
  assert.deepEqual(await moveTexts(black), want);
  assert.deepEqual(await moveTexts(white), want, 'the other player picked it too');
  await shot(black, 'notation-rowcol');

  // The replay bar names a turn the same way.
  await black.locator('#move-list li', { hasText: want[0] }).getByRole('button').click();
  await waitBoard(black, { replayVersion: '1' });
  await black.locator('#replay-move', { hasText: `Black ${want[0]}` }).waitFor();
  await black.keyboard.press('Escape');
  await waitBoard(black, { replayVersion: '' });

  // The export: a plain-text move list in (row, column).
  const moves = await download(black, '#export-moves');
  assert.match(moves.name, new RegExp(`${room}.*-moves\\.txt$`));
  const lines = moves.text.split('\n');
  assert.equal(lines[0], `Triple-King Checkers, room ${room}, game 1`);
  assert.ok(lines.includes('Black: Ann') && lines.includes('White: Bob'), moves.text);
  assert.ok(
    lines.some((l) => l.startsWith('Notation: (row, column).')),
    moves.text,
  );
  assert.ok(!lines.some((l) => l.startsWith('Options:')), 'default options: no words');
  assert.deepEqual(lines.slice(-4), [`1. Black ${want[0]}`, `2. White ${want[1]}`, `3. Black ${want[2]}`, '']);

  // Kept in this browser, for this variant: after a reload (the seat comes back) it is still on.
  await black.reload();
  await waitBoard(black, { room, seat: 'black', version: 3 });
  await black.locator('#move-list li', { hasText: want[2] }).waitFor();
  assert.deepEqual(await moveTexts(black), want);
  assert.equal(await black.getByRole('combobox', { name: 'Notation' }).inputValue(), 'rowcol');
  assert.deepEqual(await edges(black), { notation: 'rowcol', cols: seq(0, 7), rows: seq(0, 7) });
  assert.equal(await black.evaluate(() => localStorage.getItem('bc.notation.triple_king')), 'rowcol');
  assert.equal(await black.evaluate(() => localStorage.getItem('bc.notation.kaboom')), null, 'one choice a variant');

  // And back to a1-h8; a flip turns the edges.
  await black.getByRole('combobox', { name: 'Notation' }).selectOption('algebraic');
  assert.deepEqual(await moveTexts(black), ['c3–d4', 'f6–e5', 'd4×f6']);
  assert.deepEqual(await edges(black), { notation: 'algebraic', cols: 'a,b,c,d,e,f,g,h', rows: seq(8, 1) });
  await black.getByRole('combobox', { name: 'Notation' }).selectOption('rowcol');
  await black.click('#flip');
  assert.deepEqual(await edges(black), { notation: 'rowcol', cols: seq(7, 0), rows: seq(7, 0) });
  await black.click('#flip');
  for (const p of [black, white]) assert.deepEqual(p.errors, []);
  await Promise.all([black, white].map((p) => p.context().close()));
});

/**
 * Kaboom as the rules give it, for the expected Gamesman strings: drops fall to the lowest empty
 * cell; a detonation (no chains here) clears the bomb and its four neighbours, then the columns
 * close up. Cells are [side, bomb?]; `grid[x]` is column x from the bottom.
 */
function kaboomModel(width, height, bombs) {
  const grid = Array.from({ length: width }, () => []);
  const left = { x: bombs, o: bombs };
  let turn = 'x';
  const other = () => (turn === 'x' ? 'o' : 'x');
  return {
    drop(col, bomb = false) {
      grid[col].push([turn, bomb]);
      if (bomb) left[turn] -= 1;
      turn = other();
    },
    detonate([x, y]) {
      const gone = new Set(
        [
          [x, y],
          [x - 1, y],
          [x + 1, y],
          [x, y - 1],
          [x, y + 1],
        ].map((s) => s.join(',')),
      );
      for (let c = 0; c < width; c++) grid[c] = grid[c].filter((_, r) => !gone.has(`${c},${r}`));
      turn = other();
    },
    gamesman() {
      const rows = [];
      for (let y = height - 1; y >= 0; y--) {
        rows.push(
          grid
            .map((col) => {
              const cell = col[y];
              if (!cell) return '-';
              if (cell[1]) return cell[0] === 'x' ? '*' : '@';
              return cell[0];
            })
            .join(''),
        );
      }
      return `(${turn} ${left.x} ${left.o} ${rows.join(' ')})`;
    },
  };
}

test('Kaboom in Gamesman: the position under the board, edges, move list, exports, kept per browser', async () => {
  const x = await person(browser);
  const o = await person(browser);
  const room = await createGame(x, { variant: 'kaboom', name: 'Xena', seat: 'x' });
  await joinByLink(o, await shareLink(x), 'Otto');
  await waitBoard(x, { status: 'playing', turn: 'x' });

  // Today's notation first: no edge labels, no position line.
  const select = x.getByRole('combobox', { name: 'Notation' });
  assert.equal(await select.inputValue(), 'standard');
  assert.deepEqual(await edges(x), { notation: 'standard', cols: '', rows: '' });
  assert.equal(await x.locator('#position-line').isVisible(), false);

  await select.selectOption('gamesman');
  const model = kaboomModel(7, 6, 1);
  const shown = () => x.locator('#position-text').textContent();
  assert.equal(await shown(), model.gamesman());
  assert.equal(await shown(), '(x 1 1 ------- ------- ------- ------- ------- -------)');
  // Gamesman numbers columns from 1; rows count from 1 at the top, as the string writes them.
  assert.deepEqual(await edges(x), { notation: 'gamesman', cols: seq(1, 7), rows: seq(1, 6) });

  const after = [];
  let version = 0;
  const play = async (page, name, apply) => {
    await waitBoard(page, { version, turn: page === x ? 'x' : 'o' });
    await page.getByRole('button', { name }).click();
    version += 1;
    await Promise.all([waitBoard(x, { version }), waitBoard(o, { version })]);
    apply();
    after.push(model.gamesman());
  };
  await play(x, 'Drop a piece in column 4', () => model.drop(3));
  await play(o, 'Drop a piece in column 4', () => model.drop(3));
  await play(x, 'Drop a bomb in column 3', () => model.drop(2, true));
  await play(o, 'Drop a piece in column 1', () => model.drop(0));
  await x.locator('#position-text', { hasText: after[3] }).waitFor();
  assert.equal(after[2], '(o 0 1 ------- ------- ------- ------- ---o--- --*x---)');
  // x sets its bomb off: it takes x's own piece beside it, and o's piece above that falls.
  await waitBoard(x, { version: 4, turn: 'x' });
  await clickSquare(x, [2, 0]);
  await waitBoard(x, { version: 5 });
  model.detonate([2, 0]);
  after.push(model.gamesman());
  assert.equal(after[4], '(o 0 1 ------- ------- ------- ------- ------- o--o---)');
  await x.locator('#position-text', { hasText: after[4] }).waitFor();

  // The move list: each turn in Gamesman, the position after it on a second line.
  const turns = ['4', '4', '3*', '1', 'detonate col 3 row 6'];
  assert.deepEqual(await moveTexts(x), turns);
  assert.deepEqual(await x.locator('#move-list li .pos-after').allTextContents(), after);
  await shot(x, 'notation-gamesman');
  // A replay shows the position it is at.
  await x.locator('#move-list li', { hasText: '3*' }).getByRole('button').click();
  await waitBoard(x, { replayVersion: '3' });
  assert.equal(await shown(), after[2]);
  await x.locator('#replay-move', { hasText: 'X 3*' }).waitFor();
  await x.keyboard.press('Escape');
  await waitBoard(x, { replayVersion: '' });

  // The exports: the positions from the start, and the move list.
  const start = '(x 1 1 ------- ------- ------- ------- ------- -------)';
  const positions = await download(x, '#export-gamesman');
  assert.match(positions.name, new RegExp(`${room}.*-gamesman\\.txt$`));
  assert.equal(positions.text, `${[start, ...after].join('\n')}\n`);
  const moves = await download(x, '#export-moves');
  assert.deepEqual(moves.text.split('\n').slice(-6), [
    ...turns.map((t, i) => `${i + 1}. ${i % 2 ? 'O' : 'X'} ${t}`),
    '',
  ]);

  // The other player still sees today's notation; this browser keeps Gamesman after a reload.
  assert.deepEqual(await o.locator('#move-list li .mv').allTextContents(), [
    '↓4',
    '↓4',
    'bomb ↓3',
    '↓1',
    'detonate c1',
  ]);
  assert.equal(await o.locator('#position-line').isVisible(), false);
  await x.reload();
  await waitBoard(x, { room, seat: 'x', version: 5 });
  await x.locator('#position-text', { hasText: after[4] }).waitFor();
  assert.equal(await x.getByRole('combobox', { name: 'Notation' }).inputValue(), 'gamesman');
  await x.locator('#move-list li .pos-after', { hasText: after[0] }).waitFor();
  assert.deepEqual(await moveTexts(x), turns);
  assert.equal(await x.evaluate(() => localStorage.getItem('bc.notation.kaboom')), 'gamesman');
  await x.getByRole('combobox', { name: 'Notation' }).selectOption('standard');
  assert.equal(await x.locator('#position-line').isVisible(), false);
  assert.equal(await x.locator('#move-list li .pos-after').count(), 0);
  for (const p of [x, o]) assert.deepEqual(p.errors, []);
  await Promise.all([x, o].map((p) => p.context().close()));
});

test('bomb and classic checkers offer no notation choice', async () => {
  const page = await person(browser);
  // A choice kept for another variant changes nothing here.
  await page.goto(`${BASE}/`);
  await page.evaluate(() => localStorage.setItem('bc.notation.triple_king', 'rowcol'));
  for (const variant of ['bomb', 'classic']) {
    await createGame(page, { variant, name: 'Ann', seat: variant === 'bomb' ? 'fire' : 'black' });
    await waitBoard(page, { variant, status: 'waiting' });
    assert.equal(await page.locator('#notation').isHidden(), true, variant);
    assert.deepEqual(await edges(page), { notation: 'algebraic', cols: 'a,b,c,d,e,f,g,h', rows: seq(8, 1) }, variant);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

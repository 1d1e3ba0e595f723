// Playing without a pointer (web/keyboard.js, web/announce.js): a whole Kaboom game at one screen by
// the keyboard alone (the board's focus square with arrows and Enter, moves typed in the box, a bomb
// set off), and checkers moves typed in PDN and in a1-h8 and made with the arrows; each turn is
// read from the live region (#announcer), as a screen reader hears it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, person, waitBoard, shot } from './helpers.mjs';
import { createOneScreen, stateOf } from './one_screen_driver.mjs';
import { browser } from './shared_browser.mjs';

/** Every text the live region has said since the page loaded. */
async function heard(page) {
  return page.evaluate(() => window.heard ?? []);
}

/** Records the live region's words from now on (window.heard). */
async function listen(page) {
  await page.evaluate(() => {
    window.heard = [];
    const region = document.querySelector('#announcer');
    new MutationObserver(() => {
      if (region.textContent) window.heard.push(region.textContent);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
}

/** Waits until the live region has said something matching `re`; returns it. */
async function hear(page, re) {
  await page
    .waitForFunction((src) => (window.heard ?? []).some((t) => new RegExp(src).test(t)), re.source, { polling: 50 })
    .catch(async (e) => assert.fail(`not heard: ${re}; heard: ${JSON.stringify(await heard(page))} (${e.message})`));
  return (await heard(page)).find((t) => re.test(t));
}

/** Reaches the board by the keyboard (a key pressed first, so its focus is a keyboard's). */
async function focusBoard(page) {
  await page.keyboard.press('Escape');
  await page.locator('#board').focus();
}

/** Types `text` in the move box (reached with M) and plays it with Enter; waits for the next version. */
async function typeMove(page, text) {
  const v = (await stateOf(page)).version;
  await focusBoard(page);
  await page.keyboard.press('m');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'move-input');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await waitBoard(page, { version: v + 1 });
}

/** Walks the board's focus square to `sq` with the arrow keys (the board not turned) and presses Enter. */
async function arrowTo(page, [x, y]) {
  const at = (await page.locator('#board').getAttribute('data-cursor')).split(',').map(Number);
  for (let i = at[0]; i < x; i++) await page.keyboard.press('ArrowRight');
  for (let i = at[0]; i > x; i--) await page.keyboard.press('ArrowLeft');
  for (let j = at[1]; j < y; j++) await page.keyboard.press('ArrowUp');
  for (let j = at[1]; j > y; j--) await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('#board').getAttribute('data-cursor'), `${x},${y}`);
  await page.keyboard.press('Enter');
}

test('keyboard: a whole Kaboom game at one screen, every turn announced', { timeout: 60000 }, async () => {
  const page = await person(browser);
  await createOneScreen(page, { variant: 'kaboom', names: ['Xena', 'Otto'] });
  await listen(page);
  // x: the focus square (Tab reaches the board), right to column 2 and Enter.
  await focusBoard(page);
  await arrowTo(page, [1, 5]);
  await waitBoard(page, { version: 1 });
  assert.match(await hear(page, /^X: drops in column 2\./), /O to move\./);
  await typeMove(page, '3'); // o
  await hear(page, /^O: drops in column 3\./);
  await typeMove(page, '4 bomb'); // x
  await hear(page, /^X: drops a bomb in column 4\./);
  await typeMove(page, '3'); // o: c2
  await typeMove(page, 'detonate d1'); // x: d1 goes off, with c1 and c2 beside it
  const boom = await hear(page, /sets off the bomb on d1/);
  assert.match(boom, /the bomb explodes, \d+ pieces removed/);
  // C reads the clocks (none here), B shows the board as text.
  await focusBoard(page);
  await page.keyboard.press('c');
  await hear(page, /This game has no clock\./);
  await page.keyboard.press('b');
  await page.locator('#board-text table').waitFor();
  assert.match(await page.locator('#board-text').textContent(), /b1X disc/);
  for (const [o, x] of [
    ['7', '2'],
    ['7', '2'],
    ['7', '2'],
  ]) {
    await typeMove(page, o);
    await typeMove(page, x);
  }
  await waitBoard(page, { status: 'finished' });
  assert.match(await hear(page, /Game over/), /X wins with 4 in a row/);
  await shot(page, 'keyboard-kaboom');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('keyboard: checkers moves typed as 11-15 and c3-d4, and made with the arrows', { timeout: 60000 }, async () => {
  const page = await person(browser);
  await createOneScreen(page, { variant: 'classic', names: ['Ann', 'Bob'] });
  await listen(page);
  // The move box's completions are the legal moves, in a1-h8 with their PDN numbers.
  const options = await page.$$eval('#move-options option', (os) => os.map((o) => `${o.value} ${o.label}`));
  assert.ok(options.includes('c3-d4 11-15'), JSON.stringify(options));
  await typeMove(page, '11-15');
  assert.match(await hear(page, /^Black: c3 to d4\./), /White to move\./);
  // White with the arrows: the focus square starts on a piece that can move; Enter picks it up,
  // the arrows take it to its square, Enter puts it down.
  const s = await stateOf(page);
  const step = s.legal.find((a) => a.kind === 'step');
  await focusBoard(page);
  await arrowTo(page, step.from);
  await hear(page, /picked up/);
  await arrowTo(page, step.to);
  await waitBoard(page, { version: 2 });
  await hear(page, /^White: .* to .*\. Black to move\./);
  // A prefix that fits one move only is completed; one that fits several is read out.
  await focusBoard(page);
  await page.keyboard.press('m');
  await page.keyboard.type('g3');
  await page.keyboard.press('Enter');
  await hear(page, /“g3” could be: g3-f4, g3-h4/);
  await page.locator('#move-input').fill('');
  await typeMove(page, 'e3-f4');
  await hear(page, /^Black: e3 to f4\./);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('keyboard: the analysis board takes a piece put by Enter on its focus square', { timeout: 30000 }, async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/analysis`);
  await page.locator('#ed-board').waitFor();
  await page.locator('#ed-text').waitFor();
  await listen(page);
  const before = await page.inputValue('#ed-text');
  await page.keyboard.press('Escape');
  await page.locator('#ed-board').focus();
  assert.equal(await page.locator('#ed-board').getAttribute('data-cursor'), '4,4', 'the middle of the board');
  await page.keyboard.press('ArrowUp');
  await hear(page, /^e6: empty$/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction((b) => document.querySelector('#ed-text').value !== b, before);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await hear(page, /^e5: Fire/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

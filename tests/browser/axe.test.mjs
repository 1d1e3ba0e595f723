// Accessibility (issue 36): axe-core (npm) run in the page over every screen in one session (the
// start screen with its account menu, a game in progress with the board as text, its replay, the
// confirm and join dialogs, the analysis board, the puzzles' list and a puzzle, the leaderboard),
// with no serious or critical finding; then the main screens in English, German and Spanish,
// screenshot into $SCREENSHOT_DIR, with nothing of the top bar or the controls overflowing its box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { BASE, person, waitBoard, shot } from './helpers.mjs';
import { createOneScreen } from './one_screen_driver.mjs';
import { browser } from './shared_browser.mjs';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe's serious and critical findings on the page as it is now, as short lines. */
async function axeRun(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/**
 * The findings of a screen that stay: a finding is checked again half a second later, so that a
 * toast or a card caught mid-appearance (its colours half blended) is not taken for the screen's.
 * Those seen only once are logged.
 */
async function serious(page, where) {
  let found = await axeRun(page);
  if (found.length) {
    await page.waitForTimeout(500);
    const again = await axeRun(page);
    for (const f of found) if (!again.includes(f)) console.log(`# ${where}: seen once, not again: ${f}`);
    found = again;
  }
  return found.map((f) => `${where}: ${f}`);
}

test('axe: no serious or critical finding on any screen', { timeout: 90000 }, async () => {
  const page = await person(browser);
  const found = [];
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  found.push(...(await serious(page, 'start')));
  if (await page.locator('#account').isVisible()) {
    await page.click('#account-summary');
    await page.locator('#account-menu[open]').waitFor();
    found.push(...(await serious(page, 'account menu')));
    await page.keyboard.press('Escape');
  }
  const room = await createOneScreen(page, { variant: 'bomb', names: ['Ann', 'Bob'] });
  await page.locator('#board').focus();
  await page.keyboard.press('m');
  await page.keyboard.type('11-15');
  await page.keyboard.press('Enter');
  await waitBoard(page, { version: 1 });
  await page.locator('#board').focus();
  await page.keyboard.press('b');
  await page.locator('#board-text table').waitFor();
  found.push(...(await serious(page, 'game')));
  await page.keyboard.press('Home');
  await waitBoard(page, { replayVersion: '0' });
  found.push(...(await serious(page, 'replay')));
  await page.keyboard.press('Escape');
  await page.click('#resign');
  await page.locator('#confirm[open]').waitFor();
  found.push(...(await serious(page, 'confirm dialog')));
  await page.click('#confirm-no');
  // Someone else opens the game's link: the join dialog.
  const eve = await person(browser);
  await eve.goto(`${BASE}/r/${room}`);
  await eve.locator('#join-dialog[open]').waitFor();
  found.push(...(await serious(eve, 'join dialog')));
  await eve.context().close();
  await page.goto(`${BASE}/analysis`);
  await page.locator('#ed-board').waitFor();
  found.push(...(await serious(page, 'analysis board')));
  await page.goto(`${BASE}/puzzles`);
  await page.locator('.pz-item').first().waitFor();
  found.push(...(await serious(page, 'puzzles')));
  await page.locator('.pz-item').first().click();
  await page.locator('#pz-board').waitFor();
  found.push(...(await serious(page, 'a puzzle')));
  await page.goto(`${BASE}/leaderboard`);
  await page.locator('#leaderboard:not([hidden])').waitFor();
  found.push(...(await serious(page, 'leaderboard')));
  assert.deepEqual(found, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The elements of the top bar and of the controls whose words overflow their box. */
const overflowing = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.topbar *, .btn, .controls *, label, legend, h1, h2, h3')]
      .filter((el) => !el.closest('.sr-only'))
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
      .filter((el) => getComputedStyle(el).overflowX !== 'visible' || el.matches('.btn, .topbar *'))
      .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${el.textContent.trim().slice(0, 40)}`),
  );

test('English, German and Spanish: the main screens, nothing overflowing', { timeout: 90000 }, async () => {
  for (const lang of ['en', 'de', 'es']) {
    const page = await person(browser);
    await page.context().addInitScript((l) => localStorage.setItem('bc.lang', l), lang);
    await page.goto(`${BASE}/`);
    await page.locator('#create-btn:not([disabled])').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await page.inputValue('#lang'), lang);
    const words = { en: 'New game', de: 'Neue Partie', es: 'Partida nueva' }[lang];
    assert.equal((await page.locator('#create-form h2').textContent()).trim(), words);
    await shot(page, `lang-${lang}-start`);
    const where = [`start: ${await overflowing(page)}`];
    await createOneScreen(page, { variant: 'bomb', names: ['Ann', 'Bob'] });
    await shot(page, `lang-${lang}-game`);
    where.push(`game: ${await overflowing(page)}`);
    await page.goto(`${BASE}/analysis`);
    await page.locator('#ed-board').waitFor();
    await shot(page, `lang-${lang}-analysis`);
    where.push(`analysis: ${await overflowing(page)}`);
    assert.deepEqual(where, ['start: ', 'game: ', 'analysis: '], lang);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // The picker changes the language and remembers it.
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  await Promise.all([page.waitForNavigation(), page.selectOption('#lang', 'de')]);
  await page.locator('#create-form h2', { hasText: 'Neue Partie' }).waitFor();
  await page.reload();
  await page.locator('#create-form h2', { hasText: 'Neue Partie' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('bc.lang')), 'de');
  await page.context().close();
});

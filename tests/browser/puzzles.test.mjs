// The puzzles' pages (docs/PUZZLES.md, "The page") in Chromium: the start screen's way to them, the
// list by kind, variant and difficulty with its choices, a puzzle's page saying what it is, an
// unknown puzzle's link, a phone's width, and the page's own copy of the collection with no server.
// Solving and wrong turns, in both engines: both/puzzles.mjs. The server is the file's own, with
// the collection of web/data/puzzles.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './driver.mjs';
import { done } from './game_driver.mjs';
import { collection, fetchPuzzle, playTurn, puzzlesServer, waitPz, wrongTurn } from './puzzles_driver.mjs';

let browser;
let server;
let list = [];

before(async () => {
  [browser, server] = await Promise.all([launch('chromium'), puzzlesServer()]);
  list = await collection(server.base);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Chooses `value` in the list's choice `name`, as a person would (a change event). */
function choose(p, name, value) {
  return p.eval(
    ([n, v]) => {
      const sel = document.querySelector(`#puzzle-filters select[name="${n}"]`);
      sel.value = v;
      sel.dispatchEvent(new Event('change', { bubbles: true }));
    },
    [name, value],
  );
}

const shown = (p) => p.eval(() => [...document.querySelectorAll('.pz-item')].map((a) => a.dataset.puzzle));

test('the start screen leads to the list, by kind, variant and difficulty; its choices narrow it', async () => {
  const p = await browser.person();
  await p.goto(`${server.base}/`);
  await p.click('#hero-puzzles'); // the start screen's first sight of them
  await p.waitFn((n) => document.querySelectorAll('.pz-item').length === n, list.length);
  assert.equal(await p.pathname(), '/puzzles');
  for (const s of list) {
    const where = await p.eval((id) => {
      const a = document.querySelector(`.pz-item[data-puzzle="${id}"]`);
      return [
        a.closest('.pz-kind').dataset.kind,
        a.closest('.pz-variant').dataset.variant,
        a.closest('.pz-level').dataset.difficulty,
      ];
    }, s.id);
    assert.deepEqual(where, [s.kind, s.variant, String(s.difficulty)], `${s.id} is under its kind, game and level`);
  }
  const d = list[0].difficulty;
  await choose(p, 'difficulty', String(d));
  assert.deepEqual(
    (await shown(p)).sort(),
    list
      .filter((s) => s.difficulty === d)
      .map((s) => s.id)
      .sort(),
  );
  await choose(p, 'kind', list[0].kind);
  assert.ok((await shown(p)).includes(list[0].id));
  assert.ok((await shown(p)).every((id) => list.find((s) => s.id === id).kind === list[0].kind));
  await choose(p, 'difficulty', '');
  await choose(p, 'kind', '');
  assert.equal((await shown(p)).length, list.length);
  // A puzzle's link opens its page, and Back comes to the list again.
  await p.click(`.pz-item[data-puzzle="${list[0].id}"]`);
  await waitPz(p, { puzzle: list[0].id, mode: 'solving' });
  await p.eval(() => history.back());
  await p.visible('#puzzle-list .pz-item');
  assert.equal(await p.pathname(), '/puzzles');
  await p.shot('puzzles-list');
  await done(p);
});

test('a puzzle’s page says what it is, whose turn wins; an unknown puzzle’s link says so', async () => {
  const summary = list.find((s) => s.kind === 'kaboom') ?? list[0];
  const puzzle = await fetchPuzzle(server.base, summary.id);
  const p = await browser.person();
  await p.goto(`${server.base}/puzzles/${puzzle.id}`);
  await waitPz(p, { puzzle: puzzle.id, mode: 'solving', step: 0, position: puzzle.text, turn: puzzle.turn });
  await p.waitText('#pz-kind', puzzle.kind === 'kaboom' ? 'Kaboom puzzle' : 'Ending puzzle');
  const side =
    puzzle.turn.length === 1 ? puzzle.turn.toUpperCase() : puzzle.turn[0].toUpperCase() + puzzle.turn.slice(1);
  await p.waitText('#pz-goal', `${side} to play and win`);
  const facts = await p.eval(() => document.querySelector('#pz-facts').textContent);
  const o = puzzle.options ?? {};
  if (puzzle.kind === 'kaboom') assert.match(facts, new RegExp(`${o.width}×${o.height} board · connect ${o.connect}`));
  else assert.match(facts, /8×8 board/);
  assert.match(facts, new RegExp(`difficulty ${puzzle.difficulty} of 5`));
  assert.ok(await p.eval(() => document.title.includes('puzzle')));

  await p.goto(`${server.base}/puzzles/kb-0000000000`);
  await p.waitText('#pz-page-message', 'There is no puzzle “kb-0000000000” here');
  assert.equal(await p.eval(() => document.querySelector('#pz-body').hidden), true);
  await done(p);
});

test('on a phone the board, the words and the buttons fit its width', async () => {
  let puzzle = null;
  let wrong = null;
  for (const s of list) {
    puzzle = await fetchPuzzle(server.base, s.id);
    wrong = wrongTurn(puzzle);
    if (wrong) break;
  }
  const p = await browser.person();
  await p.page.setViewportSize({ width: 390, height: 844 });
  await p.goto(`${server.base}/puzzles/${puzzle.id}`);
  await waitPz(p, { puzzle: puzzle.id, mode: 'solving' });
  await playTurn(p, wrong);
  await waitPz(p, { mode: 'wrong', position: puzzle.text });
  const fit = await p.eval(() => {
    const box = (css) => document.querySelector(css).getBoundingClientRect();
    return {
      page: document.documentElement.scrollWidth,
      board: box('#pz-board').right,
      feedback: box('#pz-feedback').bottom,
      retry: box('#pz-retry').bottom,
    };
  });
  assert.ok(fit.page <= 390, `no sideways scrolling (${fit.page} px wide)`);
  assert.ok(fit.board <= 390, `the board fits (${fit.board})`);
  assert.ok(
    fit.feedback <= 844 && fit.retry <= 844,
    `"wrong" and Retry show under the board unscrolled (${fit.retry})`,
  );
  await p.shot('puzzle-phone');
  await done(p);
});

test('with the server gone, the puzzles come from the page’s own copy and still play', async () => {
  // A server of this test's own, stopped halfway; the service worker has kept the page and the
  // collection (web/data/puzzles.json).
  let gone = await puzzlesServer();
  try {
    const base = gone.base;
    const p = await browser.person();
    await p.goto(`${base}/`);
    await p.waitFn(() => navigator.serviceWorker?.controller?.state === 'activated', null, { timeout: 30000 });
    await gone.stop();
    gone = null;
    await p.goto(`${base}/puzzles`);
    await p.waitFn((n) => document.querySelectorAll('.pz-item').length === n, list.length);
    const { id } = list[0];
    const puzzle = await fetchPuzzle(server.base, id);
    await p.click(`.pz-item[data-puzzle="${id}"]`);
    await waitPz(p, { puzzle: id, mode: 'solving', position: puzzle.text });
    const wrong = wrongTurn(puzzle);
    await playTurn(p, wrong ?? puzzle.line[0].actions);
    await waitPz(p, wrong ? { mode: 'wrong', position: puzzle.text } : { step: 1 });
    await done(p);
  } finally {
    await gone?.stop();
  }
});

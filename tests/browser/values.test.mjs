// The Values toggle (PROTOCOL.md, Analysis): against the computer the turns get Gamesman's colours
// on the board and the position's value is said in words; a game analysed while it was played is
// marked "Hints used"; a finished game gets a chart of its values that moves the replay; the
// toggle is not there during a game between two people, and the browser remembers it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, clickSquare, createGame, shareLink, joinByLink, shot, BASE, T } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

/** Records every message the page sends on its WebSocket. */
async function spySocket(page) {
  await page.addInitScript(() => {
    window.sent = [];
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      try {
        window.sent.push(JSON.parse(data));
      } catch {
        /* not JSON */
      }
      return send.call(this, data);
    };
  });
}

/** Creates a game against the computer (the weakest level): `seat` plays first. */
async function playComputer(page, { variant, seat, options = {} }) {
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  const welcome = await page.evaluate(() => window.bombcheckers.app.welcome);
  if (!(welcome?.ai || welcome?.ai_levels)) return false;
  await page.locator(`label.variant:has(input[value="${variant}"])`).click();
  for (const [k, v] of Object.entries(options)) await page.locator(`#opt-${k}`).fill(String(v));
  await page.fill('#create-name', 'Ada');
  await page.locator(`label.side-pick:has(input[value="${seat}"])`).click();
  if (!(await page.locator('#vs-ai').isChecked())) await page.getByText('Play against the computer').click();
  await page.locator('#ai-level').fill('0');
  await page.click('#create-btn');
  await waitBoard(page, { seat, status: 'playing', turn: seat });
  return true;
}

/** Whether the server answers `analyse` (the version under test may not have it yet). */
async function canAnalyse(page) {
  return page.evaluate(async () => {
    const { requestAnalysis } = await import('/values.js');
    try {
      // A free position: asking about the room's own would mark its game as played with hints.
      await requestAnalysis({ variant: 'kaboom', options: { width: 3, height: 3, connect: 3 }, moves: false });
      return true;
    } catch (e) {
      return e?.code !== 'unknown_type';
    }
  });
}

/**
 * Waits until the canvas shows a value mark of `shape` on square `sq` in the mark's colour: the
 * pixel on its ring (or in its dot) is that colour. Returns the mark's colour as [r, g, b].
 */
async function markDrawn(page, shape, sq) {
  const handle = await page.waitForFunction(
    ([shape, [x, y]]) => {
      const b = window.bombcheckers.board;
      const mark = b.ui.valueMarks.find((m) => m.shape === shape && m.sq[0] === x && m.sq[1] === y);
      if (!mark) return false;
      const probe = document.createElement('canvas').getContext('2d');
      probe.fillStyle = mark.colour;
      probe.fillRect(0, 0, 1, 1);
      const want = [...probe.getImageData(0, 0, 1, 1).data].slice(0, 3);
      const { w, h } = b.cellPx();
      const m = Math.min(w, h);
      const [cx, cy] = b.center([x, y]);
      const r = { piece: 0.47, cell: 0.4, target: 0 }[shape] * m;
      const near = (px) => px.every((c, i) => Math.abs(c - want[i]) <= 24);
      for (const dx of [0, -1, 1]) {
        const px = [...b.ctx.getImageData(Math.round(cx - r) + dx, Math.round(cy), 1, 1).data].slice(0, 3);
        if (near(px)) return want;
      }
      return false;
    },
    [shape, sq],
    { timeout: T, polling: 100 },
  );
  return handle.jsonValue();
}

/** The value marks on the canvas: {"piece:2,2": "win", ...}. */
async function marks(page) {
  const d = await board(page);
  return Object.fromEntries(
    (d.valueMarks ?? '')
      .split(' ')
      .filter(Boolean)
      .map((m) => {
        const [shape, sq, cls] = m.split(':');
        return [`${shape}:${sq}`, cls];
      }),
  );
}

test('values against the computer in Kaboom: coloured drops, who wins in how many, Hints used', async (t) => {
  const page = await person(browser);
  // 4 by 3: the solver needs 8,715 positions (0.04 s alone), a wide margin inside the analysis's
  // half second for it on a busy machine (4 by 4, 18,359, once ran out of it there).
  if (
    !(await playComputer(page, {
      variant: 'kaboom',
      seat: 'x',
      options: { width: 4, height: 3, connect: 3, bombs: 1 },
    }))
  ) {
    t.skip('the server offers no computer opponent');
    return page.context().close();
  }
  if (!(await canAnalyse(page))) {
    t.skip('the server does not know `analyse`');
    return page.context().close();
  }
  await waitBoard(page, { cols: '4', rows: '3' });
  const toggle = page.locator('#values-toggle');
  await toggle.waitFor();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.equal((await board(page)).values, 'off');
  await page.locator('#hints-badge').waitFor({ state: 'hidden' });

  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await waitBoard(page, { values: 'ready', valueVersion: '1:0' });
  // A board this small is solved: the words say who wins (or that it is a tie) and in how many turns.
  const words = await page.locator('#values-line').textContent();
  assert.match(words, /^(X wins in \d+ turns?|O wins in \d+ turns?|Tie.*)$/, words);
  // Every column's drop button (a piece and a bomb) has a value, and its cell a ring of its colour.
  for (let c = 0; c < 4; c++) {
    for (const piece of ['normal', 'bomb']) {
      const v = await page
        .locator(`#drops button.drop[data-column="${c}"][data-piece="${piece}"]`)
        .getAttribute('data-value');
      assert.ok(['win', 'lose', 'tie'].includes(v), `column ${c} ${piece}: ${v}`);
    }
    const cls = (await marks(page))[`cell:${c},0`];
    assert.ok(['win', 'lose', 'tie'].includes(cls), `cell ${c},0: ${cls}`);
    const [r, g] = await markDrawn(page, 'cell', [c, 0]);
    if (cls === 'win') assert.ok(g > r, 'a win is green');
    if (cls === 'lose') assert.ok(r > g, 'a loss is red');
  }
  // The best column wins if the position does: the words and the colours agree.
  const values = await page
    .locator('#drops button.drop[data-piece="normal"]')
    .evaluateAll((els) => els.map((e) => e.dataset.value));
  if (words.startsWith('X wins')) assert.ok(values.includes('win'), values.join());
  if (words.startsWith('O wins'))
    assert.ok(
      values.every((v) => v === 'lose'),
      values.join(),
    );
  await shot(page, 'values-kaboom');

  // A move: the computer answers, the new position is analysed, and the game is marked.
  await page.locator('#drops button.drop[data-column="1"][data-piece="normal"]').click();
  await waitBoard(page, { version: 2, turn: 'x' }, 30000);
  await waitBoard(page, { values: 'ready', valueVersion: '1:2' });
  const badge = page.locator('#hints-badge');
  await badge.waitFor();
  assert.equal(await badge.textContent(), 'Hints used');
  assert.match(await badge.getAttribute('title'), /\b0\b/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("values against the computer in checkers: estimates, and a selected piece's targets", async (t) => {
  const page = await person(browser);
  await spySocket(page);
  if (!(await playComputer(page, { variant: 'bomb', seat: 'fire' }))) {
    t.skip('the server offers no computer opponent');
    return page.context().close();
  }
  if (!(await canAnalyse(page))) {
    t.skip('the server does not know `analyse`');
    return page.context().close();
  }
  await page.evaluate(() => {
    window.sent.length = 0;
  }); // canAnalyse's own request
  await page.click('#values-toggle');
  await waitBoard(page, { values: 'ready', valueVersion: '1:0' });
  // Checkers is estimated: "Fire is ahead by 0.25 (estimate, depth 6)", "About even (estimate...)".
  const words = await page.locator('#values-line').textContent();
  assert.match(words, /estimate|found by search/, words);
  // Every piece that can move has a ring (and only those); the pixels are the mark's colour.
  const legalFroms = await page.evaluate(() =>
    [...new Set(window.bombcheckers.app.state.legal.map((a) => a.from.join(',')))].sort(),
  );
  const m0 = await marks(page);
  assert.deepEqual(
    Object.keys(m0)
      .filter((k) => k.startsWith('piece:'))
      .map((k) => k.slice(6))
      .sort(),
    legalFroms,
  );
  assert.ok(
    Object.values(m0).every((v) => ['estimate', 'win', 'lose'].includes(v)),
    JSON.stringify(m0),
  );
  await markDrawn(page, 'piece', [2, 2]);
  // Selected, a piece's targets get the values of the turns through them.
  await clickSquare(page, [2, 2]);
  await waitBoard(page, { selected: '2,2' });
  await page.waitForFunction(() => /target:/.test(document.querySelector('#board').dataset.valueMarks), null, {
    timeout: T,
  });
  const targets = Object.keys(await marks(page))
    .filter((k) => k.startsWith('target:'))
    .map((k) => k.slice(7))
    .sort();
  const legalTos = await page.evaluate(() =>
    window.bombcheckers.app.state.legal
      .filter((a) => a.from.join(',') === '2,2')
      .map((a) => a.to.join(','))
      .sort(),
  );
  assert.deepEqual(targets, legalTos);
  await shot(page, 'values-checkers-selected');
  // The same position is not asked for twice.
  const asked = await page.evaluate(() =>
    window.sent.filter((m) => m.type === 'analyse').map((m) => JSON.stringify([m.game, m.version])),
  );
  assert.equal(new Set(asked).size, asked.length, asked.join(' '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a finished game: no values for the players while two people play; then the chart, and a click on it moves the replay', async (t) => {
  const x = await person(browser);
  const o = await person(browser);
  await spySocket(x);
  await spySocket(o);
  // Values on in x's browser (before the game): still nothing during the game.
  await x.goto(`${BASE}/`);
  await x.evaluate(() => localStorage.setItem('bc.values', '1'));
  await createGame(x, {
    variant: 'kaboom',
    name: 'Xena',
    seat: 'x',
    options: { width: 3, height: 3, connect: 3, bombs: 0 },
  });
  const link = await shareLink(x);
  await joinByLink(o, link, 'Otto');
  await waitBoard(x, { status: 'playing', turn: 'x' });
  // A spectator with values on sees only what the host lets watchers see: the values some turns
  // behind the game (watch_values.test.mjs), never the position played; on a host that lets them
  // see none, no toggle either.
  const watcher = await person(browser);
  await spySocket(watcher);
  await watcher.goto(`${BASE}/`);
  await watcher.evaluate(() => localStorage.setItem('bc.values', '1'));
  await watcher.goto(link);
  await watcher.locator('#join-dialog[open]').waitFor();
  await watcher.click('#join-watch');
  await waitBoard(watcher, { seat: 'spectator', status: 'playing' });
  const drop = async (page, c, version) => {
    await page.locator(`#drops button.drop[data-column="${c}"][data-piece="normal"]`).click();
    await waitBoard(x, { version });
    await waitBoard(o, { version });
  };
  for (const [page, c] of [
    [x, 0],
    [o, 1],
    [x, 0],
    [o, 1],
  ]) {
    await drop(page, c, Number((await board(x)).version) + 1);
    await waitBoard(watcher, { version: Number((await board(x)).version) });
    const lag = await watcher.evaluate(() => window.bombcheckers.app.welcome?.analysis?.watch_lag ?? 0);
    if (lag) {
      await watcher.locator('#values-toggle', { hasText: `${lag} turns behind` }).waitFor();
      assert.equal((await board(watcher)).values, 'lagged');
      assert.equal((await board(watcher)).valueMarks ?? '', '', 'nothing on the live board');
      const asked = await watcher.evaluate(() => window.sent.filter((m) => m.type === 'analyse'));
      assert.ok(
        asked.every((m) => m.history && m.lagged),
        'a watcher asks only for the values behind the game',
      );
    }
    for (const p of lag ? [x, o] : [x, o, watcher]) {
      assert.ok(await p.locator('#values-toggle').isHidden(), 'no toggle during a game between two people');
      assert.equal((await board(p)).values, 'hidden');
      assert.deepEqual(
        await p.evaluate(() => window.sent.filter((m) => m.type === 'analyse')),
        [],
        'nothing asked during the game',
      );
    }
  }
  assert.equal(await x.locator('#value-chart').isHidden(), true);
  await drop(x, 0, 5);
  await waitBoard(x, { status: 'finished' });
  await watcher.context().close();
  if (!(await canAnalyse(x))) {
    t.skip('the server does not know `analyse`');
    await x.context().close();
    return o.context().close();
  }

  // Over: x (values on) sees the final position's value and the chart, one point a version.
  await x.locator('#values-toggle').waitFor();
  await waitBoard(x, { values: 'ready', valueVersion: '1:5' });
  assert.match(await x.locator('#values-line').textContent(), /X has won/);
  const chart = x.locator('#value-chart');
  await x.locator('#value-chart[data-state="ready"]').waitFor();
  assert.equal(await chart.getAttribute('data-points'), '6');
  assert.equal(await chart.locator('circle.pt').count(), 6);
  assert.equal(await chart.getAttribute('data-shown'), '5');
  assert.match(await chart.getAttribute('aria-label'), /6 positions.*End: X has won/);
  assert.equal(await chart.getAttribute('tabindex'), '0');
  await x.locator('.overlay-card .close').click();
  await shot(x, 'values-chart');
  // A click on a point shows that position in the replay, with its values.
  await chart.locator('circle.pt[data-version="2"]').click();
  await waitBoard(x, { replayVersion: '2' });
  await x.locator('#value-chart[data-shown="2"]').waitFor();
  await waitBoard(x, { values: 'ready', valueVersion: '1:2' });
  assert.ok(
    Object.keys(await marks(x)).some((k) => k.startsWith('cell:')),
    "the replay's turns are coloured",
  );
  // The keys step through it when the chart has the focus.
  await chart.focus();
  await x.keyboard.press('ArrowRight');
  await waitBoard(x, { replayVersion: '3' });
  await x.locator('#value-chart[data-shown="3"]').waitFor();
  assert.equal(await chart.getAttribute('aria-valuenow'), '3');
  // The history was asked for once.
  const histories = await x.evaluate(() => window.sent.filter((m) => m.type === 'analyse' && m.history).length);
  assert.equal(histories, 1);
  // o's browser has values off: the toggle shows, nothing is asked until it is pressed.
  await o.locator('#values-toggle').waitFor();
  assert.equal((await board(o)).values, 'off');
  await o.locator('#value-chart').waitFor({ state: 'hidden' });
  assert.deepEqual(x.errors, []);
  assert.deepEqual(o.errors, []);
  await x.context().close();
  await o.context().close();
});

test('the browser remembers the toggle', async (t) => {
  const page = await person(browser);
  if (!(await playComputer(page, { variant: 'kaboom', seat: 'x', options: { width: 4, height: 4, connect: 3 } }))) {
    t.skip('the server offers no computer opponent');
    return page.context().close();
  }
  const toggle = page.locator('#values-toggle');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await page.reload();
  await waitBoard(page, { seat: 'x', status: 'playing' });
  await toggle.waitFor();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  assert.notEqual((await board(page)).values, 'off');
  await toggle.click();
  await page.reload();
  await waitBoard(page, { seat: 'x', status: 'playing', values: 'off' });
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the chart marks the turn that threw the game away', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  const found = await page.evaluate(async () => {
    const { biggestFall } = await import('/value_chart.js');
    const solved = (outcome, remoteness) => ({ kind: 'solved', outcome, remoteness });
    const est = (score) => ({ kind: 'estimate', score, depth: 6 });
    return [
      // x wins from the start, then o loses later by force: nobody threw anything away.
      biggestFall([
        { version: 0, turn: 'x', value: solved('win', 5) },
        { version: 1, turn: 'o', value: solved('lose', 4) },
        { version: 2, turn: 'x', value: solved('win', 3) },
      ]),
      // o lets a tie go (to version 2), then x a win (to version 3): x's is the bigger fall.
      biggestFall([
        { version: 0, turn: 'x', value: solved('tie', 9) },
        { version: 1, turn: 'o', value: solved('tie', 8) },
        { version: 2, turn: 'x', value: solved('win', 7) },
        { version: 3, turn: 'o', value: solved('win', 6) },
      ]),
      // Estimates: a fall of 0.8 is no blunder, one of 3 is (fire, at version 3).
      biggestFall([
        { version: 0, turn: 'fire', value: est(20) },
        { version: 1, turn: 'water', value: est(60) },
        { version: 2, turn: 'fire', value: est(-40) },
        { version: 3, turn: 'water', value: est(260) },
      ]),
    ];
  });
  assert.equal(found[0], null);
  assert.equal(found[1].version, 3);
  assert.equal(found[1].side, 'x');
  assert.equal(found[2].version, 3);
  assert.equal(found[2].side, 'fire');
  await page.context().close();
});

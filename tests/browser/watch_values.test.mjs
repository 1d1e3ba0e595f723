// Values for watchers (PROTOCOL.md, "Values for watchers") in Chromium: two people play a Kaboom
// game, unrated; a third page watching turns Values on and sees the value chart grow some turns
// behind the game (the host's watch_lag), asked with `lagged` and `from` one request at a time, with
// nothing drawn on the live board; the players never see the toggle while their game is on. When
// the game ends, the chart of every position (the existing Values) takes over.
// The server is the file's own, so that no other file's analyses count against its address.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './driver.mjs';
import { board, createGame, done, joinByLink, shareLink, waitBoard, watchByLink } from './game_driver.mjs';
import { startServer } from './helpers.mjs';

let browser;
let server;

before(async () => {
  [browser, server] = await Promise.all([launch('chromium'), startServer(['--memory'])]);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Drops a piece in column `col` with its button; waits until `others` see the turn too. */
async function drop(p, col, ...others) {
  const v = Number((await board(p)).version);
  await p.click(`#drops button.drop[data-column="${col}"][data-piece="normal"]:not([disabled])`);
  for (const q of [p, ...others]) await waitBoard(q, { version: v + 1 });
}

const chart = (p) =>
  p.eval(() => {
    const box = document.querySelector('#value-chart');
    return { hidden: box.hidden, state: box.dataset.state, points: Number(box.dataset.points ?? 0), ...box.dataset };
  });

test('a watcher sees the values grow some turns behind; the players see no toggle', async () => {
  const x = await browser.person();
  const o = await browser.person();
  const w = await browser.person();
  await createGame(x, { variant: 'kaboom', name: 'Ann', seat: 'x', base: server.base });
  const link = await shareLink(x);
  await joinByLink(o, link, 'Bob');
  await waitBoard(x, { status: 'playing' });
  // What the watcher asks for, as it goes on the socket.
  const asked = [];
  w.page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const msg = JSON.parse(typeof f.payload === 'string' ? f.payload : f.payload.toString());
      if (msg.type === 'analyse') asked.push(msg);
    }),
  );
  await watchByLink(w, link);
  const lag = await w.eval(() => window.bombcheckers.app.welcome.analysis?.watch_lag ?? 0);
  assert.ok(lag >= 2, `the host lets watchers see values ${lag} turns behind`);

  await w.visible('#values-toggle');
  await w.waitText('#values-toggle', `${lag} turns behind`);
  for (const p of [x, o]) assert.equal(await p.eval(() => document.querySelector('#values-toggle').hidden), true);
  await w.click('#values-toggle');
  await w.waitText('#values-line', 'behind the game');
  await w.waitFn(() => document.querySelector('#value-chart').dataset.state === 'waiting');

  // Ten turns, no line of four: x in the even columns, o in the odd ones, then both again.
  const cols = [0, 1, 2, 3, 4, 5, 6, 1, 0, 3];
  for (const [i, c] of cols.entries()) {
    await drop(i % 2 ? o : x, c, i % 2 ? x : o, w);
    const turns = i + 1;
    // The chart holds the positions up to the one that began the turn `lag` turns ago.
    const want = Math.max(0, turns - lag + 1);
    await w.waitFn((n) => Number(document.querySelector('#value-chart').dataset.points ?? 0) === n, want);
    const c2 = await chart(w);
    if (want) assert.equal(Number(c2.shown), turns - lag, `after ${turns} turns the last point is ${turns - lag}`);
    // Nothing on the live board: the position being played is never valued.
    assert.equal((await board(w)).valueMarks ?? '', '');
    for (const p of [x, o]) assert.equal(await p.eval(() => document.querySelector('#values-toggle').hidden), true);
  }
  await w.shot('watch-values-behind');

  // Each ask is the lagged history, from the version after the last one received.
  const lagged = asked.filter((m) => m.lagged);
  assert.ok(lagged.length >= cols.length - lag, `asked as the game went on (${lagged.length} times)`);
  assert.ok(lagged.every((m) => m.history === true));
  // Each names `from` (0 too), so each costs one of the address's analyses, not a history's five:
  // without it, the asks of a whole game and the finished game's history came to more than the
  // address's 30 a minute, and the last was refused (CI of d2def10).
  assert.ok(
    lagged.every((m) => Number.isInteger(m.from)),
    'every lagged ask names from',
  );
  const froms = lagged.map((m) => m.from ?? 0);
  assert.deepEqual(
    [...froms].sort((a, b) => a - b),
    froms,
    'from never goes back',
  );
  assert.equal(froms.at(-1), cols.length - lag, 'the last ask was for the position just past the chart');

  // The game ends: the chart of every position takes over, the toggle as it is for a finished game.
  await x.click('#resign');
  await x.click('#confirm-yes');
  await waitBoard(w, { status: 'finished' });
  await w.waitFn((n) => {
    const d = document.querySelector('#value-chart').dataset;
    return d.state === 'ready' && Number(d.points) === n;
  }, cols.length + 1);
  await w.waitText('#values-toggle', 'Values');
  assert.equal(await w.eval(() => document.querySelector('#values-toggle').textContent), 'Values');
  await done(x, o, w);
});

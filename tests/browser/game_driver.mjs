// The game-level helpers of helpers.mjs on driver.mjs's interface, for the tests that run in every
// browser: reading the canvas's data-* attributes, clicking squares, creating and joining games.
// The page-side parts (boardIs, squarePoint, pieceAt) are helpers.mjs's own.
import assert from 'node:assert/strict';
import { BASE, T, boardIs, squarePoint, pieceAt } from './helpers.mjs';

export { BASE, T, pieceAt };

/** Every person's page threw nothing; then their contexts are closed. */
export async function done(...people) {
  for (const p of people) assert.deepEqual(p.errors, [], `${p.kind}: errors in a page`);
  await Promise.all(people.map((p) => p.close()));
}

/** The canvas's data-* attributes (room, seat, version, status, turn, flipped, selected, ...). */
export function board(p) {
  return p.eval(() => ({ ...document.querySelector('#board').dataset }));
}

/** Waits until the canvas's data-* attributes satisfy all of `want` (a number: at least). */
export async function waitBoard(p, want, timeout = T) {
  await p.waitFn(boardIs, want, { timeout, polling: 50 });
}

/** Clicks board square [x, y], worked out from the canvas box and the orientation alone. */
export async function clickSquare(p, sq) {
  const at = squarePoint(await p.box('#board'), await board(p), sq);
  await p.mouse(at.x, at.y);
}

/** Selects the piece on `from`, then clicks `to`; waits for the server's next state. */
export async function move(p, from, to) {
  const before = Number((await board(p)).version);
  await clickSquare(p, from);
  await waitBoard(p, { selected: from.join(',') });
  await clickSquare(p, to);
  await waitBoard(p, { version: before + 1 });
}

/** The two opening moves (each side's first turn has no clock): fire c3-d4, water f6-e5. */
export async function openingMoves(fire, water) {
  await move(fire, [2, 2], [3, 3]);
  await waitBoard(water, { version: 1, turn: 'water' });
  await move(water, [5, 5], [4, 4]);
  await waitBoard(fire, { version: 2, turn: 'fire' });
}

/**
 * Fills the start screen's form and creates a game; returns the room code. `clock`: a preset's
 * name ('5+3'), {minutes: '0:02', increment: '0'} for a custom one, or {days: 3}; none by default.
 * `seat: 'both'`: both sides on this screen, `name` the first side's player and `name2` the second's.
 * `base`: the server (default run.sh's; a test's own from startServer).
 */
export async function createGame(
  p,
  { variant = 'bomb', name, name2 = 'Bob', seat, options = {}, position, clock, base = BASE } = {},
) {
  await p.goto(`${base}/`);
  await p.visible('#create-btn:not([disabled])');
  await p.click(`label.variant:has(input[value="${variant}"])`);
  for (const [k, v] of Object.entries(options)) {
    if (typeof v === 'boolean') await p.setChecked(`#opt-${k}`, v);
    else await p.fill(`#opt-${k}`, String(v));
  }
  if (seat === 'both') {
    await p.click('label.side-pick:has(input[value="both"])');
    await p.fill('#both-name-0', name);
    await p.fill('#both-name-1', name2);
  } else {
    await p.fill('#create-name', name);
    await p.click(`label.side-pick:has(input[value="${seat}"])`);
  }
  if (typeof clock === 'string') await p.click(`label.clock-pick:has(input[value="${clock}"])`);
  else if (clock?.minutes !== undefined) {
    await p.click('label.clock-pick:has(input[value="custom"])');
    await p.fill('#clock-minutes', clock.minutes);
    await p.fill('#clock-increment', clock.increment ?? '0');
  } else if (clock?.days) {
    await p.click('label.clock-pick:has(input[value="days"])');
    await p.eval((d) => {
      document.querySelector('#clock-days-n').value = String(d);
    }, clock.days);
  }
  if (position) {
    await p.click('details.advanced summary');
    await p.fill('#create-position', JSON.stringify(position));
  }
  await p.click('#create-btn');
  await p.waitFn(() => {
    const d = document.querySelector('#board').dataset;
    return d.room !== '' && d.version !== '';
  });
  return (await board(p)).room;
}

/** The share link shown while waiting for an opponent. */
export function shareLink(p) {
  return p.inputValue('.link-row input');
}

/** Opens a game link and takes the free seat; returns the seat. */
export async function joinByLink(p, link, name) {
  await p.goto(link);
  await p.visible('#join-dialog[open]');
  await p.fill('#join-name', name);
  await p.click('#join-play');
  await p.waitFn(() => {
    const d = document.querySelector('#board').dataset;
    return d.seat !== '' && d.seat !== 'spectator' && d.version !== '';
  });
  return (await board(p)).seat;
}

/** Opens a game link and watches. */
export async function watchByLink(p, link) {
  await p.goto(link);
  await p.visible('#join-dialog[open]');
  await p.click('#join-watch');
  await waitBoard(p, { seat: 'spectator' });
}

/**
 * Two new people in `browser`: one creates a game (`opts` as createGame's, default a bomb game
 * with fire), the other joins by its link; returns once both see it being played.
 */
export async function startGame(browser, opts = {}) {
  const creator = await browser.person();
  const joiner = await browser.person();
  const room = await createGame(creator, { variant: 'bomb', name: 'Ann', seat: 'fire', ...opts });
  const link = await shareLink(creator);
  await joinByLink(joiner, link, 'Bob');
  await waitBoard(creator, { status: 'playing' });
  await waitBoard(joiner, { status: 'playing' });
  return { room, link, creator, joiner };
}

/** A side's clock as shown in its player card: {text, ms, running, low}, or null; ms is the time
 *  left now, to the ms, from the page's own state and server time (the text changes each second). */
export function clockOf(p, side) {
  return p.eval(async (s) => {
    const el = document.querySelector(`#game .clock[data-side="${s}"]`);
    if (!el) return null;
    const [{ timeLeft }, { app }] = await Promise.all([import('/clocks.js'), import('/store/store.js')]);
    return {
      text: el.querySelector('.clock-time').textContent,
      ms: timeLeft(app.state.clock, s),
      running: el.classList.contains('running'),
      low: el.classList.contains('low'),
    };
  }, side);
}

/** What a player card says of a side's connection: {text, lag} (lag a number, or null), or null. */
export function presenceOf(p, side) {
  return p.eval((s) => {
    const el = document.querySelector(`#game .presence[data-side="${s}"]`);
    if (!el) return null;
    return { text: el.textContent, lag: el.dataset.lag === undefined ? null : Number(el.dataset.lag) };
  }, side);
}

/** The pieces the page knows, sorted, to compare two views of one position. */
export function pieces(p) {
  return p.eval(() =>
    window.bombcheckers.app.state.board.pieces.map((q) => `${q.at[0]},${q.at[1]} ${q.side} ${q.kind} ${q.rank}`).sort(),
  );
}

// Playing at one screen ("both sides on this screen") from a test: creating such a game on the start
// screen, choosing each turn from the page's own legal actions so that games end soon and always the
// same way, playing it by clicks, and checking what the cards and status line say.
import assert from 'node:assert/strict';
import { BASE, board, waitBoard, squarePoint } from './helpers.mjs';

export const SIDES = {
  bomb: ['fire', 'water'],
  classic: ['black', 'white'],
  triple_king: ['black', 'white'],
  kaboom: ['x', 'o'],
};

/** The page's state, as its parts see it. */
export const stateOf = (page) => page.evaluate(() => window.bombcheckers.app.state);

/**
 * Creates a one-screen game on the start screen: "Both sides on this screen", a name for each side;
 * returns the room once the game is on.
 */
export async function createOneScreen(page, { variant, names = ['Ann', 'Bob'], options = {} } = {}) {
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  await page.locator(`label.variant:has(input[value="${variant}"])`).click();
  for (const [k, v] of Object.entries(options)) await page.fill(`#opt-${k}`, String(v));
  await page.locator('label.side-pick:has(input[value="both"])').click();
  await page.locator('#both-names').waitFor();
  await page.fill('#both-name-0', names[0]);
  await page.fill('#both-name-1', names[1]);
  await page.click('#create-btn');
  await waitBoard(page, { status: 'playing', version: 0 });
  return (await board(page)).room;
}

// ---- choosing a turn from what the page shows ----------------------------------------------------

/** The distance (in king steps) from a square to the nearest piece of `side`'s opponent. */
function nearestEnemy(s, sq, side) {
  const far = s.board.pieces
    .filter((p) => p.side !== side)
    .map((p) => Math.max(Math.abs(p.at[0] - sq[0]), Math.abs(p.at[1] - sq[1])));
  return far.length ? Math.min(...far) : 99;
}

/**
 * The turn to play, chosen among the page's legal actions so that games end soon and always the
 * same way: every capture is taken (and a sequence carried on); otherwise the first side walks
 * towards the nearest enemy but not next to it, the second side right up to it (where it is
 * taken). Kaboom: the first side fills the leftmost open column, the second the rightmost.
 */
export function chooseTurn(s) {
  const legal = s.legal;
  const [first] = SIDES[s.variant];
  if (s.variant === 'kaboom') {
    const drops = legal.filter((a) => a.kind === 'drop' && a.piece !== 'bomb').sort((a, b) => a.column - b.column);
    return s.turn === first ? drops[0] : drops[drops.length - 1];
  }
  const key = (a) => `${a.from}-${a.to}`;
  const jumps = legal.filter((a) => a.kind === 'jump').sort((a, b) => key(a).localeCompare(key(b)));
  if (jumps.length) return jumps[0];
  const steps = legal.filter((a) => a.kind === 'step');
  if (!steps.length) return legal.find((a) => a.kind === 'end_turn');
  const score = (a) => {
    const d = nearestEnemy(s, a.to, s.turn);
    return s.turn === first ? (d <= 1 ? 50 : 0) + d : d;
  };
  return steps.sort((a, b) => score(a) - score(b) || key(a).localeCompare(key(b)))[0];
}

/** Plays one action the way a person does (clicks on the board, End turn); waits for its state. */
export async function play(page, a) {
  // The board's box and orientation, read once: they stay put until the state this turn brings.
  const d = await board(page);
  const box = await page.locator('#board').boundingBox();
  const click = (sq) => {
    const at = squarePoint(box, d, sq);
    return page.mouse.click(at.x, at.y);
  };
  const v = Number(d.version);
  if (a.kind === 'drop') {
    await click([a.column, Number(d.rows) - 1]); // a click anywhere in the column
  } else if (a.kind === 'end_turn') {
    await page.click('#end-turn');
  } else {
    if (d.selected !== a.from.join(',')) {
      await click(a.from);
      await waitBoard(page, { selected: a.from.join(',') });
    }
    await click(a.to);
  }
  await waitBoard(page, { version: v + 1 });
}

/** What the player cards and the status line say at one screen, checked against the state. */
export async function checkScreen(page, s, names) {
  const [first, second] = SIDES[s.variant];
  const name = { [first]: names[0], [second]: names[1] };
  const cards = await page.locator('#player-top, #player-bottom').allTextContents();
  assert.ok(cards.some((c) => c.includes(names[0])) && cards.some((c) => c.includes(names[1])), cards.join(' | '));
  assert.ok(!cards.some((c) => /\byou\b/i.test(c)), `no card is "you" at one screen: ${cards.join(' | ')}`);
  if (s.status === 'playing' && !s.legal.some((a) => a.kind === 'end_turn')) {
    const line = await page.locator('#status-line').textContent();
    assert.match(line, new RegExp(`to move — ${name[s.turn]}`), line);
  }
}

/**
 * Plays the game on `page` to its end by the rules, both sides from this page; reloads the page
 * after `reloadAt` turns and checks that both seats came back. Returns the final state.
 */
export async function playToEnd(page, { names, reloadAt, maxTurns = 400 }) {
  let s = await stateOf(page);
  for (let turn = 0; s.status === 'playing'; turn++) {
    assert.ok(turn < maxTurns, `the game should have ended within ${maxTurns} turns`);
    if (turn === reloadAt) {
      const before = s.version;
      await page.reload();
      await waitBoard(page, { version: before, status: 'playing' });
      const d = await board(page);
      assert.ok(SIDES[s.variant].includes(d.seat), `a seat again after the reload: ${d.seat}`);
      assert.equal(await page.evaluate(() => window.bombcheckers.app.oneScreen), true, 'both seats again');
      await page.locator('#one-screen-badge', { hasText: 'One screen' }).waitFor();
      s = await stateOf(page);
      assert.ok(s.legal.length > 0, 'the side to move can play after the reload');
    }
    if (turn % 5 === 0) await checkScreen(page, s, names);
    await play(page, chooseTurn(s));
    s = await stateOf(page);
  }
  return s;
}

// Shared helpers for the browser tests: launching Debian's Chromium (launch.mjs), driving the page
// the way a person does (clicks on canvas squares, buttons), and waiting on the canvas's data-*
// attributes.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

/** The server under test (run.sh starts it and sets BC_URL). */
export const BASE = (process.env.BC_URL ?? '').replace(/\/$/, '');
if (!BASE) throw new Error('BC_URL is not set: run the tests through tests/browser/run.sh');

export const SHOTS = path.resolve(repoRoot, process.env.SCREENSHOT_DIR ?? 'build/screenshots');
mkdirSync(SHOTS, { recursive: true });

/** Every wait in these tests is bounded by this. */
export const T = 15000;

export { launch } from './launch.mjs';

/**
 * A second server of a test's own (run.sh passes its binary in BC_BINARY), on 127.0.0.1 and a free
 * port, serving this checkout's web client with `args` added. Resolves with its base URL
 * (http:// or https://, from its "listening on" line) and a stop function (which resolves once the
 * server has exited).
 */
export function startServer(args) {
  const server = spawn(
    process.env.BC_BINARY,
    [
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--web-root',
      path.join(repoRoot, 'web'),
      '--log-level',
      'error',
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no "listening on" line: ${out}`)), T);
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on (https?:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ base: m[1], stop: () => stop(server) });
      }
    });
    server.on('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
  });
}

/** Stops a server of startServer's; resolves once it has exited (its data directory is then free). */
function stop(server) {
  return new Promise((done) => {
    if (server.exitCode !== null || server.signalCode !== null) {
      done();
      return;
    }
    server.once('exit', () => done());
    server.kill('SIGTERM');
  });
}

/**
 * A fresh browser context (its own localStorage: a different person) with one page. The person
 * prefers reduced motion unless `opts.motion`: the board's animations are drawn by the files that
 * test them (bomb, kaboom, and both/'s scenarios in each engine); the rest test the reduced-motion
 * path, and spend about 6 % less CPU (six files: 291 and 315 core-s before, 275 and 292 after).
 */
export async function person(browser, opts = {}) {
  const context = await browser.newContext({
    reducedMotion: opts.motion ? 'no-preference' : 'reduce',
    viewport: opts.viewport ?? { width: 1280, height: 820 },
    deviceScaleFactor: opts.dpr ?? 1,
    isMobile: opts.mobile ?? false,
    hasTouch: opts.mobile ?? false,
    // The service worker keeps every file of the page for play with no server (web/sw.js): its
    // install would fetch them all again for each person; only the offline test needs it.
    serviceWorkers: opts.serviceWorkers ?? 'block',
  });
  context.setDefaultTimeout(T);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

export async function board(page) {
  return page.locator('#board').evaluate((el) => ({ ...el.dataset }));
}

/**
 * Run in the page: whether the canvas's data-* attributes satisfy all of `want` (a number means
 * at least that much, anything else is compared as a string). Shared with game_driver.mjs.
 */
export function boardIs(want) {
  const d = document.querySelector('#board')?.dataset;
  if (!d) return false;
  return Object.entries(want).every(([k, v]) => (typeof v === 'number' ? Number(d[k]) >= v : d[k] === String(v)));
}

/** Waits until the canvas's data-* attributes satisfy all of `want` (values compared as strings). */
export async function waitBoard(page, want, timeout = T) {
  await page.waitForFunction(boardIs, want, { timeout, polling: 50 });
}

/**
 * The page point at the middle of board square [x, y], from the canvas box and its data-*
 * attributes (the orientation) alone. Shared with game_driver.mjs.
 */
export function squarePoint(box, d, [x, y]) {
  const cols = Number(d.cols || 8);
  const rows = Number(d.rows || 8);
  const flipped = d.flipped === 'true';
  const col = flipped ? cols - 1 - x : x;
  const row = flipped ? y : rows - 1 - y;
  return { x: box.x + ((col + 0.5) * box.width) / cols, y: box.y + ((row + 0.5) * box.height) / rows };
}

/** Clicks board square [x, y], worked out from the canvas box and the orientation alone. */
export async function clickSquare(page, sq) {
  const box = await page.locator('#board').boundingBox();
  const at = squarePoint(box, await board(page), sq);
  await page.mouse.click(at.x, at.y);
}

/** Selects the piece on `from`, then clicks `to`; waits for the server's next state. */
export async function move(page, from, to) {
  const before = Number((await board(page)).version);
  await clickSquare(page, from);
  // A click lost under load (CI saw one once, after leaving a replay; never reproduced) is made
  // again, once, after 5 s: a click that did land selects within milliseconds.
  try {
    await waitBoard(page, { selected: from.join(',') }, 5000);
  } catch {
    if ((await board(page)).selected !== from.join(',')) await clickSquare(page, from);
    await waitBoard(page, { selected: from.join(',') });
  }
  await clickSquare(page, to);
  await waitBoard(page, { version: before + 1 });
}

/** Fills the start screen's form and creates a game; returns the room code. */
export async function createGame(page, { variant = 'bomb', name, seat, options = {}, position } = {}) {
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  await page.locator(`label.variant:has(input[value="${variant}"])`).click();
  for (const [k, v] of Object.entries(options)) {
    const input = page.locator(`#opt-${k}`);
    if (typeof v === 'boolean') await input.setChecked(v);
    else await input.fill(String(v));
  }
  await page.fill('#create-name', name);
  await page.locator(`label.side-pick:has(input[value="${seat}"])`).click();
  if (position) {
    await page.locator('details.advanced summary').click();
    await page.fill('#create-position', JSON.stringify(position));
  }
  await page.click('#create-btn');
  await page.waitForFunction(
    () => {
      const d = document.querySelector('#board').dataset;
      return d.room !== '' && d.version !== '';
    },
    null,
    { timeout: T },
  );
  return (await board(page)).room;
}

/** The share link shown while waiting for an opponent. */
export async function shareLink(page) {
  const input = page.locator('.link-row input');
  await input.waitFor();
  return input.inputValue();
}

/** Opens a game link in a fresh page and takes the free seat. */
export async function joinByLink(page, link, name) {
  await page.goto(link);
  await page.locator('#join-dialog[open]').waitFor();
  await page.fill('#join-name', name);
  await page.click('#join-play');
  await page.waitForFunction(
    () => {
      const d = document.querySelector('#board').dataset;
      return d.seat !== '' && d.seat !== 'spectator' && d.version !== '';
    },
    null,
    { timeout: T },
  );
  return (await board(page)).seat;
}

export async function shot(page, name) {
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

export const pieceAt = (page, sq) =>
  page.evaluate(
    ([x, y]) => window.bombcheckers.app.state.board.pieces.find((p) => p.at[0] === x && p.at[1] === y) ?? null,
    sq,
  );

/** A piece of a set position (the `position` of createGame): [x, y], side, kind and rank. */
export const piece = (x, y, side, kind = 'normal', rank = 'man') => ({ at: [x, y], side, kind, rank });

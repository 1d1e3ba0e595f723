// One small interface over two browser engines, for the scenarios that run in every browser
// (both/*.mjs, each run by a file per engine, both_*.chromium.test.mjs and both_*.firefox.test.mjs,
// so that node runs the two engines side by side): Chromium through playwright-core (launched as helpers.mjs launches it) and
// Firefox ESR through puppeteer-core over WebDriver BiDi.
//
//   const browser = await launch('firefox');      // or 'chromium'
//   const p = await browser.person();             // a fresh context: its own storage, a new player
//   await p.goto(url); await p.click('#create-btn'); await p.fill('#create-name', 'Ann');
//   await p.waitFn((n) => window.x === n, 3);     // (fn, arg, {timeout, polling}) in both engines
//   await p.closePage(); await p.reopen(link);    // the person leaves, and comes back (same storage)
//   ...; await p.close(); await browser.close();
//
// Env: BC_BROWSERS (default "chromium,firefox"), FIREFOX (default /usr/bin/firefox-esr),
// CHROMIUM (default /usr/bin/chromium).
import { describe, before, after } from 'node:test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { launch as launchChromium, SHOTS, T } from './helpers.mjs';

const KINDS = ['chromium', 'firefox'];

/** The engines to test, from BC_BROWSERS (comma-separated; default both). */
export function browsers() {
  const list = (process.env.BC_BROWSERS ?? 'chromium,firefox')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const k of list) {
    if (!KINDS.includes(k)) throw new Error(`BC_BROWSERS: unknown browser "${k}" (known: ${KINDS.join(', ')})`);
  }
  if (list.length === 0) throw new Error('BC_BROWSERS names no browser');
  return list;
}

/**
 * The options of one engine's describe block in a cross-browser scenario module (both/*.mjs):
 * skipped, with the reason, when BC_BROWSERS leaves the engine out.
 */
export function selected(kind) {
  if (!KINDS.includes(kind)) throw new Error(`unknown browser "${kind}" (known: ${KINDS.join(', ')})`);
  return browsers().includes(kind) ? {} : { skip: `BC_BROWSERS (${process.env.BC_BROWSERS}) leaves out ${kind}` };
}

/**
 * One engine's describe block of a scenario module (both/*.mjs): its browser is launched before the
 * tests and closed after; `body(engine)` declares the tests, which use `engine.browser`.
 */
export function engineSuite(kind, body) {
  // run.sh runs a left-out engine's file with a name pattern that matches no test, so that each of
  // its tests is counted as skipped (a skipped describe hides them): no browser is launched then.
  const counted = process.env.BC_COUNT_SKIPPED === '1';
  const opts = selected(kind);
  describe(kind, counted ? {} : opts, () => {
    const engine = {};
    before(async () => {
      if (!opts.skip) engine.browser = await launch(kind);
    });
    after(async () => {
      await engine.browser?.close();
    });
    body(engine);
  });
}

const VIEWPORT = { width: 1280, height: 820 };

/**
 * What both engines give a test. Each engine supplies the primitives; the rest is built on them
 * with page-side code only, so it behaves the same in both.
 */
class Person {
  constructor(kind) {
    this.kind = kind;
    this.errors = []; // uncaught exceptions in the page
  }

  // --- built on the primitives, the same for both engines ---

  /** Waits until an element matching `css` whose text contains `text` is there. */
  async waitText(css, text, timeout = T) {
    await this.waitFn(
      ([c, t]) => [...document.querySelectorAll(c)].some((e) => e.textContent.includes(t)),
      [css, text],
      { timeout },
    );
  }

  /** How many elements match `css` now. */
  count(css) {
    return this.eval((c) => document.querySelectorAll(c).length, css);
  }

  /** The value of the first input matching `css`, once it is visible. */
  async inputValue(css) {
    await this.visible(css);
    return this.eval((c) => document.querySelector(c).value, css);
  }

  /** Sets a checkbox to `on` by clicking it when it is not already. */
  async setChecked(css, on) {
    await this.visible(css);
    if ((await this.eval((c) => document.querySelector(c).checked, css)) !== on) await this.click(css);
  }

  /** The page's path, e.g. "/r/ABCD". */
  async pathname() {
    return new URL(await this.url()).pathname;
  }

  /** `evaluate` as helpers.mjs's engine-neutral helpers (pieceAt) call it. */
  evaluate(fn, arg) {
    return this.eval(fn, arg);
  }

  /** A screenshot in SCREENSHOT_DIR as `<name>-<engine>.png`; returns its path. */
  async shot(name) {
    const file = path.join(SHOTS, `${name}-${this.kind}.png`);
    await this.screenshotTo(file);
    return file;
  }

  sleep(ms) {
    return new Promise((r) => setTimeout(r, ms));
  }
}

// ---------------------------------------------------------------- Chromium (playwright-core)

class ChromiumPerson extends Person {
  constructor(context, page) {
    super('chromium');
    this.context = context;
    this.setPage(page);
  }

  setPage(page) {
    this.page = page;
    page.on('pageerror', (e) => this.errors.push(e.message));
  }

  /** Closes the page (its connection goes), keeping the context and its storage. */
  closePage() {
    return this.page.close();
  }
  /** A new page in the same context (the same storage: the seat's token), at `url`. */
  async reopen(url) {
    this.setPage(await this.context.newPage());
    await this.page.goto(url);
  }

  goto(url) {
    return this.page.goto(url);
  }
  reload() {
    return this.page.reload();
  }
  async url() {
    return this.page.url();
  }
  click(css) {
    return this.page.click(css);
  }
  fill(css, value) {
    return this.page.fill(css, value);
  }
  visible(css, timeout = T) {
    return this.page.locator(css).first().waitFor({ state: 'visible', timeout });
  }
  hidden(css, timeout = T) {
    return this.page.locator(css).first().waitFor({ state: 'hidden', timeout });
  }
  eval(fn, arg) {
    return this.page.evaluate(fn, arg);
  }
  waitFn(fn, arg, { timeout = T, polling = 50 } = {}) {
    return this.page.waitForFunction(fn, arg, { timeout, polling });
  }
  mouse(x, y, { button = 'left' } = {}) {
    return this.page.mouse.click(x, y, { button });
  }
  key(k) {
    return this.page.keyboard.press(k);
  }
  box(css) {
    return this.page.locator(css).first().boundingBox();
  }
  screenshotTo(file) {
    return this.page.screenshot({ path: file });
  }
  close() {
    return this.context.close();
  }
}

async function chromiumEngine() {
  const browser = await launchChromium();
  return {
    kind: 'chromium',
    async person() {
      const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
      context.setDefaultTimeout(T);
      return new ChromiumPerson(context, await context.newPage());
    },
    close: () => browser.close(),
  };
}

// ---------------------------------------------------- Firefox ESR (puppeteer-core, WebDriver BiDi)

class FirefoxPerson extends Person {
  constructor(context, page) {
    super('firefox');
    this.context = context;
    this.setPage(page);
  }

  setPage(page) {
    this.page = page;
    page.on('pageerror', (e) => this.errors.push(e.message));
  }

  closePage() {
    return this.page.close();
  }
  async reopen(url) {
    this.setPage(await firefoxPage(this.context));
    await this.page.goto(url);
  }

  goto(url) {
    return this.page.goto(url);
  }
  reload() {
    return this.page.reload();
  }
  async url() {
    return this.page.url();
  }
  // Locators wait for the element to be visible, enabled and still before acting, like
  // playwright's page.click and page.fill.
  click(css) {
    return this.page.locator(css).setTimeout(T).click();
  }
  fill(css, value) {
    return this.page.locator(css).setTimeout(T).fill(value);
  }
  visible(css, timeout = T) {
    return this.page.waitForSelector(css, { visible: true, timeout });
  }
  hidden(css, timeout = T) {
    return this.page.waitForSelector(css, { hidden: true, timeout });
  }
  eval(fn, arg) {
    return this.page.evaluate(fn, arg);
  }
  // puppeteer takes the options before the argument.
  waitFn(fn, arg, { timeout = T, polling = 50 } = {}) {
    return this.page.waitForFunction(fn, { timeout, polling }, arg);
  }
  mouse(x, y, { button = 'left' } = {}) {
    return this.page.mouse.click(x, y, { button });
  }
  // puppeteer's BiDi keyboard knows no "Space" (its CDP one does): the key's own character.
  key(k) {
    return this.page.keyboard.press(k === 'Space' ? ' ' : k);
  }
  async box(css) {
    const el = await this.visible(css);
    return el.boundingBox();
  }
  screenshotTo(file) {
    return this.page.screenshot({ path: file });
  }
  close() {
    return this.context.close();
  }
}

/** A new page of a person's context. */
async function firefoxPage(context) {
  // A window, not a tab: only the front tab of a window is visible (document.hidden is true in
  // the others, and puppeteer's locators wait in vain for them to act).
  const page = await context.newPage({ type: 'window' });
  page.setDefaultTimeout(T);
  await page.setViewport({ ...VIEWPORT, deviceScaleFactor: 1 });
  return page;
}

async function firefoxEngine() {
  const executablePath = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
  if (!existsSync(executablePath)) {
    throw new Error(
      `no Firefox at ${executablePath}: run scripts/install-deps.sh (Debian's firefox-esr), ` +
        'set FIREFOX to its path, or leave firefox out of BC_BROWSERS',
    );
  }
  const browser = await puppeteer.launch({
    browser: 'firefox', // without it puppeteer-core starts any executablePath with Chrome's flags
    executablePath,
    protocol: 'webDriverBiDi',
    headless: true,
    timeout: 60000, // Firefox starts slower than Chromium, more so on a busy machine
    extraPrefsFirefox: {
      'media.autoplay.default': 0, // the game's sounds may play without a gesture, as in Chromium
      // The same drawing code at half the frames: two files took 76 core-s instead of 86 (three
      // runs each, interleaved), and the animations still run to their end.
      'layout.frame_rate': 30,
    },
  });
  return {
    kind: 'firefox',
    async person() {
      const context = await browser.createBrowserContext(); // a BiDi user context: its own storage
      return new FirefoxPerson(context, await firefoxPage(context));
    },
    close: () => browser.close(),
  };
}

/** Starts one browser of `kind` ('chromium' or 'firefox'); `person()` opens a new player in it. */
export function launch(kind) {
  if (kind === 'chromium') return chromiumEngine();
  if (kind === 'firefox') return firefoxEngine();
  throw new Error(`unknown browser "${kind}"`);
}

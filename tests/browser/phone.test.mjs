// Play on a phone: a 360 px wide touch screen. A piece moves by dragging it with a finger (touch
// events, which the page gets as pointer events), and the largest Kaboom board, 12x12, fits the
// screen's width with its drop buttons, and takes a drop by a tap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, squarePoint, shot } from './helpers.mjs';
import { createOneScreen, stateOf } from './one_screen_driver.mjs';
import { browser } from './shared_browser.mjs';

const PHONE = { viewport: { width: 360, height: 740 }, dpr: 2, mobile: true };

/** Drags with one finger from page point `a` to `b`, in `steps` moves (Chromium's touch input). */
async function touchDrag(page, a, b, steps = 8) {
  const cdp = await page.context().newCDPSession(page);
  const at = (p) => [{ x: p.x, y: p.y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(a) });
  for (let i = 1; i <= steps; i++) {
    const p = { x: a.x + ((b.x - a.x) * i) / steps, y: a.y + ((b.y - a.y) * i) / steps };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(p) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Whether the page scrolls sideways: it must not, at a phone's width. */
const sideways = (page) => page.evaluate(() => document.scrollingElement.scrollWidth > window.innerWidth + 1);

test('a phone: a piece dragged with a finger moves, and the board fits the screen', async () => {
  const page = await person(browser, PHONE);
  await createOneScreen(page, { variant: 'bomb' });
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 360, `the board fits 360 px: ${JSON.stringify(box)}`);
  assert.equal(await sideways(page), false, 'no sideways scrolling');
  for (let turn = 0; turn < 2; turn++) {
    const s = await stateOf(page);
    const step = s.legal.find((a) => a.kind === 'step');
    const d = await board(page);
    await touchDrag(page, squarePoint(box, d, step.from), squarePoint(box, d, step.to));
    await waitBoard(page, { version: s.version + 1 });
    const after = await stateOf(page);
    assert.ok(
      after.board.pieces.some((p) => p.at[0] === step.to[0] && p.at[1] === step.to[1]),
      `the dragged piece stands on ${step.to}`,
    );
  }
  await shot(page, 'phone-bomb-drag');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a phone: a 12x12 Kaboom board fits a 360 px wide screen and takes a tap', async () => {
  const page = await person(browser, PHONE);
  await createOneScreen(page, { variant: 'kaboom', options: { width: 12, height: 12, connect: 5 } });
  const d = await board(page);
  assert.equal(d.cols, '12');
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 360, `the board fits 360 px: ${JSON.stringify(box)}`);
  assert.ok(box.width >= 250, `and most of the width: ${box.width} px`);
  await shot(page, 'phone-kaboom-12x12');
  const drops = page.locator('.drop-col');
  const first = await drops.first().boundingBox();
  const last = await drops.last().boundingBox();
  assert.ok(
    first.x >= 0 && last.x + last.width <= 360,
    `every drop button is on the screen: ${JSON.stringify([first, last])}`,
  );
  assert.equal(await sideways(page), false, 'no sideways scrolling');
  // A tap in the last column drops a piece there.
  const at = squarePoint(box, d, [11, 11]);
  await page.touchscreen.tap(at.x, at.y);
  await waitBoard(page, { version: 1 });
  const s = await stateOf(page);
  assert.ok(
    s.board.pieces.some((p) => p.at[0] === 11 && p.at[1] === 0),
    'the piece fell to the bottom of column 12',
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
